"use strict";
// The replay page of an Island War game: the markup shows each entry, its
// events, its dice and the map after it; this script has the shared
// frame's checks (attuVerify) derive every d6 again from the revealed
// seed and marks each die shown as verified or not.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  // dieState[n]: undefined while unchecked, true when the seed gives the
  // recorded face, false when it does not.
  const dieState = [];
  const dieName = (d) => "die " + d.n + " (entry " + d.e + ", " + (d.purpose ? d.purpose + " d6" : "d6") + ")";
  // mark writes each die's state on its face in the markup.
  function mark() {
    document.querySelectorAll(".dice span[data-n]").forEach((s) => {
      const ok = dieState[+s.dataset.n];
      s.classList.toggle("ok", ok === true);
      s.classList.toggle("bad", ok === false);
      s.title = "die " + s.dataset.n + (ok === undefined ? ": not checked" : ok ? ": verified, the seed gives this face" : ": not the seed's face");
    });
  }
  window.attuReplay = { derive: attuVerify.derive };
  window.attuReplay.verified = attuVerify.report(D, dieState, dieName, document.getElementById("verdict"), mark);
})();
