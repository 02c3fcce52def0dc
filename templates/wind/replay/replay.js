"use strict";
// The replay page of a War in the Wind game: draws each step from the data
// embedded in the page; the shared frame's script (attuVerify) checks every
// die against the revealed seed, the seed against its commitment and the
// log's hash chain.
(function () {
  const started = performance.now();
  const D = JSON.parse(document.getElementById("data").textContent);
  const SIDE_NAMES = ["U.S.", "Japanese", "umpire"];
  const SIDE_OF = { us: "U.S.", jp: "Japanese", umpire: "umpire" };
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  let step = 0;
  let side = 0;
  // dieState[n]: undefined while unchecked, true when the seed gives the
  // recorded face, false when it does not.
  const dieState = [];

  // dieName names a die in the verdict line: its entry, purpose, unit and
  // hex. The checks are the shared frame's (attuVerify).
  function dieName(d) {
    let s = "die " + d.n + " (entry " + d.e + ", " + (D.purposes[d.purpose] || d.purpose);
    if (d.unit) s += ", " + d.unit;
    if (d.hex) s += " at " + d.hex;
    return s + ")";
  }

  // ---- Drawing ----

  function hexXY(h) {
    const v = parseInt(h, 10);
    const c = Math.floor(v / 100), r = v % 100;
    const g = D.geom, hh = Math.sqrt(3) * g.r;
    const x = g.left + g.r + (c - g.c0) * 1.5 * g.r;
    let y = g.top + hh / 2 + (r - g.r0) * hh;
    if (c % 2 !== 0) y += hh / 2;
    return [x, y];
  }
  function el(name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function hexOutline(h, cls, scale) {
    const [x, y] = hexXY(h);
    return el("use", { href: "#hx", x: x, y: y, class: cls, "transform-origin": x + " " + y, transform: "scale(" + scale + ")" });
  }

  function drawMap(view, fights) {
    const fg = $("fights"), hg = $("held"), ug = $("units");
    fg.replaceChildren(...fights.map((h) => hexOutline(h, "fight", 0.7)));
    hg.replaceChildren(...(view.held || []).filter((v) => v[2]).map((v) => hexOutline(v[0], "held-" + v[2], 0.62)));
    const byHex = new Map();
    const at = (h) => {
      if (!byHex.has(h)) byHex.set(h, { chips: [], names: [] });
      return byHex.get(h);
    };
    for (const u of view.units) {
      const [id, s, h, steps, down, kind] = D.units[u];
      const cls = s === "us" ? "us" : down ? "down" : "jp";
      const a = at(h);
      a.chips.push([id, cls]);
      a.names.push(id + " (" + SIDE_OF[s] + " " + kind + ", " + steps + (steps === 1 ? " step" : " steps") + (down ? ", face down" : "") + ")");
    }
    for (const [h, n] of view.hidden || []) {
      const a = at(h);
      a.chips.push([n > 5 ? "?x" + n : "?".repeat(n), "hidden"]);
      a.names.push(n + (n === 1 ? " Japanese counter" : " Japanese counters") + " the U.S. cannot identify");
    }
    const out = [];
    for (const [h, a] of byHex) {
      let chips = a.chips;
      if (chips.length > 3) chips = [chips[0], chips[1], ["+" + (chips.length - 2), chips[2][1]]];
      const [cx, cy] = hexXY(h);
      const lh = 12;
      const top = cy - (chips.length * lh) / 2;
      const g = el("g", { class: "stack" });
      g.appendChild(el("title", {}, h + ": " + a.names.join("; ")));
      chips.forEach(([label, cls], k) => {
        const w = label.length * 6 + 4;
        g.appendChild(el("rect", { class: "chip " + cls, x: cx - w / 2, y: top + k * lh, width: w, height: lh - 1 }));
        g.appendChild(el("text", { class: cls, x: cx, y: top + k * lh + 9 }, label));
      });
      out.push(g);
    }
    ug.replaceChildren(...out);
  }

  function statusLine(s, v) {
    const parts = ["Turn " + v.turn + ", " + v.date, v.night ? "night" : "day", "weather " + v.weather,
      "airpower U.S. " + v.air_us + ", Japanese " + v.air_jp, "U.S. casualties " + v.casualties];
    if (v.cleared && v.cleared.length) parts.push("zones cleared: " + v.cleared.join(", "));
    let line = "After this step: " + parts.join(" · ");
    if (s.undone) line += " — later undone by the rollback of entry " + s.undone;
    return line;
  }

  function drawDice(s) {
    const body = $("dice").tBodies[0];
    const rows = [];
    for (let n = s.dice[0]; n < s.dice[1]; n++) {
      const d = D.dice[n - 1];
      if (!d) continue;
      const tr = document.createElement("tr");
      const hit = d.need ? (d.f >= d.need ? "hit" : "miss") : "";
      const unseen = side !== 2 && d.seen !== "both" && d.seen !== ["us", "jp"][side];
      tr.className = [hit, unseen ? "unseen" : "", dieState[n] === false ? "bad" : ""].join(" ").trim();
      const check = dieState[n] === undefined ? "…" : dieState[n] ? "✓" : "✗ not the seed's";
      const cells = [d.n, (D.purposes[d.purpose] || d.purpose) + (unseen ? " (out of the " + SIDE_NAMES[side] + " player's sight)" : ""),
        SIDE_OF[d.side] || "—", d.unit || "", d.hex || "", d.need ? d.need + "+" : "—", d.f, (hit ? hit + " " : "") + check];
      cells.forEach((c, i) => {
        const td = document.createElement("td");
        td.textContent = c;
        if (i === 6) td.className = "face";
        tr.appendChild(td);
      });
      rows.push(tr);
    }
    if (rows.length === 0) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = 8;
      td.textContent = "No dice at this step.";
      tr.appendChild(td);
      rows.push(tr);
    }
    body.replaceChildren(...rows);
  }

  // ---- The luck chart ----

  const CW = 440, CH = 150, PAD = 30;
  const luckParts = [];
  function buildLuck() {
    const box = $("luck");
    const last = D.steps.length - 1;
    for (let k = 0; k < 2; k++) {
      const cls = k === 0 ? "us" : "jp";
      const top = Math.max(1, D.steps[last].luck[k][1], D.steps[last].luck[k][2]);
      const X = (i) => PAD + (last === 0 ? 0 : (i * (CW - PAD - 10)) / last);
      const Y = (v) => CH - 20 - (v * (CH - 40)) / top;
      const svg = el("svg", { viewBox: "0 0 " + CW + " " + CH, role: "img", "aria-label": SIDE_NAMES[k] + " dice luck" });
      svg.appendChild(el("line", { class: "axis", x1: PAD, y1: Y(0), x2: CW - 10, y2: Y(0) }));
      svg.appendChild(el("line", { class: "axis", x1: PAD, y1: Y(0), x2: PAD, y2: Y(top) }));
      svg.appendChild(el("text", { x: 2, y: Y(top) + 4 }, Math.round(top)));
      svg.appendChild(el("text", { x: 2, y: Y(0) + 4 }, "0"));
      svg.appendChild(el("text", { x: PAD, y: CH - 4 }, "step 1"));
      svg.appendChild(el("text", { x: CW - 60, y: CH - 4 }, "step " + (last + 1)));
      const exp = D.steps.map((s, i) => X(i) + "," + Y(s.luck[k][1])).join(" ");
      const act = D.steps.map((s, i) => X(i) + "," + Y(s.luck[k][2])).join(" ");
      svg.appendChild(el("polyline", { class: "exp", points: exp }));
      svg.appendChild(el("polyline", { class: "act " + cls, points: act }));
      const now = el("line", { class: "now", y1: 16, y2: Y(0) });
      svg.appendChild(now);
      const label = el("text", { x: PAD + 4, y: 12 });
      svg.appendChild(label);
      box.appendChild(svg);
      luckParts.push({ now, label, X });
    }
    $("lucktext").textContent = D.luck_text || "";
  }
  function drawLuck(i) {
    luckParts.forEach((p, k) => {
      const [n, e, h] = D.steps[i].luck[k];
      p.now.setAttribute("x1", p.X(i));
      p.now.setAttribute("x2", p.X(i));
      p.label.textContent = SIDE_NAMES[k] + ": " + n + " to-hit dice so far, " + h + " hits, " + e.toFixed(1) +
        " expected (dashed)";
    });
  }

  function show(i) {
    step = Math.max(0, Math.min(D.steps.length - 1, i));
    const s = D.steps[step];
    const v = D.views[s.view[side]];
    $("slider").value = step;
    $("stepno").textContent = "step " + (step + 1) + " of " + D.steps.length + " (log entry " + s.entry + ")";
    $("title").textContent = s.title + " — as " + (side === 2 ? "the umpire" : "the " + SIDE_NAMES[side] + " player") + " saw it";
    $("status").textContent = statusLine(s, v);
    drawMap(v, s.fight[side]);
    const boxes = (v.boxes || []).map((b) => b[0] + " " + b[1] + ": " + b[2] + (b[2] === 1 ? " unit" : " units") + " (" + b[3] + " steps)");
    $("boxes").textContent = boxes.length ? "Off the map — " + boxes.join("; ") : "";
    $("broken").hidden = !s.broken;
    $("broken").textContent = s.broken || "";
    const evs = s.events[side].map((t) => {
      const li = document.createElement("li");
      li.textContent = D.texts[t];
      return li;
    });
    if (evs.length === 0) {
      const li = document.createElement("li");
      li.textContent = "Nothing this player could see.";
      evs.push(li);
    }
    $("events").replaceChildren(...evs);
    drawDice(s);
    drawLuck(step);
    document.body.dataset.step = step;
  }

  // ---- Navigation ----

  $("slider").max = D.steps.length - 1;
  $("slider").addEventListener("input", (e) => show(+e.target.value));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(step - 1));
  $("next").addEventListener("click", () => show(step + 1));
  $("last").addEventListener("click", () => show(D.steps.length - 1));
  document.querySelectorAll("input[name=side]").forEach((r) =>
    r.addEventListener("change", (e) => {
      side = +e.target.value;
      show(step);
    }));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return; // the slider and the radios keep their own keys
    const to = { ArrowRight: step + 1, ArrowDown: step + 1, ArrowLeft: step - 1, ArrowUp: step - 1, Home: 0, End: D.steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });

  buildLuck();
  show(0);
  const shown = performance.now();

  window.attuReplay = {
    derive: attuVerify.derive,
    steps: D.steps.length,
    step: () => step,
    // When the script began and when the first step was drawn, in ms
    // since the navigation began; verifiedAt follows once checked.
    startedAt: started,
    shownAt: shown,
  };
  const verdict = $("verdict");
  window.attuReplay.verified = attuVerify.verify(D, dieState, dieName).then(
    (msg) => {
      window.attuReplay.verifiedAt = performance.now();
      verdict.dataset.state = "ok";
      verdict.textContent = msg;
    },
    (err) => {
      window.attuReplay.verifiedAt = performance.now();
      verdict.dataset.state = "bad";
      verdict.textContent = "✗ " + (err instanceof attuVerify.Mismatch ? err.message : "the check could not run: " + err);
    }).then(() => show(step));

})();
