"use strict";
// Unpacks a page attu mailed: its style sheet, its markup and its script
// travel DEFLATE-compressed in the block below, a third of their size,
// and the browser inflates them (DecompressionStream). The style sheet
// and the script go in as they stand in the page's policy, by hash.
(async function () {
  const packed = document.getElementById("packed");
  try {
    const bytes = Uint8Array.from(atob(packed.textContent), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    const [css, markup, js] = JSON.parse(await new Response(stream).text());
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
    packed.insertAdjacentHTML("beforebegin", markup);
    const script = document.createElement("script");
    script.textContent = js;
    document.body.append(script);
  } catch (e) {
    const p = document.createElement("p");
    p.textContent = "This page could not unpack itself (" + e + "). Open it in a current browser: Chrome, Edge, Firefox or Safari.";
    packed.before(p);
  }
})();
