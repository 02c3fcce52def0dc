"use strict";
// sheetFile is how an order sheet's file leaves the page, the same in
// every system's sheet: the download and mail links and their note, and
// the copy, download and mail made at the player's click. The token is
// the sheet's, typed in and kept in its memory only: fileText(true) is
// the one file that carries it, made at the click and kept in no
// element. D is the sheet's data (address, subject, file), $ finds an
// element by id, hasToken says whether a token was typed. It returns the
// function that redraws the links after the file changed.
function sheetFile(D, $, fileText, hasToken) {
  // mailHref is the mail link of the file: its body is the file without
  // its comment lines.
  function mailHref(withToken) {
    if (!D.address) return "";
    const body = fileText(withToken).split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
    return "mailto:" + D.address + "?subject=" + encodeURIComponent(D.subject) + "&body=" + encodeURIComponent(body);
  }
  function links() {
    const dl = $("download");
    dl.href = "#";
    dl.download = D.file;
    dl.textContent = "Download " + D.file;
    const m = $("mailto"), href = mailHref(true);
    // Mail programs cut long mailto: links; past 1,800 characters the
    // file goes by download or copy.
    m.hidden = !href || href.length > 1800;
    m.href = m.hidden ? "#" : mailHref(false);
    $("outnote").textContent = !hasToken() ? "Type your token above: the file carries a placeholder until you do." : !D.address ? "" : m.hidden ? "Too long for a mail link: copy or download it, and mail it to " + D.address + " with " + D.subject + " in the subject." : "";
  }
  function download(e) {
    e.preventDefault();
    const a = document.createElement("a");
    a.href = "data:application/yaml;charset=utf-8," + encodeURIComponent(fileText(true));
    a.download = D.file;
    a.click();
  }
  function mail(e) {
    if ($("mailto").hidden) return;
    e.preventDefault();
    window.location.href = mailHref(true);
  }
  function copy() {
    const text = fileText(true);
    const done = () => { $("outnote").textContent = "Copied."; };
    const fallback = () => {
      const t = document.createElement("textarea");
      t.value = text;
      document.body.appendChild(t);
      t.select();
      const ok = document.execCommand("copy");
      t.remove();
      if (ok) done();
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  }
  $("copy").addEventListener("click", copy);
  $("download").addEventListener("click", download);
  $("mailto").addEventListener("click", mail);
  return links;
}
