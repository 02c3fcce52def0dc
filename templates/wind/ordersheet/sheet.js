"use strict";
// The order sheet of an attu report: the island as the reader sees it and
// the choices of the wait at hand, both from the JSON block of the page
// (the reader's View and Outlook, the data the order template is written
// from). It writes the order file in the usual schema. It keeps the token
// typed into it in a variable only, never in the page's elements (a saved
// page does not hold it): the file shown names it, and the copy, the
// download and the mail made when the player asks for them carry it. It
// fetches and stores nothing; it reads an order file only when the player
// pastes or opens one, to go on from it.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const V = D.view, O = D.outlook;
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const SIDE = { us: "U.S.", jp: "Japanese" };
  const plural = (n, w) => n + " " + w + (n === 1 ? "" : w.endsWith("x") ? "es" : "s");

  // ---- The map ----

  function hexXY(h) {
    const v = parseInt(h, 10), c = Math.floor(v / 100), r = v % 100;
    const g = D.geom, hh = Math.sqrt(3) * g.r;
    const x = g.left + g.r + (c - g.c0) * 1.5 * g.r;
    let y = g.top + hh / 2 + (r - g.r0) * hh;
    if (c % 2 !== 0) y += hh / 2;
    return [x, y];
  }
  const LAND = new Set();
  for (let i = 0; i < D.land.length; i += 4) LAND.add(D.land.substr(i, 4));
  // hexAt is the land hex under the map point x y, or "".
  function hexAt(x, y) {
    const g = D.geom;
    const c0 = Math.round((x - g.left - g.r) / (1.5 * g.r)) + g.c0;
    let best = "", bd = Infinity;
    for (let c = c0 - 1; c <= c0 + 1; c++) {
      const hh = Math.sqrt(3) * g.r;
      const r0 = Math.round((y - g.top - hh / 2 - (c % 2 ? hh / 2 : 0)) / hh) + g.r0;
      for (let r = r0 - 1; r <= r0 + 1; r++) {
        if (c < 0 || r < 0) continue;
        const h = String(c * 100 + r).padStart(4, "0");
        const [hx, hy] = hexXY(h), d = (hx - x) ** 2 + (hy - y) ** 2;
        if (d < bd) { bd = d; best = h; }
      }
    }
    return bd <= g.r * g.r && LAND.has(best) ? best : "";
  }
  function el(name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) if (attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function outline(h, cls, scale) {
    const [x, y] = hexXY(h);
    return el("use", { href: "#hx", x: x, y: y, class: cls, "transform-origin": x + " " + y, transform: "scale(" + scale + ")" });
  }
  function hexName(h) {
    const v = (V.victory_hexes || []).find((v) => v.hex === h);
    const z = D.zones.find((z) => z.hex === h);
    let s = h;
    if (v) s += " " + v.name + " (victory hex, zone " + v.zone + (v.held ? ", held by the " + SIDE[v.held] : "") + ")";
    if (z) s += " landing zone " + z.id;
    return s;
  }

  // UNITS: every unit and anonymous stack the reader sees, where the
  // report puts it; ui.moved gives the hexes the orders written so far
  // take the reader's units to, and the map draws them there.
  const UNITS = [];
  const steps = {};
  // Supply and zones of control of the reader's units, as the report
  // states them.
  const state = Object.fromEntries((O.units || []).map((u) => [u.id, u]));
  for (const u of V.units.concat(V.enemy || [])) {
    steps[u.id] = u.steps;
    const st = state[u.id] || {};
    const more = (u.face_down ? ", face down" : "") + (st.supply === "out" ? ", out of supply" : "") + (st.enemy_zoc ? ", in an enemy zone of control" : "");
    if (u.hex) UNITS.push({ id: u.id, hex: u.hex, v: u, own: u.side === V.side, cls: (u.side === V.side ? "us" : u.face_down ? "down" : "jp") + (st.supply === "out" ? " oos" : ""), text: u.id + " (" + SIDE[u.side] + " " + u.kind + ", " + plural(u.steps, "step") + more + ")" });
  }
  for (const s of V.hidden || []) UNITS.push({ hex: s.hex, id: s.count > 5 ? "?x" + s.count : "?".repeat(s.count), cls: "hidden", text: plural(s.count, "Japanese counter") + " you cannot identify", n: s.count });
  // posOf is where u stands once the orders of pos (id to hex) are done.
  const posOf = (u, pos) => (u.own && pos && pos[u.id]) || u.hex;
  function unitsIn(h, pos) {
    return UNITS.filter((u) => posOf(u, pos || ui.moved()) === h);
  }
  function whoIsIn(h) {
    return unitsIn(h).map((u) => u.n ? u.n + " hidden" : u.id).join(", ");
  }
  // stackIn counts the reader's units in h with pos (rule 4.0) against
  // the engine's limits, which come with the data: steps against 12 for
  // one battalion or 8 for several, an independent unit belonging to
  // every battalion (4.1); a landing zone's capacity in its hex (9.2.1);
  // for the Japanese, infantry and artillery units against 3, Unknown
  // units free (4.2).
  const IND = new Set(D.stacking.independent || []);
  function stackIn(h, pos) {
    const own = UNITS.filter((u) => u.own && posOf(u, pos) === h), L = D.stacking;
    if (V.side === "jp") {
      const n = own.filter((u) => u.v.kind !== "unknown").length;
      return { n: n, limit: L.japanese, text: n + " of " + L.japanese + " infantry and artillery units, Unknown units free (rule 4.2)" };
    }
    const n = own.reduce((t, u) => t + u.v.steps, 0), z = D.zones.find((z) => z.hex === h);
    if (z) return { n: n, limit: z.capacity, text: n + " of " + z.capacity + " steps (landing zone " + z.id + ", rule 9.2.1)" };
    const bats = [...new Set(own.filter((u) => !IND.has(u.id)).map((u) => u.v.battalion))].sort();
    const limit = bats.length > 1 ? L.mixed : L.one_battalion;
    return { n: n, limit: limit, text: n + " of " + limit + " steps" + (bats.length ? " of " + bats.join(" and ") : "") + " (" + (bats.length > 1 ? "mixed battalions" : "one battalion") + ", rule 4.1)" };
  }
  // overStack says where unit id, going along path with pos as it stands,
  // over-stacks a hex (stacking holds in every hex entered, rule 4.0), or
  // "".
  function overStack(id, path, pos) {
    for (const h of path) {
      const st = stackIn(h, Object.assign({}, pos, { [id]: h }));
      if (st.n > st.limit) return h + " would hold " + st.text;
    }
    return "";
  }
  function drawUnits() {
    const out = [], byHex = new Map(), pos = ui.moved();
    for (const u of UNITS) {
      const h = posOf(u, pos);
      if (!byHex.has(h)) byHex.set(h, []);
      byHex.get(h).push(u);
    }
    for (const [h, list] of byHex) {
      let chips = list;
      // Two rows under the hex id at most: the rest show as "+n" (the
      // title and the line under the map name them all).
      if (chips.length > 2) chips = [chips[0], { id: "+" + (chips.length - 1), cls: chips[1].cls }];
      const [cx, cy] = hexXY(h);
      const top = cy - 6;
      const g = el("g", { "data-hex": h, "data-chips": list.filter((u) => u.v).map((u) => u.id).join(" ") });
      g.appendChild(el("title", {}, h + ": " + list.map((u) => u.text).join("; ")));
      chips.forEach((c, k) => {
        const w = c.id.length * 6 + 4;
        g.appendChild(el("rect", { class: "chip " + c.cls + (c.hex && c.hex !== h ? " moved" : ""), x: cx - w / 2, y: top + k * 11, width: w, height: 11 }));
        g.appendChild(el("text", { class: c.cls, x: cx, y: top + k * 11 + 9 }, c.id));
      });
      out.push(g);
    }
    $("units").replaceChildren(...out);
  }
  function drawBase() {
    const ids = [], hexes = [];
    let i = 0;
    for (const h of LAND) {
      const [x, y] = hexXY(h), l = D.levels[i++];
      hexes.push(el("use", { href: "#hx", x: x, y: y, class: l === "L" ? "lake" : "l" + l }));
      ids.push(el("text", { x: x, y: y - D.geom.r * 0.4 }, h));
    }
    $("hexes").replaceChildren(...hexes);
    $("ids").replaceChildren(...ids);
    $("held").replaceChildren(...(V.victory_hexes || []).filter((v) => v.held).map((v) => outline(v.hex, "held-" + v.held, 0.62)));
    drawUnits();
    const parts = ["Turn " + V.turn + ", " + D.date, V.night ? "night" : "day", "weather " + V.weather + " (spotting distance " + D.spotting + ")",
      "airpower U.S. " + V.air.us + ", Japanese " + V.air.jp, "U.S. casualties " + V.casualties];
    if ((V.cleared_zones || []).length) parts.push("zones cleared: " + V.cleared_zones.join(", "));
    if (D.deadline) parts.push("deadline " + D.deadline);
    $("status").textContent = parts.join(" · ");
    const boxes = (V.boxes || []).filter((b) => b.box !== "unused").map((b) => SIDE[b.side] + " " + b.box + ": " + plural(b.units, "unit") + " (" + plural(b.steps, "step") + ")");
    $("boxes").textContent = boxes.length ? "Off the map — " + boxes.join("; ") : "";
  }
  // marks: the hexes to show for the choice at hand, each [hex, class,
  // label]; path: a list of hexes to draw as a route.
  function mark(list, path) {
    const out = [];
    for (const [h, cls, label] of list) {
      out.push(outline(h, cls, cls === "o-sel" || cls === "o-spot" ? 0.8 : 0.92));
      if (label !== undefined && label !== "") {
        const [x, y] = hexXY(h);
        out.push(el("text", { x: x + D.geom.r * 0.5, y: y + D.geom.r * 0.75 }, label));
      }
    }
    $("marks").replaceChildren(...out);
    drawPath(path);
  }
  function drawPath(path) {
    if (!path || path.length < 2) return $("path").replaceChildren();
    $("path").replaceChildren(el("polyline", { points: path.map((h) => hexXY(h).join(",")).join(" ") }));
  }
  function svgPoint(e) {
    const svg = $("map"), p = svg.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }
  function where(h) {
    const [x, y] = h ? hexXY(h) : [-100, -100];
    $("cursor").setAttribute("x", x);
    $("cursor").setAttribute("y", y);
    if (!h) return;
    const own = unitsIn(h).some((u) => u.own);
    $("where").textContent = hexName(h) + (whoIsIn(h) ? ": " + whoIsIn(h) : "") + (own ? " · your stack: " + stackIn(h, ui.moved()).text : "");
  }
  let zoom = 1;
  function setZoom(z) {
    zoom = Math.max(1, Math.min(4, z));
    $("map").style.width = zoom * 100 + "%";
  }
  // idPx is the size on the screen of the hex ids' letters, in CSS pixels.
  const ID_FONT = 11, ID_PX = 9;
  const idPx = () => ID_FONT * $("map").getBoundingClientRect().width / $("map").viewBox.baseVal.width;
  // firstZoom zooms in until the hex ids are ID_PX pixels high (the
  // whole island fits a laptop's width, not a phone's) and centres the
  // reader's own units.
  function firstZoom() {
    setZoom(zoom * ID_PX / idPx());
    const own = UNITS.filter((u) => u.own);
    if (!own.length || zoom === 1) return;
    const xy = own.map((u) => hexXY(u.hex));
    centre(xy.reduce((t, p) => t + p[0], 0) / xy.length, xy.reduce((t, p) => t + p[1], 0) / xy.length);
  }
  // centre scrolls the map so that its point x y is in the middle.
  function centre(x, y) {
    const box = $("mapbox"), vb = $("map").viewBox.baseVal, k = $("map").getBoundingClientRect().width / vb.width;
    box.scrollLeft = (x - vb.x) * k - box.clientWidth / 2;
    box.scrollTop = (y - vb.y) * k - box.clientHeight / 2;
  }

  // ---- The wait at hand ----

  // ui is the wait at hand: what it says, what a click on the map does,
  // the file's body, the hexes its orders take units to (moved), what
  // the player left out of the file (leftOut) and how a loaded file
  // fills it in (load).
  const ui = { caveat: "", onHex: () => {}, onHover: () => {}, body: () => "", moved: () => ({}), leftOut: () => [], load: null };
  function button(text, attrs, on) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    for (const k in attrs || {}) b.setAttribute(k, attrs[k]);
    b.addEventListener("click", on);
    return b;
  }
  function node(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function select(values, value, label) {
    const s = document.createElement("select");
    if (label) s.setAttribute("aria-label", label);
    for (const v of values) {
      const o = document.createElement("option");
      o.value = v; o.textContent = v === "" ? "none" : v;
      s.appendChild(o);
    }
    s.value = value;
    return s;
  }
  const flow = (o) => "{" + Object.entries(o).map(([k, v]) => k + ": " + (Array.isArray(v) ? "[" + v.join(", ") + "]" : v)).join(", ") + "}";

  // Actions (rule 3.5): pick a unit, see and click its choices; the
  // activations run in the order listed.
  function actions() {
    // Each move is "to mp via": the whole path follows the vias back to
    // the unit's hex.
    const opts = (D.options || []).map((o) => {
      const by = {};
      const moves = (o.moves || []).map((s) => { const [to, mp, via] = s.split(" "); return (by[to] = { to: to, mp: +mp, via: via }); });
      for (const m of moves) {
        m.path = [];
        for (let h = m.to; h !== o.hex && m.path.length < 99; h = by[h] ? by[h].via : o.hex) m.path.unshift(h);
      }
      return Object.assign({}, o, { moves: moves });
    });
    const optOf = Object.fromEntries(opts.map((o) => [o.unit, o]));
    const status = Object.fromEntries((O.units || []).map((u) => [u.id, u]));
    const acts = [];
    let sel = null;
    const box = $("choices");
    box.append(node("h2", "Pick a unit"), node("p", "Click one of your units on the map or below; its choices show on the map and under the list. Click a green hex to move there along the path drawn, a red one to declare melee, an orange one to fire.", "small"));
    const list = node("div", undefined, "units");
    const stop = node("p", undefined, "stop");
    stop.setAttribute("role", "alert");
    stop.hidden = true;
    const detail = node("div", undefined, "opts");
    box.append(list, stop, detail);
    const buttons = {};
    for (const o of opts) {
      const st = status[o.unit] || {};
      buttons[o.unit] = list.appendChild(button(o.unit, { "data-unit": o.unit, "aria-pressed": "false", title: o.idle ? "nothing to do: " + o.idle : o.unit + " in " + o.hex + ", " + st.mp + " MP", class: o.idle ? "idle" : "" }, () => pick(o.unit)));
    }
    function pick(id) {
      sel = sel === id ? null : id;
      for (const k in buttons) buttons[k].setAttribute("aria-pressed", String(k === sel));
      show();
    }
    // posAfter is where the moves of list take their units: the map,
    // stacking and later orders see them there.
    function posAfter(list) {
      const pos = {};
      for (const a of list) if (a.kind === "move") pos[a.unit] = a.path[a.path.length - 1];
      return pos;
    }
    ui.moved = () => posAfter(acts);
    function add(a) {
      stop.hidden = true;
      const why = a.kind === "move" ? overStack(a.unit, a.path, posAfter(acts)) : "";
      if (why) {
        // rule 4.0: the engine refuses a file that over-stacks a hex.
        stop.textContent = "Not added: " + a.unit + " would over-stack: " + why + ". attu refuses a file that over-stacks a hex.";
        stop.hidden = false;
        return show();
      }
      if (a.kind === "melee") {
        const hexOfUnit = (id) => (optOf[id] || {}).hex;
        const same = acts.find((b) => b.kind === "melee" && b.target === a.target && hexOfUnit(b.units[0]) === hexOfUnit(a.units[0]));
        if (same) {
          if (!same.units.includes(a.units[0])) same.units.push(a.units[0]);
          return render();
        }
      }
      if (a.kind === "air") {
        const air = acts.find((b) => b.kind === "air");
        if (air) { air.air.push(a.air[0]); return render(); }
      }
      acts.push(a);
      render();
    }
    const addMove = (o, m) => add({ kind: "move", unit: o.unit, path: m.path, mp: m.mp, from: o.hex });
    const addMelee = (o, h) => add({ kind: "melee", units: [o.unit], target: h });
    const addFire = (o, f, spotter, tu) => add({ kind: "fire", units: [o.unit], target: f.target, spotter: spotter, target_unit: tu });
    function show() {
      detail.replaceChildren();
      const o = optOf[sel];
      if (!o) return mark(acts.flatMap(doneMarks));
      const st = status[o.unit] || {};
      detail.append(node("h3", o.unit + " in " + o.hex + ": " + plural(st.steps, "step") + " of " + st.max_steps + ", " + st.mp + " MP" +
        (st.supply === "out" ? ", out of supply" : "") + (st.enemy_zoc ? ", in an enemy zone of control" : "") + (st.face_down ? ", face down" : "")));
      if (o.idle) detail.append(node("p", "Nothing to do now: " + o.idle + "."));
      const marks = [[o.hex, "o-sel"]];
      if ((o.moves || []).length) {
        const row = node("div", "Move to: ", "row");
        const pos = posAfter(acts);
        for (const m of o.moves) {
          const full = overStack(o.unit, m.path, pos), st = stackIn(m.to, Object.assign({}, pos, { [o.unit]: m.to }));
          row.append(button(m.to + " (" + m.mp + ")", { "data-move": m.to, class: full ? "full" : "", title: "path " + m.path.join(" ") + ", " + m.mp + " MP; " + (full ? "full: " + full : m.to + " would hold " + st.text) }, () => addMove(o, m)));
          marks.push([m.to, full ? "o-full" : "o-move", full ? "full" : m.mp]);
        }
        detail.append(row);
      }
      if ((o.melee || []).length) {
        const row = node("div", "Declare melee against: ", "row");
        for (const h of o.melee) {
          row.append(button(h + " (" + whoIsIn(h) + ")", { "data-melee": h }, () => addMelee(o, h)));
          marks.push([h, "o-melee"]);
        }
        detail.append(row);
      }
      for (const f of o.fire || []) {
        const row = node("div", "Fire at " + f.target + " (" + plural(f.distance, "hex") + ", " + (f.sees ? "in sight" : f.los ? "beyond spotting distance" : "no line of sight") + ")", "row");
        let sp = null, tu = null;
        if ((f.spotters || []).length) {
          sp = select((f.sees ? [""] : []).concat(f.spotters), f.sees ? "" : f.spotters[0], "spotter for " + f.target);
          sp.dataset.spotters = f.target;
          row.append(" spotter ", sp);
        }
        if ((f.target_units || []).length) {
          tu = select(f.target_units, f.target_units[0], "target unit in " + f.target);
          row.append(" target unit ", tu);
        }
        row.append(" ", button("fire", { "data-fire": f.target }, () => addFire(o, f, sp ? sp.value : "", tu ? tu.value : "")));
        detail.append(row);
        if (!marks.some((m) => m[0] === f.target && m[1] === "o-melee")) marks.push([f.target, "o-fire"]);
        for (const s of f.spotters || []) {
          const sh = (optOf[s] || status[s] || {}).hex;
          if (sh) marks.push([sh, "o-spot"]);
        }
      }
      mark(marks);
    }
    function doneMarks(a) {
      return a.kind === "move" ? [[a.path[a.path.length - 1], "o-done"]] : a.target ? [[a.target, "o-done"]] : [];
    }
    // ask shows a question by the point clicked, with a button for each
    // answer [name, label, do] and one to leave it.
    function ask(e, text, answers) {
      const q = node("div", undefined, "ask");
      q.id = "ask";
      q.setAttribute("role", "dialog");
      q.setAttribute("aria-label", text);
      const close = () => q.remove();
      q.append(node("p", text));
      for (const [name, label, go] of answers) q.append(button(label, { "data-ask": name }, () => { close(); go(); }));
      q.append(button("neither", { "data-ask": "" }, close));
      const old = $("ask");
      if (old) old.remove();
      document.body.append(q);
      const x = e ? e.clientX : innerWidth / 2, y = e ? e.clientY : innerHeight / 2;
      q.style.left = Math.max(4, Math.min(x + 8, innerWidth - q.offsetWidth - 4)) + "px";
      q.style.top = Math.max(4, Math.min(y + 8, innerHeight - q.offsetHeight - 4)) + "px";
      q.querySelector("button").focus();
    }
    ui.onHover = (h) => {
      const o = optOf[sel];
      const m = o && (o.moves || []).find((m) => m.to === h);
      drawPath(m ? [o.hex].concat(m.path) : null);
      if (m) {
        const pos = posAfter(acts), full = overStack(o.unit, m.path, pos);
        $("where").textContent += " · " + (full ? "full: " + full : o.unit + " here: " + h + " would hold " + stackIn(h, Object.assign({}, pos, { [o.unit]: h })).text);
      }
    };
    ui.onHex = (h, e) => {
      const o = optOf[sel];
      if (o) {
        const m = (o.moves || []).find((m) => m.to === h);
        if (m) return addMove(o, m);
        const f = (o.fire || []).find((f) => f.target === h);
        const fire = () => addFire(o, f, f.sees ? "" : f.spotters[0], (f.target_units || [])[0] || "");
        // A hex the unit may both melee and fire at: the player says which.
        if ((o.melee || []).includes(h) && f) return ask(e, o.unit + " against " + h + " (" + whoIsIn(h) + "):", [["melee", "declare melee (rule 8.2)", () => addMelee(o, h)], ["fire", "fire (rule 8.1)", fire]]);
        if ((o.melee || []).includes(h)) return addMelee(o, h);
        if (f) return fire();
      }
      const pos = posAfter(acts), mine = opts.filter((u) => (pos[u.unit] || u.hex) === h);
      // A hex of several units: each click picks the next.
      if (mine.length) pick(mine[(mine.findIndex((u) => u.unit === sel) + 1) % mine.length].unit);
    };
    // Air attacks (8.1.6) and Colonel Yamasaki (11.3).
    const air = V.side === "us" ? V.air.us : V.air.jp;
    const targets = [...new Set(UNITS.filter((u) => !u.own).map((u) => u.hex))].sort();
    if (air > 0 && targets.length) {
      const row = node("div", undefined, "row");
      const hs = select(targets, targets[0], "air attack hex"), n = document.createElement("input");
      n.type = "number"; n.min = 1; n.max = air; n.value = air; n.setAttribute("aria-label", "air factors");
      row.append(node("h3", "Air attacks (rule 8.1.6): " + plural(air, "factor") + " this turn"), "at ", hs, " factors ", n, " ",
        button("add air attack", { "data-air": "1" }, () => add({ kind: "air", air: [{ hex: hs.value, factors: +n.value }] })));
      box.append(row);
    }
    if (O.yamasaki && O.yamasaki.available) {
      box.append(node("p", "Colonel Yamasaki may lead his charge now (rule 11.3): this sheet does not write that order; add it to the file by hand, as the order template explains.", "small"));
    }
    ui.caveat = "Each choice shown is legal on its own in the position as it stands. The sheet moves the counters as ordered, counts each stack with them and stops a move that would over-stack a hex (rule 4.0). What it cannot know (the dice of a melee or a fire, what an earlier fire removes, a spotter's sight after it moves) the notes say, and attu judges the whole file when it arrives.";
    const list2 = $("acts");
    function render() {
      list2.replaceChildren();
      drawUnits();
      acts.forEach((a, i) => {
        const li = node("li", describe(a));
        li.append(button("↑", { "aria-label": "move up", "data-up": i }, () => { if (i > 0) { acts.splice(i - 1, 0, acts.splice(i, 1)[0]); render(); } }),
          button("↓", { "aria-label": "move down", "data-down": i }, () => { if (i < acts.length - 1) { acts.splice(i + 1, 0, acts.splice(i, 1)[0]); render(); } }),
          button("✕", { "aria-label": "remove", "data-remove": i }, () => { acts.splice(i, 1); render(); }));
        for (const n of notes(a, acts.slice(0, i))) li.append(node("div", n, /^Over-stacks|already has an order/.test(n) ? "note bad" : "note"));
        list2.append(li);
      });
      for (const k in buttons) buttons[k].classList.toggle("ordered", acts.some((a) => unitsOf(a).includes(k)));
      show();
      write();
    }
    const unitsOf = (a) => a.kind === "move" ? [a.unit] : a.units || [];
    function describe(a) {
      switch (a.kind) {
        case "move": return "move " + a.unit + ": " + a.from + " → " + a.path.join(" → ") + " (" + (a.mp === null ? "?" : a.mp) + " MP)";
        case "melee": return "melee " + a.units.join(", ") + " against " + a.target + " (" + whoIsIn(a.target) + ")";
        case "fire": return "fire " + a.units.join(", ") + " at " + a.target + (a.spotter ? ", spotter " + a.spotter : "") + (a.target_unit ? ", at " + a.target_unit : "");
        default: return "air attacks: " + a.air.map((x) => x.hex + " ×" + x.factors).join(", ");
      }
    }
    // notes says what earlier activations may change for a, as far as the
    // sheet can tell; the server judges.
    function notes(a, before) {
      const out = [];
      const moved = new Map();
      for (const b of before) if (b.kind === "move") moved.set(b.unit, b);
      for (const u of unitsOf(a)) {
        if (before.some((b) => unitsOf(b).includes(u))) out.push(u + " already has an order above: each unit acts once a turn (rule 3.5), so attu refuses this one.");
        if (a.kind !== "move" && moved.has(u)) out.push(u + " moves above, so this order is judged from " + moved.get(u).path.slice(-1)[0] + ".");
      }
      if (a.kind === "move") {
        const full = overStack(a.unit, a.path, posAfter(before));
        if (full) out.push("Over-stacks: " + full + ". attu refuses this file.");
        else out.push(a.path[a.path.length - 1] + " then holds " + stackIn(a.path[a.path.length - 1], posAfter(before.concat([a]))).text + ".");
        for (const b of before) {
          if (b.kind !== "move") continue;
          const end = b.path[b.path.length - 1];
          if (a.path.includes(b.from)) out.push(b.unit + " leaves " + b.from + " above: the hex it left changes stacking and zones of control on this path.");
        }
      }
      if (a.spotter && moved.has(a.spotter)) out.push("The spotter " + a.spotter + " moves above: whether it still sees " + a.target + " is judged after its move (rule 8.1.4).");
      if (a.target && before.some((b) => (b.kind === "fire" || b.kind === "air") && (b.target === a.target || (b.air || []).some((x) => x.hex === a.target)))) out.push("Fire above may empty " + a.target + ": then this order is skipped.");
      if (a.kind === "air") {
        const total = a.air.reduce((s, x) => s + x.factors, 0);
        if (total > air) out.push("That is " + total + " factors; you have " + air + ".");
      }
      return out;
    }
    // Loading: each activation of the file that is among the choices the
    // sheet lists goes in, in the file's order; the rest are named.
    ui.load = (list, line, say) => {
      acts.length = 0;
      const items = listOf(list);
      if (items === null) say(line, "actions: is not a list of activations; not read.");
      for (const it of items || []) {
        const n = LINE.get(it) || LINE.get(items), k = isMap(it) ? Object.keys(it) : [];
        if (k.length !== 1) { say(n, "an activation is one of move:, melee:, fire: or air:; not read."); continue; }
        const had = acts.length, why = loadAct(k[0], it[k[0]]);
        if (why) say(n, k[0] + ": " + why);
        for (const a of acts.slice(had)) a.line = n;
      }
      acts.forEach((a, i) => {
        const full = a.kind === "move" && overStack(a.unit, a.path, posAfter(acts.slice(0, i)));
        if (full) say(a.line, "move: " + a.unit + " over-stacks: " + full + ". Read, and marked in the list: attu refuses the file as it stands.");
      });
      sel = null;
      for (const b in buttons) buttons[b].setAttribute("aria-pressed", "false");
      render();
      return acts.length;
    };
    const isHex = (h) => /^\d{4}$/.test(h);
    function loadAct(k, x) {
      if (k === "yamasaki") return "the sheet does not write Colonel Yamasaki's charge (rule 11.3): add it to the file again by hand.";
      if (k === "air") {
        const list = (listOf(x) || []).filter((a) => isMap(a) && isHex(a.hex) && +a.factors > 0);
        if (!list.length || list.length !== (listOf(x) || []).length) return "write each air attack {hex: HEX, factors: N}; not read.";
        for (const a of list) add({ kind: "air", air: [{ hex: a.hex, factors: +a.factors }] });
        return "";
      }
      if (!isMap(x)) return "not a mapping {...}; not read.";
      if (k === "move") {
        const o = optOf[x.unit], path = (listOf(x.path) || []).map(String);
        if (!o) return "no unit " + x.unit + " of yours has choices in this wait; not read.";
        if (!path.length || !path.every(isHex)) return x.unit + ": the path is not a list of hexes; not read.";
        const m = (o.moves || []).find((m) => m.to === path[path.length - 1]);
        if (!m) return x.unit + " may not move to " + path[path.length - 1] + " (the sheet lists its moves under the unit); not read.";
        const same = m.path.join(" ") === path.join(" ");
        acts.push({ kind: "move", unit: o.unit, path: same ? m.path : path, mp: same ? m.mp : null, from: o.hex });
        return same ? "" : x.unit + ": read, but not along the path the sheet lists to " + m.to + " (" + m.path.join(" ") + "): kept as the file has it, its cost not known to the sheet.";
      }
      const units = (listOf(x.units) || []).map(String);
      if (k === "melee") {
        const ok = units.filter((u) => optOf[u] && (optOf[u].melee || []).includes(x.target));
        if (ok.length) acts.push({ kind: "melee", units: ok, target: x.target });
        return ok.length === units.length && units.length ? "" : (units.filter((u) => !ok.includes(u)).join(", ") || "no unit") + " may not declare melee against " + x.target + "; " + (ok.length ? "read for " + ok.join(", ") + " only." : "not read.");
      }
      if (k === "fire") {
        const fo = (u) => optOf[u] && (optOf[u].fire || []).find((f) => f.target === x.target);
        const ok = units.filter((u) => fo(u));
        if (ok.length !== units.length || !units.length) return (units.filter((u) => !fo(u)).join(", ") || "no unit") + " may not fire at " + x.target + "; not read.";
        const f = fo(ok[0]), sp = x.spotter || "", tu = x.target_unit || "";
        if (sp ? !(f.spotters || []).includes(sp) : !f.sees) return ok[0] + " at " + x.target + ": " + (sp ? sp + " is not a spotter the sheet lists for it" : "it needs a spotter") + "; not read.";
        if (tu && !(f.target_units || []).includes(tu)) return ok[0] + " at " + x.target + ": no target unit " + tu + " there; not read.";
        acts.push({ kind: "fire", units: ok, target: x.target, spotter: sp, target_unit: tu });
        return "";
      }
      return "not an order of this wait; not read.";
    }
    ui.body = () => {
      if (!acts.length) return "actions: []\n";
      let s = "actions:\n";
      for (const a of acts) {
        switch (a.kind) {
          case "move": s += "  - move: " + flow({ unit: a.unit, path: a.path }) + "  # " + (a.mp === null ? "a path of the file loaded" : a.mp + " MP") + " from " + a.from + "\n"; break;
          case "melee": s += "  - melee: " + flow({ units: a.units, target: a.target }) + "\n"; break;
          case "fire": {
            const f = { units: a.units, target: a.target };
            if (a.spotter) f.spotter = a.spotter;
            if (a.target_unit) f.target_unit = a.target_unit;
            s += "  - fire: " + flow(f) + "\n";
            break;
          }
          default: s += "  - air: [" + a.air.map((x) => flow(x)).join(", ") + "]\n";
        }
        for (const n of notes(a, acts.slice(0, acts.indexOf(a)))) s += "    # " + n + "\n";
      }
      return s;
    };
    show();
  }

  // The U.S. decision (rules 3.1, 3.2).
  function decision() {
    const box = $("choices");
    const q = (name, text) => {
      const p = node("p", text + " ");
      const choice = {};
      for (const v of ["no", "yes"]) {
        const l = document.createElement("label"), r = document.createElement("input");
        r.type = "radio"; r.name = name; r.value = v; r.checked = v === "no"; r.addEventListener("change", change);
        l.append(r, " " + v + " ");
        p.append(l);
        choice[v] = r;
      }
      box.append(p);
      return choice;
    };
    box.append(node("h2", "The decision of turn " + D.turn));
    const refit = q("refit", "A refit turn (rules 3.1, 9)?");
    const night = q("night", "A night turn (rule 3.2)?");
    box.append(node("p", "A refit turn is never a night turn. With a refit turn attu rolls the weather and the loss recovery dice, then asks for your refit orders in its next report.", "small"));
    function change() {
      if (refit.yes.checked) night.no.checked = true;
      night.yes.disabled = refit.yes.checked;
      write();
    }
    ui.load = (d, line, say) => {
      if (!isMap(d)) { say(line, "decision: is not a mapping of refit: and night:; not read."); return 0; }
      let n = 0;
      for (const [k, q] of [["refit", refit], ["night", night]]) {
        if (d[k] === "true" || d[k] === "false") { q[d[k] === "true" ? "yes" : "no"].checked = true; q[d[k] === "true" ? "no" : "yes"].checked = false; n++; }
        else if (d[k] !== undefined) say(keyLine(d, k), "decision: " + k + ": " + d[k] + " is neither true nor false; not read.");
      }
      for (const k of Object.keys(d)) if (k !== "refit" && k !== "night") say(keyLine(d, k), "decision: " + k + ": is not part of the decision; not read.");
      change();
      return n;
    };
    ui.body = () => "decision:\n  refit: " + refit.yes.checked + "\n  night: " + night.yes.checked + "\n";
  }

  // A table of rows, each a checkbox and what follows it.
  function table(title, head, rows) {
    const box = $("choices");
    box.append(node("h3", title));
    if (!rows.length) return box.append(node("p", "Nothing may be ordered now.", "small"));
    const t = node("table", undefined, "form");
    const tr = node("tr");
    for (const h of head) tr.append(node("th", h));
    t.append(tr);
    for (const r of rows) t.append(r);
    box.append(t);
  }
  function row(cells) {
    const tr = node("tr");
    for (const c of cells) {
      const td = node("td");
      td.append(c);
      tr.append(td);
    }
    return tr;
  }
  function check(id, checked) {
    const c = document.createElement("input");
    c.type = "checkbox"; c.checked = !!checked; c.dataset.item = id;
    c.setAttribute("aria-label", id);
    c.addEventListener("change", () => write());
    return c;
  }
  function hexInput(value, label) {
    const i = document.createElement("input");
    i.type = "text"; i.value = value; i.setAttribute("aria-label", label); i.inputMode = "numeric"; i.maxLength = 4;
    i.addEventListener("input", () => write());
    return i;
  }
  // picker: rows that pick a hex on the map. Each entry is {tr, input,
  // hexes (allowed, or null), label}; clicking a row's pick button, then
  // a hex, sets its input.
  // A pick ticks its row and ends with the hex clicked: a further click
  // on the map changes nothing until a pick button is pressed again.
  // Typing a hex ticks the row too.
  function picker(entries) {
    let cur = null;
    for (const e of entries) {
      e.pick = button("pick", { "data-pick": e.id, "aria-pressed": "false", title: "then click a hex on the map" }, () => { cur = e; showPick(); });
      e.tr.lastChild.append(" ", e.pick);
      e.input.addEventListener("input", () => { touch(e); write(); });
    }
    function showPick() {
      for (const e of entries) {
        e.tr.classList.toggle("picked", e === cur);
        e.pick.setAttribute("aria-pressed", String(e === cur));
      }
      if (!cur) return mark(entries.filter((e) => !e.c || e.c.checked).map((e) => [e.input.value.trim(), "o-done"]));
      mark((cur.hexes || []).map((h) => [h, "o-place"]).concat([[cur.input.value, "o-sel"]]));
    }
    ui.onHex = (h) => {
      if (!cur) return;
      cur.input.value = h;
      cur.input.dispatchEvent(new Event("input"));
      cur = null;
      showPick();
    };
    ui.showPick = showPick;
  }
  // touch ticks the row of e, whose value the player has just set.
  function touch(e) {
    e.touched = true;
    if (e.c) e.c.checked = true;
  }
  // leftOut lists the rows of parts the player set but did not tick (or
  // ticked off): the file names them in a comment, the panel beside it.
  function leftOut(parts) {
    const out = [];
    for (const k in parts) for (const p of parts[k] || []) if (p.c && p.touched && !p.c.checked) out.push(k + " " + (p.unit || p.id));
    return out;
  }
  // zoneLoad says for each landing zone its capacity, the steps ashore
  // there, those sent by rows (ticked ones, each {unit, z}) and what is
  // left (rule 9.2.1), and labels each zone select with it.
  function zoneLoad(rows) {
    const sent = {};
    for (const p of rows) if (p.c.checked) sent[p.z.value] = (sent[p.z.value] || 0) + (steps[p.unit] || 0);
    const left = {};
    const lines = D.zones.map((z) => {
      const ashore = UNITS.filter((u) => u.own && u.hex === z.hex).reduce((t, u) => t + u.v.steps, 0);
      left[z.id] = z.capacity - ashore - (sent[z.id] || 0);
      return z.id + ": holds " + z.capacity + ", " + ashore + " ashore, " + (sent[z.id] || 0) + " sent, " +
        (left[z.id] >= 0 ? left[z.id] + " left" : -left[z.id] + " over: steps past the capacity are lost as they land");
    });
    for (const p of rows) for (const o of p.z.options) o.textContent = o.value + " (" + left[o.value] + " left)";
    return { text: "Landing zones (rule 9.2.1) — " + lines.join(" · "), over: Object.values(left).some((n) => n < 0) };
  }

  // Refit orders: the U.S. (rules 9.1 to 9.4) and the Japanese (9.5,
  // 9.6).
  function refit() {
    const o = O.refit || {};
    const box = $("choices");
    const parts = {};
    if (V.side === "us") {
      box.append(node("h2", "Refit orders: " + plural(V.refit_steps || 0, "step") + " to restore"));
      parts.restore = (o.restore || []).map((x) => {
        const n = document.createElement("input");
        n.type = "number"; n.min = 1; n.max = x.max_steps - x.steps; n.placeholder = "all"; n.setAttribute("aria-label", "steps for " + x.unit);
        const p = { c: check(x.unit), n: n, unit: x.unit, tr: null, x: x };
        n.addEventListener("input", () => { if (!p.c.checked) { touch(p); p.c.dispatchEvent(new Event("change")); } fit(p); write(); });
        p.room = node("span", undefined, "small");
        return p;
      });
      parts.restore.forEach((p) => { p.tr = row([p.c, p.unit, p.x.hex + ", " + p.x.steps + " of " + plural(p.x.max_steps, "step"), p.n, p.room]); });
      table("Restore steps (rule 9.1), in the order ticked", ["", "unit", "where", "steps at most", "room in its hex"], parts.restore.map((p) => p.tr));
      const restoreStop = node("p", undefined, "stop");
      restoreStop.setAttribute("role", "alert");
      box.append(restoreStop);
      const order = [];
      // roomFor is how many steps p's hex takes before it over-stacks
      // (rule 9.1 restores none that would), the rows ticked before it
      // restored; want is what a row restores.
      const roomFor = (p) => {
        const st = stackIn(p.x.hex, {});
        let room = st.limit - st.n;
        for (const q of order) {
          if (q === p) break;
          if (q.x.hex === p.x.hex) room -= want(q);
        }
        return Math.max(0, room);
      };
      const want = (q) => Math.min(+q.n.value || q.x.max_steps - q.x.steps, roomFor(q));
      // fit stops a row at its hex's limit: no room unticks it, more
      // steps than the room are cut to it; the engine refuses either.
      function fit(p) {
        restoreStop.textContent = "";
        if (!p.c.checked) return;
        const room = roomFor(p), st = stackIn(p.x.hex, {});
        if (room === 0) {
          p.c.checked = false;
          order.splice(order.indexOf(p), 1);
          restoreStop.textContent = "Not ticked: " + p.unit + "'s hex " + p.x.hex + " holds " + st.text + " with the steps ticked above: a step more over-stacks it, and none is restored that would (rule 9.1).";
        } else if (+p.n.value > room) {
          restoreStop.textContent = p.unit + ": " + p.x.hex + " has room for " + plural(room, "step") + " (it holds " + st.text + "), so " + room + ", not " + p.n.value + ".";
          p.n.value = room;
        }
      }
      parts.restore.forEach((p) => p.c.addEventListener("change", () => { const i = order.indexOf(p); if (i >= 0) order.splice(i, 1); if (p.c.checked) order.push(p); fit(p); write(); }));
      parts.order = order;
      parts.roomFor = roomFor;
      parts.fit = fit;
      parts.land = (o.land || []).map((x) => ({ c: check(x.unit), z: select(x.zones, x.zones[0], "zone for " + x.unit), unit: x.unit }));
      parts.land.forEach((p) => p.z.addEventListener("change", () => { touch(p); write(); }));
      table("Land reinforcements (rule 9.2)", ["", "unit", "steps", "zone"], parts.land.map((p) => row([p.c, p.unit, String(steps[p.unit] || ""), p.z])));
      parts.zones = node("p", undefined, "small zones");
      box.append(parts.zones);
      parts.ind = (o.independents || []).map((u) => ({ c: check(u), unit: u }));
      table("Independent units (rule 9.3): the company gives a step", ["", "unit"], parts.ind.map((p) => row([p.c, p.unit])));
      parts.dep = (o.depots || []).map((u) => ({ c: check(u), unit: u }));
      table("Supply depots (rule 9.4): the engineers lose a step", ["", "unit"], parts.dep.map((p) => row([p.c, p.unit])));
    } else {
      box.append(node("h2", "Refit orders: hide, move and swap (rules 9.5, 9.6)"));
      parts.hide = (o.hide || []).map((u) => ({ c: check(u), unit: u }));
      table("Turn face down (rule 9.5)", ["", "unit"], parts.hide.map((p) => row([p.c, p.unit])));
      parts.move = (o.moves || []).map((x) => ({ c: check(x.unit), input: hexInput(x.nearest, "hex for " + x.unit), unit: x.unit, id: x.unit, x: x, hexes: null }));
      parts.move.forEach((p) => { p.tr = row([p.c, p.unit, p.x.from, p.input]); });
      table("Move Unknown units (rule 9.6): to any hex not next to U.S. units, not in or next to a landing zone, not in a cleared zone (" +
        "the hex shown is the nearest allowed; attu judges the one you pick)", ["", "unit", "from", "to"], parts.move.map((p) => p.tr));
      parts.swap = (o.swaps || []).map((x) => ({ c: check("swap " + x.hex), input: hexInput(x.place.To, "hex for " + x.place.Unit), unit: x.place.Unit, id: "swap " + x.hex, x: x, hexes: null }));
      parts.swap.forEach((p) => { p.tr = row([p.c, p.x.hex + ": " + p.x.infantry.join(", ") + " to the pool", p.unit, p.input]); });
      table("Swap infantry for an Unknown unit (rule 9.6), placed within 7 MP of the hex", ["", "hex", "Unknown unit", "placed at"], parts.swap.map((p) => p.tr));
      picker(parts.move.concat(parts.swap));
    }
    const check1 = (l) => (l || []).forEach((p) => p.c.addEventListener("change", () => { p.touched = true; }));
    for (const k of ["restore", "land", "ind", "dep", "hide", "move", "swap"]) check1(parts[k]);
    const names = { restore: "restore", land: "land", ind: "independents", dep: "depots", hide: "hide", move: "move", swap: "swap" };
    ui.leftOut = () => leftOut(Object.fromEntries(Object.keys(names).map((k) => [names[k], parts[k]])));
    ui.moved = () => {
      const pos = {};
      for (const p of (parts.move || []).concat(parts.swap || [])) if (p.c.checked && LAND.has(p.input.value.trim())) pos[p.unit] = p.input.value.trim();
      return pos;
    };
    // Loading: the file's items tick their rows, the rest untick.
    ui.load = (r, line, say) => {
      if (r !== "" && !isMap(r)) { say(line, "refit: is not a mapping; not read."); return 0; }
      r = isMap(r) ? r : {};
      for (const k of ["restore", "land", "ind", "dep", "hide", "move", "swap"]) for (const p of parts[k] || []) { p.c.checked = false; p.touched = false; }
      if (parts.order) parts.order.length = 0;
      let n = 0;
      const each = (key, part, read) => {
        const items = listOf(r[key]);
        if (r[key] === undefined) return;
        if (!part) return say(keyLine(r, key), "refit: " + key + ": is not a refit order of this side; not read.");
        if (items === null) return say(keyLine(r, key), "refit: " + key + ": is not a list; not read.");
        for (const it of items) {
          const id = isMap(it) ? it.unit || (key === "swap" ? "swap " + it.hex : "") : String(it);
          const p = part.find((p) => (key === "swap" ? "swap " + p.x.hex : p.unit) === id);
          const why = !p ? id + " is not among the rows of " + key + " the sheet lists; not read." : read(p, it);
          if (why) say(LINE.get(it) || LINE.get(items), "refit: " + key + ": " + why);
          else { p.c.checked = true; n++; }
        }
      };
      each("restore", parts.restore, (p, it) => {
        if (it.steps !== undefined && !(+it.steps > 0)) return p.unit + ": steps " + it.steps + " is not a number of steps; not read.";
        p.n.value = it.steps || "";
        parts.order.push(p);
        return "";
      });
      each("land", parts.land, (p, it) => [...p.z.options].some((o) => o.value === it.zone) ? ((p.z.value = it.zone), "") : p.unit + " may not be sent to zone " + it.zone + "; not read.");
      each("independents", parts.ind, () => "");
      each("depots", parts.dep, () => "");
      each("hide", parts.hide, () => "");
      each("move", parts.move, (p, it) => /^\d{4}$/.test(it.to) ? ((p.input.value = it.to), "") : p.unit + ": to " + it.to + " is not a hex; not read.");
      each("swap", parts.swap, (p, it) => {
        const pl = (listOf(it.place) || [])[0];
        if (!isMap(pl) || pl.unit !== p.unit || !/^\d{4}$/.test(pl.to)) return "swap " + p.x.hex + ": place [{unit: " + p.unit + ", to: HEX}] is what the sheet reads; not read.";
        p.input.value = pl.to;
        return "";
      });
      if (parts.fit) for (const p of [...parts.order]) parts.fit(p);
      for (const k of Object.keys(r)) if (!["restore", "land", "independents", "depots", "hide", "move", "swap"].includes(k)) say(keyLine(r, k), "refit: " + k + ": is not a refit order; not read.");
      if (ui.showPick) ui.showPick();
      return n;
    };
    ui.caveat = "Each line is allowed on its own; together they may not be (the steps run out, a hex over-stacks): attu judges the whole file when it arrives.";
    ui.body = () => {
      const ticked = (l) => (l || []).filter((p) => p.c.checked);
      for (const p of parts.restore || []) p.room.textContent = String(parts.roomFor(p));
      if (parts.zones) {
        const z = zoneLoad(parts.land);
        parts.zones.textContent = z.text;
        parts.zones.classList.toggle("bad", z.over);
      }
      let s = "";
      if (V.side === "us") {
        if (parts.order.length) s += "  restore:\n" + parts.order.map((p) => "    - " + flow(p.n.value ? { unit: p.unit, steps: +p.n.value } : { unit: p.unit }) + "\n").join("");
        if (ticked(parts.land).length) s += "  land:\n" + ticked(parts.land).map((p) => "    - " + flow({ unit: p.unit, zone: p.z.value }) + "\n").join("");
        if (ticked(parts.ind).length) s += "  independents: [" + ticked(parts.ind).map((p) => p.unit).join(", ") + "]\n";
        if (ticked(parts.dep).length) s += "  depots: [" + ticked(parts.dep).map((p) => p.unit).join(", ") + "]\n";
      } else {
        if (ticked(parts.hide).length) s += "  hide: [" + ticked(parts.hide).map((p) => p.unit).join(", ") + "]\n";
        if (ticked(parts.move).length) s += "  move:\n" + ticked(parts.move).map((p) => "    - " + flow({ unit: p.unit, to: hexOf(p.input) }) + "\n").join("");
        if (ticked(parts.swap).length) s += "  swap:\n" + ticked(parts.swap).map((p) => "    - {hex: " + p.x.hex + ", place: [" + flow({ unit: p.unit, to: hexOf(p.input) }) + "]}\n").join("");
      }
      return s ? "refit:\n" + s : "refit: {}\n";
    };
  }
  // hexOf is what was typed in a hex field, quoted unless it is a hex id.
  const hexOf = (i) => /^\d{4}$/.test(i.value.trim()) ? i.value.trim() : JSON.stringify(i.value);

  // The Japanese setup (rules 12.3, 12.4, 14.0).
  function setup() {
    const o = O.setup;
    const box = $("choices");
    box.append(node("h2", "The Japanese setup (" + o.setup + ")"));
    const groupOf = {};
    for (const g of o.place || []) for (const u of g.units) groupOf[u] = g;
    const place = ((o.jp_setup || {}).Place || []).filter((p) => groupOf[p.Unit]).map((p) => ({ unit: p.Unit, id: p.Unit, input: hexInput(p.Hex, "hex for " + p.Unit), hexes: groupOf[p.Unit].hexes }));
    place.forEach((p) => { p.tr = row([p.unit, groupOf[p.unit].class, p.input]); });
    if (place.length) {
      box.append(node("p", "Each unit sets up face down; pick a unit, then a blue hex on the map. The Unknown units one to a hex, at most three guns a hex, at least one 75mm gun in each of its hexes.", "small"));
      table("Where each unit sets up", ["unit", "class", "hex"], place.map((p) => p.tr));
      picker(place);
    } else {
      box.append(node("p", "The historic setup has placed your units (rule 12.3).", "small"));
    }
    const cover = node("p", undefined, "small");
    if ((o.cover || []).length) box.append(node("h3", "Landing zones to cover (rule 12.4): two Unknown units two or three hexes away"), cover);
    if (o.per_front) box.append(node("p", o.per_front + " Unknown units set up on each front, north and south.", "small"));
    const vp = (o.vp_hexes || []).map((h, i) => {
      const def = ((o.jp_setup || {}).VP || []).find((v) => v.Hex === h);
      const s = select(o.vp_values.map(String), String(def ? def.Value : o.vp_values[i]), "value chit for " + h);
      s.addEventListener("change", () => write());
      return { hex: h, s: s };
    });
    if (vp.length) table("Victory point chits (rule 14.0), each value used once", ["hex", "value"], vp.map((p) => row([hexName(p.hex), p.s])));
    ui.moved = () => Object.fromEntries(place.filter((p) => LAND.has(p.input.value.trim())).map((p) => [p.unit, p.input.value.trim()]));
    ui.load = (d, line, say) => {
      if (!isMap(d)) { say(line, "setup: is not a mapping of place: and vp:; not read."); return 0; }
      let n = 0;
      for (const it of listOf(d.place) || []) {
        const p = isMap(it) && place.find((p) => p.unit === it.unit);
        if (!p || !/^\d{4}$/.test(it.hex)) { say(LINE.get(it), "setup: place: " + (isMap(it) ? it.unit + " in " + it.hex : it) + " is not a unit of this setup and a hex; not read."); continue; }
        p.input.value = it.hex;
        n++;
      }
      for (const it of listOf(d.vp) || []) {
        const p = isMap(it) && vp.find((p) => p.hex === it.hex);
        if (!p || ![...p.s.options].some((o) => o.value === it.value)) { say(LINE.get(it), "setup: vp: " + (isMap(it) ? it.hex + " " + it.value : it) + " is not a victory hex and a value of this setup; not read."); continue; }
        p.s.value = it.value;
        n++;
      }
      for (const k of Object.keys(d)) if (k !== "place" && k !== "vp") say(keyLine(d, k), "setup: " + k + ": is not part of the setup; not read.");
      if (ui.showPick) ui.showPick();
      return n;
    };
    ui.caveat = "The sheet checks each hex against its group; one Unknown unit a hex, the covered zones and each chit used once are judged by attu on arrival.";
    ui.body = () => {
      const lines = [];
      for (const c of o.cover || []) {
        const n = place.filter((p) => groupOf[p.unit].class === "unknown" && c.hexes.includes(p.input.value.trim())).length;
        lines.push("zone " + c.zone + ": " + n + (n >= 2 ? " ✓" : " of 2"));
      }
      cover.textContent = lines.join(" · ");
      let s = "";
      if (place.length) s += "  place:\n" + place.map((p) => "    - " + flow({ unit: p.unit, hex: hexOf(p.input) }) + (p.hexes.includes(p.input.value.trim()) ? "" : "  # not a hex of its group") + "\n").join("");
      if (vp.length) s += "  vp:\n" + vp.map((p) => "    - " + flow({ hex: p.hex, value: p.s.value }) + "\n").join("");
      return s ? "setup:\n" + s : "setup: {}\n";
    };
  }

  // The U.S. landing (rules 12.5, 12.6, 9.2).
  function landing() {
    const o = O.setup;
    const box = $("choices");
    box.append(node("h2", "The U.S. landing (" + o.setup + ")"));
    if ((o.fixed || []).length) box.append(node("p", "These land by themselves first (rule 12.5): " + o.fixed.map((f) => f.Unit + " at " + f.Zone).join(", ") + ".", "small"));
    let delay = null;
    if (o.may_delay) {
      delay = check("delay", (o.landing || {}).Delay);
      const p = node("p");
      const l = document.createElement("label");
      l.append(delay, " delay the landing a turn (rule 12.6), hoping for better weather");
      p.append(l);
      box.append(p);
    }
    const sent = Object.fromEntries(((o.landing || {}).Land || []).map((l) => [l.Unit, l.Zone]));
    const zoneHex = Object.fromEntries(D.zones.map((z) => [z.id, z.hex]));
    const rows = (o.land || []).filter((x) => x.zones.length).map((x) => {
      const c = check(x.unit, o.all_land || sent[x.unit]);
      if (o.all_land) c.disabled = true;
      const z = select(x.zones, sent[x.unit] || x.zones[0], "zone for " + x.unit);
      const p = { c: c, z: z, unit: x.unit, zones: x.zones, id: x.unit };
      z.addEventListener("change", () => { touch(p); write(); });
      z.addEventListener("focus", () => mark(x.zones.map((id) => [zoneHex[id], "o-place", id])));
      c.addEventListener("change", () => { p.touched = true; });
      return p;
    });
    const load = node("p", undefined, "small");
    table("Units to land" + (o.all_land ? " (every one, rule 12.5)" : "; those left out wait in the reinforcements box"), ["", "unit", "steps", "zone"],
      rows.map((p) => row([p.c, p.unit, String(steps[p.unit] || ""), p.z])));
    box.append(load);
    let cur = null;
    rows.forEach((p) => p.z.addEventListener("focus", () => { cur = p; }));
    ui.onHex = (h) => {
      const z = D.zones.find((z) => z.hex === h);
      if (cur && z && cur.zones.includes(z.id)) { cur.z.value = z.id; touch(cur); write(); }
    };
    ui.leftOut = () => o.all_land ? [] : leftOut({ land: rows });
    ui.load = (d, line, say) => {
      if (!isMap(d)) { say(line, "landing: is not a mapping of delay: and land:; not read."); return 0; }
      let n = 0;
      if (d.delay !== undefined) {
        if (!delay) say(keyLine(d, "delay"), "landing: delay: this landing may not be delayed; not read.");
        else { delay.checked = d.delay === "true"; n++; }
      }
      if (!o.all_land) for (const p of rows) { p.c.checked = false; p.touched = false; }
      for (const it of listOf(d.land) || []) {
        const p = isMap(it) && rows.find((p) => p.unit === it.unit);
        if (!p || !p.zones.includes(it.zone)) { say(LINE.get(it), "landing: land: " + (isMap(it) ? it.unit + " to zone " + it.zone : it) + " is not a unit and zone the sheet lists; not read."); continue; }
        p.z.value = it.zone;
        p.c.checked = true;
        n++;
      }
      for (const k of Object.keys(d)) if (k !== "delay" && k !== "land") say(keyLine(d, k), "landing: " + k + ": is not part of the landing; not read.");
      return n;
    };
    ui.caveat = "A zone holds so many steps (rule 9.2.1); each unit lands with a scatter die. attu judges the whole landing on arrival.";
    ui.body = () => {
      const go = rows.filter((p) => p.c.checked);
      const zl = zoneLoad(rows);
      load.textContent = zl.text;
      load.classList.toggle("bad", zl.over);
      let s = "landing:\n";
      if (delay) s += "  delay: " + delay.checked + "\n";
      if (delay && delay.checked) return s;
      return s + (go.length ? "  land:\n" + go.map((p) => "    - " + flow({ unit: p.unit, zone: p.z.value }) + "\n").join("") : "  land: []\n");
    };
  }

  // ---- The file ----

  let token = "";
  // links redraws the download and mail links (sheetFile, shared by
  // every system's sheet).
  const links = sheetFile(D, $, fileText, () => token !== "");
  // The U.S. standing decision (standing: decision:), as the template's
  // standing lines give it; the file changes it only when the player does.
  const ahead = D.standing.map((l) => /^#( +decision: )(\w+)/.exec(l)).find(Boolean);
  function standing() {
    const want = $("decision").value;
    if (!ahead || $("ahead").hidden || want === ahead[2]) return D.standing;
    return D.standing.map((l) => l === "#standing:" ? "standing:" : l.replace(/^#( +decision: )\w+/, "$1" + want));
  }
  // fileText is the order file; only with withToken does it carry the
  // token typed, for the copy, download or mail the player asks for.
  function fileText(withToken) {
    const tok = token === "" ? "PASTE-YOUR-TOKEN-HERE" : !withToken ? "YOUR-TOKEN # added when you copy, download or mail the file" :
      /^[A-Za-z0-9._-]+$/.test(token) ? token : JSON.stringify(token);
    return "# attu orders for game " + D.game + ": " + D.title + ", written by the order sheet.\n" +
      "game: " + JSON.stringify(D.game) + "\nside: " + D.side + "\nturn: " + D.turn + "\nwait: " + D.wait + "\ntoken: " + tok + "\n\n" +
      ui.body() + (ui.leftOut().length ? "# not ticked, so not in the file: " + ui.leftOut().join(", ") + "\n" : "") + "\n" + standing().join("\n") + "\n";
  }
  function write() {
    $("yaml").value = fileText(false);
    const left = ui.leftOut();
    $("leftout").textContent = left.length ? "Not in the file, as not ticked: " + left.join(", ") + "." : "";
    if (D.wait !== "actions") drawUnits();
    links();
  }

  // ---- Loading a file ----

  // readYAML reads the YAML the sheet writes and hand edits of its
  // shape: mappings and lists by indentation ("key: value", "- item"),
  // flow lists and mappings ([a, b], {k: v}), plain and quoted scalars,
  // and comments. Every scalar stays a string. LINE holds each mapping's
  // and list's line. What it cannot read throws {line, msg}.
  const LINE = new WeakMap(), KEYLINE = new WeakMap();
  // keyLine is the line of key k of mapping m.
  const keyLine = (m, k) => (KEYLINE.get(m) || {})[k] || LINE.get(m);
  const fail = (line, msg) => { throw { line: line, msg: msg }; };
  function uncomment(s) {
    let q = "";
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (q) { if (c === "\\" && q === '"') i++; else if (c === q) q = ""; }
      else if (c === '"' || c === "'") q = c;
      else if (c === "#" && (i === 0 || /\s/.test(s[i - 1]))) return s.slice(0, i).trimEnd();
    }
    return s.trimEnd();
  }
  const KEY = /^([A-Za-z_][\w.-]*|"[^"]*")\s*:(?:\s+(.*))?$/;
  function readYAML(text) {
    const lines = [];
    text.split(/\r\n|\r|\n/).forEach((raw, i) => {
      const t = uncomment(raw);
      if (!t.trim() || /^(---|\.\.\.)$/.test(t.trim())) return;
      if (/^ *\t/.test(t)) fail(i + 1, "a tab indents this line; indent with spaces");
      lines.push({ n: i + 1, ind: t.length - t.trimStart().length, t: t.trim() });
    });
    let k = 0;
    const item = (t) => t === "-" || t.startsWith("- ");
    const block = () => item(lines[k].t) ? list(lines[k].ind) : map(lines[k].ind);
    function list(ind) {
      const out = [];
      LINE.set(out, lines[k].n);
      while (k < lines.length && lines[k].ind === ind && item(lines[k].t)) {
        const L = lines[k], rest = L.t.slice(1).trimStart();
        if (!rest) {
          k++;
          out.push(k < lines.length && lines[k].ind > ind ? block() : "");
        } else if (KEY.test(rest)) {
          lines[k] = { n: L.n, ind: ind + L.t.length - rest.length, t: rest };
          out.push(map(lines[k].ind));
        } else {
          k++;
          out.push(scalar(rest, L.n));
        }
      }
      return out;
    }
    function map(ind) {
      const out = {}, kl = {};
      LINE.set(out, lines[k].n);
      KEYLINE.set(out, kl);
      while (k < lines.length && lines[k].ind === ind && !item(lines[k].t)) {
        const L = lines[k], m = KEY.exec(L.t);
        if (!m) fail(L.n, "not a \"key: value\" line: " + L.t);
        const key = m[1][0] === '"' ? m[1].slice(1, -1) : m[1];
        if (Object.prototype.hasOwnProperty.call(out, key)) fail(L.n, key + ": is given twice");
        kl[key] = L.n;
        k++;
        if (m[2]) out[key] = scalar(m[2], L.n);
        else if (k < lines.length && (lines[k].ind > ind || lines[k].ind === ind && item(lines[k].t))) out[key] = block();
        else out[key] = "";
      }
      return out;
    }
    const doc = lines.length ? block() : {};
    if (k < lines.length) fail(lines[k].n, "indented unlike the lines above it");
    return doc;
  }
  // scalar reads the value v of line n: a flow list or mapping, a quoted
  // string or a plain one.
  function scalar(v, n) {
    let i = 0;
    const ws = () => { while (v[i] === " ") i++; };
    const quoted = () => {
      const m = (v[i] === '"' ? /^"(?:[^"\\]|\\.)*"/ : /^'(?:[^']|'')*'/).exec(v.slice(i));
      if (!m) fail(n, "a quote is not closed: " + v);
      i += m[0].length;
      if (m[0][0] === "'") return m[0].slice(1, -1).replace(/''/g, "'");
      try { return JSON.parse(m[0]); } catch (e) { return fail(n, "an escape in " + m[0] + " is not one YAML knows"); }
    };
    function val(flow) {
      ws();
      const c = v[i];
      if (c === "[" || c === "{") {
        i++;
        const out = c === "[" ? [] : {};
        LINE.set(out, n);
        ws();
        if (v[i] === (c === "[" ? "]" : "}")) { i++; return out; }
        for (;;) {
          if (c === "[") out.push(val(true));
          else {
            ws();
            let key;
            if (v[i] === '"' || v[i] === "'") key = quoted();
            else { key = /^[^:,{}[\]]*/.exec(v.slice(i))[0]; i += key.length; }
            ws();
            if (v[i] !== ":") fail(n, "{...} holds key: value pairs: " + v);
            i++;
            out[key.trim()] = val(true);
          }
          ws();
          if (v[i] === ",") { i++; continue; }
          if (v[i] === (c === "[" ? "]" : "}")) { i++; return out; }
          fail(n, (c === "[" ? "a list [" : "a mapping {") + " is not closed: " + v);
        }
      }
      if (c === '"' || c === "'") return quoted();
      const m = (flow ? /^[^,\]}]*/ : /^.*/).exec(v.slice(i));
      i += m[0].length;
      return m[0].trim();
    }
    const out = val(false);
    ws();
    if (i < v.length) fail(n, "more after the value: " + v.slice(i));
    return out;
  }
  const isMap = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
  const listOf = (x) => Array.isArray(x) ? x : x === "" || x === undefined ? [] : null;

  // load fills the sheet in from an order file: the wait's own part
  // (ui.load), the decision given in advance and the token, which joins
  // the page's memory. It lists each line it could not read, and why.
  function load(text) {
    const said = [];
    const say = (line, msg) => said.push({ line: line || 0, msg: (line ? "line " + line + ": " : "") + msg });
    let doc;
    try {
      doc = readYAML(text);
    } catch (e) {
      if (e.line === undefined) throw e;
      return loaded(0, ["line " + e.line + ": " + e.msg + ". The sheet reads nothing from a file it cannot parse: nothing was loaded."]);
    }
    if (!isMap(doc)) return loaded(0, ["This is not an order file (game:, side:, turn:, wait: and the orders): nothing was loaded."]);
    for (const [k, want] of [["game", D.game], ["side", D.side], ["turn", String(D.turn)], ["wait", D.wait]]) {
      if (doc[k] === undefined) say(0, "The file has no " + k + ": line; this sheet writes " + k + ": " + want + ".");
      else if (String(doc[k]) !== want) say(keyLine(doc, k), k + ": " + doc[k] + ", but this sheet is for " + k + " " + want + ": it reads the file's orders as far as they fit this wait, and writes " + want + ".");
    }
    if (typeof doc.token === "string" && doc.token && !/PASTE-YOUR-TOKEN-HERE|^YOUR-TOKEN/.test(doc.token)) token = doc.token;
    const part = { actions: "actions", "us-decision": "decision", "us-refit": "refit", "jp-refit": "refit", "jp-setup": "setup", "us-landing": "landing" }[D.wait];
    for (const k of Object.keys(doc)) {
      if (!["game", "side", "turn", "wait", "token", "standing", part].includes(k)) say(keyLine(doc, k), k + ": is not part of this sheet's file (" + part + ": is); not read.");
    }
    let n = 0;
    if (doc[part] === undefined) say(0, "The file has no " + part + ": part, so no orders were read.");
    else if (ui.load) n = ui.load(doc[part], keyLine(doc, part), say);
    if (doc.standing !== undefined) {
      const st = doc.standing;
      for (const k of Object.keys(isMap(st) ? st : {})) {
        if (k === "decision" && ahead && ["ask", "day", "night", "refit"].includes(st[k])) $("decision").value = st[k];
        else say(keyLine(st, k), "standing: " + k + ": the sheet writes the standing lines of the template and the decision in advance only; add this one to the file again by hand.");
      }
      if (!isMap(st)) say(keyLine(doc, "standing"), "standing: is not a mapping; not read.");
    }
    write();
    loaded(n, said.sort((a, b) => a.line - b.line).map((s) => s.msg));
  }
  function loaded(n, said) {
    const box = $("loadnote");
    box.replaceChildren(node("p", said.length ? "Read " + plural(n, "order") + "; what the sheet could not read, or read with a doubt:" : "Read " + plural(n, "order") + "; every line of the file was read.", said.length ? "bad" : ""));
    if (said.length) {
      const ul = node("ul");
      for (const s of said) ul.append(node("li", s));
      box.append(ul);
    }
  }
  // loader is the form that loads a file, pasted or opened.
  function loader() {
    const d = document.createElement("details");
    d.id = "load";
    const ta = document.createElement("textarea");
    ta.id = "loadtext"; ta.rows = 6; ta.spellcheck = false; ta.placeholder = "paste the order file here";
    ta.setAttribute("aria-label", "an order file to load");
    const f = document.createElement("input");
    f.type = "file"; f.id = "loadfile"; f.accept = ".yaml,.yml,.txt,text/plain";
    f.setAttribute("aria-label", "open an order file");
    // The text leaves the field once read: it may hold the token.
    const go = button("Load the file pasted", { id: "loadgo" }, () => { const t = ta.value; ta.value = ""; load(t); });
    f.addEventListener("change", () => {
      const file = f.files[0];
      if (file) file.text().then((t) => { f.value = ""; load(t); });
    });
    const note = node("div");
    note.id = "loadnote";
    note.setAttribute("role", "status");
    d.append(node("summary", "Load an order file: go on from one attu refused, or one half done"),
      node("p", "Paste the file or open it: the sheet fills its orders in, shows them on the map, and lists what it could not read. The orders it fills in replace those on the sheet; a token in the file joins this page's memory.", "small"),
      ta, node("br"), "or open one: ", f, " ", go, note);
    $("panel").prepend(d);
  }

  // ---- Wiring ----

  function start() {
    $("game").textContent = D.game;
    drawBase();
    firstZoom();
    ({ actions: actions, "us-decision": decision, "us-refit": refit, "jp-refit": refit, "jp-setup": setup, "us-landing": landing }[D.wait] || (() => {}))();
    $("caveat").textContent = ui.caveat;
    loader();
    $("legend").insertBefore(node("span", "full", "k o-full"), $("legend").querySelector(".o-place").nextSibling);
    $("legend").insertBefore(document.createTextNode(" "), $("legend").querySelector(".o-full"));
    const lo = node("p", undefined, "small bad");
    lo.id = "leftout";
    $("caveat").after(lo);
    $("acts").hidden = D.wait !== "actions";
    const map = $("map");
    map.addEventListener("mousemove", (e) => { const p = svgPoint(e), h = hexAt(p.x, p.y); where(h); ui.onHover(h); });
    map.addEventListener("click", (e) => { const p = svgPoint(e), h = hexAt(p.x, p.y); where(h); if (h) ui.onHex(h, e); });
    $("zoomin").addEventListener("click", () => setZoom(zoom * 1.5));
    $("zoomout").addEventListener("click", () => setZoom(zoom / 1.5));
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "Escape" && $("ask")) $("ask").remove();
      else if (e.key === "+" || e.key === "=") setZoom(zoom * 1.5);
      else if (e.key === "-") setZoom(zoom / 1.5);
    });
    if (ahead) {
      $("ahead").hidden = false;
      $("decision").value = ahead[2];
      $("decision").addEventListener("change", write);
    }
    // Once typed, the token leaves the field for the page's memory.
    $("token").addEventListener("input", (e) => { token = e.target.value.trim(); write(); });
    $("token").addEventListener("change", (e) => {
      e.target.value = "";
      e.target.placeholder = token === "" ? "" : "typed: kept in this page's memory, type again to change it";
    });
    write();
  }
  start();
  window.attuSheet = {
    shownAt: performance.now(),
    idPx: idPx,
    // stack is how the page counts the reader's units in hex h, with the
    // units of pos (id to hex) moved there: for the test that holds its
    // verdicts to the engine's.
    stack(h, pos) { return stackIn(h, pos); },
    // point is where hex h is drawn on the screen, for tests that click it.
    // reveal scrolls hex h into the middle of the map's box.
    reveal(h) { centre(...hexXY(h)); },
    point(h) {
      const [x, y] = hexXY(h), svg = $("map"), p = svg.createSVGPoint();
      p.x = x; p.y = y;
      const q = p.matrixTransform(svg.getScreenCTM());
      return [q.x, q.y];
    },
  };
})();
