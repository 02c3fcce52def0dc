"use strict";
// The Island War order sheet: it draws the map and the choices its data
// lists (computed by the server from the same position as the order
// template), keeps the player's orders in memory and writes them as an
// order file. The server judges the file; the page only helps write it.
// The player's token is typed in and leaves the page only in the file
// copied, downloaded or mailed at the click.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const R = 30, S3 = Math.sqrt(3);
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const h = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "on") for (const ev in attrs.on) e.addEventListener(ev, attrs.on[ev]);
      else if (k in e && k !== "list") e[k] = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of kids) e.append(c);
    return e;
  };
  let token = "";
  // links redraws the download and mail links (sheetFile, shared by
  // every system's sheet).
  const links = sheetFile(D, $, fileText, () => token !== "");

  // ---- The grid (adjudicator/island's Grid: flat-topped hexes, a
  // column half a hex lower every other column) ----
  const pad = (n) => String(n).padStart(Math.max(2, String(D.cols).length, String(D.rows).length), "0");
  const hexID = (c, r) => pad(c) + pad(r);
  const W = hexID(1, 1).length / 2;
  const parse = (id) => [+id.slice(0, W), +id.slice(W)];
  const lowered = (c) => D.shifted === "odd" ? c % 2 === 1 : c % 2 === 0;
  const centre = (id) => {
    const [c, r] = parse(id);
    return [R + 8 + 1.5 * R * (c - 1), R * S3 / 2 + 8 + R * S3 * (r - 1) + (lowered(c) ? R * S3 / 2 : 0)];
  };
  const cube = (id) => {
    const [c, r] = parse(id);
    const z = r - Math.floor((D.shifted === "odd" ? c : c + 1) / 2);
    return [c, -c - z, z];
  };
  const distance = (a, b) => {
    const x = cube(a), y = cube(b);
    return Math.max(Math.abs(x[0] - y[0]), Math.abs(x[1] - y[1]), Math.abs(x[2] - y[2]));
  };
  const adjacent = (a, b) => distance(a, b) === 1;
  const terrainOf = (id) => {
    const [c, r] = parse(id);
    return D.terrains[D.terrain.charCodeAt((c - 1) * D.rows + r - 1) - 97];
  };
  const RANK = { clear: 0, river: 1, broken: 2, rough: 3 };
  const lined = {};
  for (const l of D.lined || []) {
    const [pair, name, line] = l.split(" ");
    (lined[pair] = lined[pair] || []).push([name, line]);
  }
  const sideOf = (a, b) => lined[a < b ? a + "-" + b : b + "-" + a] || [];

  // ---- Units and where the orders put them ----
  const U = {};
  for (const u of D.units) U[u.id] = u;
  for (const p of D.setup || []) U[p.unit] = U[p.unit] || { id: p.unit, side: D.rules, kind: p.kind, values: p.values, class: "", d: 0 };
  const own = (u) => u.side === D.rules;
  const isArt = (u) => u.class === "artillery";
  const isFoot = (u) => u.class === "infantry" || u.class === "engineer";
  const st = {
    moves: {},        // unit -> path (hex ids)
    attacks: (D.duty || []).map(copyAttack),
    setup: {},        // unit -> hex
    defence: fromDefence(D.wait === "defence" && D.standing ? D.standing.defence : {}),
    standingOn: false,
    standing: fromDefence(D.standing ? D.standing.defence : {}),
    ask: !!(D.standing && D.standing.ask),
    sel: null,        // the unit selected on the map
    pick: null,       // a function taking the next hex clicked
    trace: null,      // a retreat path or displacement being tapped in
    note: "",
  };
  for (const p of D.setup || []) st.setup[p.unit] = p.default;
  function copyAttack(a) {
    return { defenders: (a.defenders || []).slice(), attackers: (a.attackers || []).slice(), barrage: (a.barrage || []).slice(), gsp: a.gsp || 0, banzai: !!a.banzai,
      advance: (a.advance || []).map((v) => ({ unit: v.unit, to: v.to })), removals: (a.removals || []).slice() };
  }
  function fromDefence(d) {
    d = d || {};
    const r = {}, paths = {};
    for (const id in (d.own && d.own.retreats) || {}) {
      if (d.own.retreats[id].toward) r[id] = d.own.retreats[id].toward;
      if ((d.own.retreats[id].paths || []).length) paths[id] = d.own.retreats[id].paths;
    }
    return {
      fpf: (d.fpf || []).map((f) => ({ protect: f.protect, artillery: (f.artillery || []).slice(), gsp: f.gsp || 0, min: f.min_differential, banzai: !!f.only_banzai })),
      advance: !!d.advance, toward: r, paths: paths,
      // What the page does not edit is written back as it came.
      order: (d.own && d.own.order) || [], displace: (d.own && d.own.displace) || {},
    };
  }
  // at is where unit id stands once the moves are made.
  const at = (id) => {
    const m = st.moves[id];
    if (m && m.length) return m[m.length - 1];
    if (D.wait === "setup" && st.setup[id]) return st.setup[id];
    return U[id].hex || "";
  };
  const onMap = () => Object.values(U).filter((u) => at(u.id) !== "");
  const unitAt = (hx, except) => onMap().find((u) => u.id !== except && at(u.id) === hx);
  const enemies = () => onMap().filter((u) => !own(u));
  const friends = () => onMap().filter(own);
  const enemyNext = (hx) => enemies().filter((e) => adjacent(hx, at(e.id)));
  const gspSpent = () => st.attacks.reduce((s, a) => s + (a.gsp || 0), 0);

  // ---- Combat: the attack's strengths, line and column, as the
  // engine's Combat reckons them before final protective fire (rules
  // 7.15, 7.4, 7.61, 8.31, 8.62, 9.11, 10.11; the browser test holds
  // these to the engine's numbers) ----
  function odds(a) {
    let att = 0, def = 0, artOnly = true;
    const ground = [];
    for (const id of a.attackers) {
      const u = U[id];
      if (isArt(u)) att += u.b || 0;
      else {
        att += a.banzai && isFoot(u) ? 2 * (u.a || 0) : u.a || 0;
        artOnly = false;
        ground.push(id);
      }
    }
    for (const id of a.barrage) att += U[id].b || 0;
    att += a.gsp || 0;
    let best = "clear";
    for (const id of a.defenders) {
      def += U[id].d;
      const hx = at(id), t = terrainOf(hx).line;
      if (RANK[t] > RANK[best]) best = t;
      if (artOnly || !ground.length) continue;
      for (const [name, line] of sideOf(hx, at(ground[0]))) {
        if (ground.slice(1).every((g) => sideOf(hx, at(g)).some((f) => f[0] === name)) && RANK[line] > RANK[best]) best = line;
      }
    }
    const diff = att - def, cols = D.columns[best];
    const column = cols[Math.min(Math.max(diff - D.col_from, 0), cols.length - 1)];
    return { attack: att, defence: def, differential: diff, line: best, column: column };
  }
  const oddsWords = (o) => "attack " + o.attack + " against defence " + o.defence + ": differential " + (o.differential > 0 ? "+" : "") + o.differential + ", " + o.line + " line, column " + o.column;

  // ---- The map ----
  const map = $("map");
  let zoom = 1;
  const allHexes = [];
  for (let c = 1; c <= D.cols; c++) for (let r = 1; r <= D.rows; r++) allHexes.push(hexID(c, r));
  const mapW = 2 * R + 16 + 1.5 * R * (D.cols - 1), mapH = R * S3 * D.rows + R * S3 / 2 + 16;
  const corners = (x, y, k) => [0, 1, 2, 3, 4, 5].map((i) => {
    const t = Math.PI / 3 * i;
    return (x + k * R * Math.cos(t)).toFixed(1) + "," + (y + k * R * Math.sin(t)).toFixed(1);
  }).join(" ");
  function setZoom(z) {
    zoom = Math.min(Math.max(z, 0.5), 3);
    map.setAttribute("width", Math.round(mapW * zoom));
    map.setAttribute("height", Math.round(mapH * zoom));
  }
  function drawMap() {
    map.setAttribute("viewBox", "0 0 " + mapW.toFixed(0) + " " + mapH.toFixed(0));
    // At first the map fills the width it has, and never draws a hex
    // smaller than its own scale, where its id stays readable.
    setZoom(Math.max(1, Math.min(2, ($("mapbox").clientWidth - 4) / mapW)));
    const hexes = $("hexes"), ids = $("ids");
    for (const id of allHexes) {
      const [x, y] = centre(id), t = terrainOf(id);
      const p = el("polygon", { class: "hex", points: corners(x, y, 1), fill: t.colour, "data-hex": id });
      p.append(el("title", {}, id + " " + t.name + (t.impassable ? "" : ", " + t.line + " line")));
      hexes.append(p);
      ids.append(el("text", { class: "id", x: x.toFixed(1), y: (y - R * 0.55).toFixed(1) }, id));
    }
    // Hexside features: rivers and the like along the shared edge,
    // roads and trails from centre to centre.
    const sides = $("sides");
    for (const l of D.hexsides || []) {
      const [pair, cls] = l.split(" "), [a, b] = pair.split("-");
      const [ax, ay] = centre(a), [bx, by] = centre(b);
      if (cls === "road" || cls === "trail") {
        sides.append(el("line", { class: "hs " + cls, x1: ax.toFixed(1), y1: ay.toFixed(1), x2: bx.toFixed(1), y2: by.toFixed(1) }));
        continue;
      }
      const mx = (ax + bx) / 2, my = (ay + by) / 2, dx = bx - ax, dy = by - ay, k = R / 2 / Math.hypot(dx, dy);
      sides.append(el("line", { class: "hs " + cls, x1: (mx - dy * k).toFixed(1), y1: (my + dx * k).toFixed(1), x2: (mx + dy * k).toFixed(1), y2: (my - dx * k).toFixed(1) }));
    }
    map.addEventListener("click", (e) => {
      const pt = map.createSVGPoint();
      pt.x = e.clientX; pt.y = e.clientY;
      const q = pt.matrixTransform(map.getScreenCTM().inverse());
      let best = "", bd = 1e9;
      for (const id of allHexes) {
        const [x, y] = centre(id), d = (x - q.x) ** 2 + (y - q.y) ** 2;
        if (d < bd) { bd = d; best = id; }
      }
      if (bd < R * R) clickHex(best);
    });
  }
  function drawUnits() {
    const g = $("units");
    g.textContent = "";
    for (const u of onMap()) {
      const [x, y] = centre(at(u.id));
      const moved = st.moves[u.id] && st.moves[u.id].length;
      const c = el("g", { class: "ctr " + u.side + (moved ? " moved" : "") + (st.sel === u.id ? " sel" : ""), "data-unit": u.id });
      c.append(el("rect", { x: (x - R * 0.75).toFixed(1), y: (y - R * 0.3).toFixed(1), width: (R * 1.5).toFixed(1), height: (R * 0.95).toFixed(1), rx: 2 }));
      c.append(el("text", { x: x.toFixed(1), y: (y + R * 0.05).toFixed(1) }, u.id));
      c.append(el("text", { x: x.toFixed(1), y: (y + R * 0.5).toFixed(1) }, u.values));
      c.append(el("title", {}, u.id + " " + u.kind + " " + u.values + (own(u) ? "" : " (enemy)")));
      g.append(c);
    }
  }
  function drawMarks() {
    const g = $("marks"), pg = $("path");
    g.textContent = "";
    pg.textContent = "";
    const mark = (id, cls, label) => {
      const [x, y] = centre(id);
      g.append(el("polygon", { class: cls, points: corners(x, y, 0.92), "data-mark": id }));
      if (label) g.append(el("text", { class: "cost", x: x.toFixed(1), y: (y + R * 0.85).toFixed(1) }, label));
    };
    if (D.wait === "orders" && st.sel) {
      for (const m of U[st.sel].moves || []) mark(m.to, "reach" + (m.zoc ? " zoc" : ""), m.half / 2 + "MP");
    }
    if (D.wait === "setup" && st.sel) {
      for (const hx of freeFor(st.sel)) mark(hx, "free");
    }
    if (st.trace) {
      for (const hx of traceNext()) mark(hx, "reach");
      st.trace.path.forEach((hx, k) => mark(hx, "free", String(k + 1)));
    }
    // The units of the attacks, declared against the reader or built.
    for (const a of (D.wait === "defence" ? D.declared || [] : st.attacks)) {
      for (const id of a.defenders || []) if (at(id)) mark(at(id), "target");
      for (const id of (a.attackers || []).concat(a.barrage || [])) if (at(id)) mark(at(id), "striker");
    }
    for (const id in st.moves) {
      const path = [U[id].hex].concat(st.moves[id]).filter((x) => x);
      if (path.length > 1) pg.append(el("polyline", { class: "pathline", points: path.map((x) => centre(x).map((v) => v.toFixed(1)).join(",")).join(" ") }));
    }
  }
  // ---- Retreats and displacements: the steps the engine would take
  // (rules 7.71, 7.72; IW7, IW9), judged where the units stand now ----
  const prohibited = new Set((D.hexsides || []).filter((l) => l.endsWith(" prohibited")).map((l) => l.split(" ")[0]));
  const across = (a, b) => prohibited.has(a < b ? a + "-" + b : b + "-" + a);
  // stepWhy is why unit id may not retreat (or be displaced) from the
  // hex from into c, k+1 hexes from its start; "" when it may.
  function stepWhy(id, start, from, c, k) {
    if (!adjacent(from, c)) return c + " is not next to " + from;
    if (k >= 3) return "no result retreats a unit more than three hexes (IW2)";
    if (distance(start, c) !== k + 1) return "each hex of a retreat is one farther from " + start + " (IW9)";
    if (terrainOf(c).impassable) return c + " is " + terrainOf(c).name + ", impassable (rule 7.72)";
    if (across(from, c)) return "the hexside " + from + "-" + c + " is prohibited (IW7)";
    const foe = unitAt(c, id);
    if (foe && !own(foe)) return c + " holds the enemy " + foe.id + " (rule 7.71)";
    const zoc = enemyNext(c).filter((e) => e.id !== id);
    if (zoc.length) return c + " is in the zone of control of " + zoc.map((e) => e.id).join(", ") + " where the enemy stands now (rule 7.71)";
    return "";
  }
  // traceNext is the hexes the path being tapped in may go on to.
  function traceNext() {
    const tr = st.trace, start = at(tr.unit), from = tr.path.length ? tr.path[tr.path.length - 1] : start;
    if (tr.kind === "displace") return allHexes.filter((c) => adjacent(start, c) && !tr.path.includes(c) && !stepWhy(tr.unit, start, start, c, 0));
    return allHexes.filter((c) => !stepWhy(tr.unit, start, from, c, tr.path.length));
  }
  function traceTap(hx) {
    const tr = st.trace, start = at(tr.unit), from = tr.path.length ? tr.path[tr.path.length - 1] : start;
    const why = tr.kind === "displace" ? (tr.path.includes(hx) ? hx + " is listed already" : stepWhy(tr.unit, start, start, hx, 0)) : stepWhy(tr.unit, start, from, hx, tr.path.length);
    if (why) return say("Not taken: " + why + ".");
    tr.path.push(hx);
    render();
    say(tr.unit + (tr.kind === "displace" ? " displaced prefers " : " retreats ") + tr.path.join(" ") + ": tap the next hex, or Done.");
  }
  function freeFor(id) {
    const p = (D.setup || []).find((s) => s.unit === id);
    return p ? p.free.filter((hx) => !unitAt(hx, id)) : [];
  }
  function say(s) { $("where").textContent = s; }

  // clickHex is a tap on the map: a pick asked for, or the choice of a
  // unit, or the end of its move or its placement.
  function clickHex(hx) {
    const t = terrainOf(hx), u = unitAt(hx);
    let words = hx + ": " + t.name + (t.impassable ? "" : ", " + t.line + " line") + (u ? "; " + u.id + " " + u.kind + " " + u.values : "");
    if (st.trace) return traceTap(hx);
    if (st.pick) {
      const f = st.pick;
      st.pick = null;
      f(hx);
      render();
      return say(words);
    }
    if (D.wait === "orders" && st.sel) {
      const m = (U[st.sel].moves || []).find((x) => x.to === hx);
      if (m) {
        const other = unitAt(hx, st.sel);
        if (other && own(other)) {
          say(hx + " holds " + other.id + ": one unit a hex once the moves are made (rule 5.31); move " + other.id + " out first.");
          return;
        }
        const id = st.sel;
        st.moves[id] = m.path.match(new RegExp(".{" + 2 * W + "}", "g"));
        dropAttacksOf(id);
        st.sel = null;
        render();
        return say(id + " moves to " + hx + " for " + m.half / 2 + " MP" + (m.zoc ? "; it stops there in the zone of control of " + m.zoc.join(", ") + " (rule 6.0)" : "") + ".");
      }
    }
    if (D.wait === "setup" && st.sel && freeFor(st.sel).includes(hx)) {
      st.setup[st.sel] = hx;
      words = st.sel + " is placed in " + hx + ".";
      st.sel = null;
      render();
      return say(words);
    }
    if (u && own(u) && ((D.wait === "orders" && u.moves) || D.wait === "setup" && st.setup[u.id])) {
      st.sel = st.sel === u.id ? null : u.id;
      if (st.sel) words += D.wait === "orders" ? ": tap a marked hex to move it there" + (u.moves.length ? "" : " (it cannot move)") : ": tap a yellow hex to place it";
    } else st.sel = null;
    render();
    say(words);
  }
  function dropAttacksOf(id) {
    const n = st.attacks.length;
    st.attacks = st.attacks.filter((a) => !a.attackers.includes(id) && !a.barrage.includes(id));
    if (st.attacks.length < n) st.note = "The attacks " + id + " was in are taken out: it moved. Build them again from where it ends.";
  }

  // ---- The panel: the tools of the wait ----
  const num = (v, lo, hi) => h("input", { type: "number", min: lo, max: hi, value: v });
  const box = (label, checked, cls) => {
    const i = h("input", { type: "checkbox", checked: !!checked });
    if (cls) i.className = cls;
    return [i, h("label", {}, i, " " + label)];
  };
  function tools() {
    const t = $("tools");
    t.textContent = "";
    if (D.wait === "orders") {
      const arriving = D.units.filter((u) => u.arriving);
      const fs = h("fieldset", {}, h("legend", {}, "Moves (rules 5.0, 6.0)"), h("p", { className: "small" }, "Tap one of your units, then a marked hex: it moves there along the cheapest legal path. Hexes with a red dashed edge stop it in an enemy zone of control. Tap the unit again to let it go."));
      for (const u of arriving) fs.append(h("button", { id: "enter-" + u.id, on: { click: () => { st.sel = st.sel === u.id ? null : u.id; render(); say(u.id + " may enter this Game-Turn: tap a marked hex."); } } }, "Bring in " + u.id));
      t.append(fs, attackTool());
    }
    if (D.wait === "setup") {
      const fs = h("fieldset", {}, h("legend", {}, "Set-up (rule 3.0)"), h("p", { className: "small" }, "Tap a unit (or its button), then a yellow hex of its area. Filled in: the first free hex of each area, as a missed deadline would."));
      for (const p of D.setup) {
        fs.append(h("button", { id: "place-" + p.unit, on: { click: () => { st.sel = p.unit; render(); say("Tap a yellow hex of area " + p.area + " for " + p.unit + "."); } } }, p.unit + " (" + p.area + ")"), " ");
      }
      t.append(fs);
    }
    if (D.wait === "defence") {
      const fs = h("fieldset", {}, h("legend", {}, "The attacks declared against you (rule 4.1 c)"));
      const ol = h("ol", {});
      for (const a of D.declared || []) {
        const o = odds(copyAttack(a));
        ol.append(h("li", {}, a.defenders.join(", ") + " attacked by " + (a.attackers || []).concat(a.barrage || []).join(", ") + (a.gsp ? " with " + a.gsp + " GSP" : "") + (a.banzai ? ", Banzai" : "") + ": " + oddsWords(o) + " before your fire."));
      }
      fs.append(ol, h("p", { className: "small" }, "Ground Support Points left: " + D.gsp + "."));
      t.append(fs, defenceTool(st.defence, "def", (D.declared || []).flatMap((a) => a.defenders), (p) => (D.guns || {})[p] || []));
    }
  }

  // attackTool builds one attack from the units where the moves leave
  // them, and shows its odds before it is added.
  function attackTool() {
    const fs = h("fieldset", { id: "attack" }, h("legend", {}, "Build an attack (rule 7.0)"));
    const used = new Set(st.attacks.flatMap((a) => a.attackers.concat(a.barrage, a.defenders)));
    const draft = st.draft = st.draft || copyAttack({});
    const keep = (list, ok) => list.filter((id) => ok.includes(id));
    const artRange = (g) => draft.defenders.some((d) => distance(at(g), at(d)) <= (U[g].r || 0));
    const defs = enemies().filter((e) => !used.has(e.id) && (friends().some((f) => adjacent(at(f.id), at(e.id)) || (isArt(f) && distance(at(f.id), at(e.id)) <= (f.r || 0))) || D.gsp > 0)).map((u) => u.id);
    draft.defenders = keep(draft.defenders, defs);
    const atts = friends().filter((f) => !used.has(f.id) && draft.defenders.length && draft.defenders.every((d) => adjacent(at(f.id), at(d)))).map((u) => u.id);
    const bars = friends().filter((f) => isArt(f) && !used.has(f.id) && !enemyNext(at(f.id)).length && artRange(f.id)).map((u) => u.id);
    draft.attackers = keep(draft.attackers, atts);
    draft.barrage = keep(draft.barrage, bars);
    // Only attackers from adjacent hexes advance or pay for a Banzai
    // attack (rules 7.94, 10.13), into a hex a defender leaves (7.91).
    const dhexes = [...new Set(draft.defenders.map(at))];
    draft.advance = draft.advance.filter((v) => draft.attackers.includes(v.unit) && dhexes.includes(v.to));
    draft.removals = draft.banzai ? keep(draft.removals, draft.attackers) : [];
    const row = (title, ids, list, cls) => {
      const p = h("p", {}, h("b", {}, title + ": "));
      if (!ids.length) p.append(h("span", { className: "small" }, "none"));
      for (const id of ids) {
        const [i, l] = box(id + " " + U[id].values + (own(U[id]) ? "" : " in " + at(id)), list.includes(id), cls);
        i.value = id;
        i.addEventListener("change", () => {
          const k = list.indexOf(id);
          if (i.checked && k < 0) list.push(id);
          if (!i.checked && k >= 0) list.splice(k, 1);
          tools();
        });
        p.append(l);
      }
      return p;
    };
    fs.append(row("Defenders", defs, draft.defenders, "defender"));
    fs.append(row("Attackers, next to every defender", atts, draft.attackers, "attacker"));
    fs.append(row("Barrage, artillery in range and next to no enemy (rule 8.11)", bars, draft.barrage, "barrage"));
    const left = D.gsp - gspSpent();
    const g = num(Math.min(draft.gsp, left), 0, left);
    g.id = "gsp";
    g.addEventListener("input", () => { draft.gsp = Math.max(0, Math.min(+g.value || 0, left)); tools(); $("gsp").focus(); });
    fs.append(h("p", {}, h("label", {}, "Ground Support Points (rule 9.0; " + left + " left): ", g)));
    if (D.rules === "japan") {
      const [b, l] = box("Banzai (rule 10.0: infantry and engineers double; units are lost)", draft.banzai);
      b.id = "banzai";
      b.addEventListener("change", () => { draft.banzai = b.checked; tools(); });
      fs.append(h("p", {}, l));
    }
    if (draft.attackers.length) {
      const p = h("p", { id: "advances" }, h("b", {}, "Advance after a D or De result (rule 7.9): "));
      for (const id of draft.attackers) {
        const s = h("select", { className: "advance", "data-unit": id, "aria-label": "advance of " + id });
        s.append(h("option", { value: "" }, id + " stays"));
        for (const hx of dhexes) s.append(h("option", { value: hx }, id + " advances into " + hx));
        const cur = draft.advance.find((v) => v.unit === id);
        s.value = cur ? cur.to : "";
        s.addEventListener("change", () => {
          const taken = draft.advance.find((v) => v.unit !== id && v.to === s.value);
          if (s.value && taken) {
            say(taken.unit + " already advances into " + s.value + ": one advancing unit a hex of the path (rule 7.91, Q11).");
            s.value = cur ? cur.to : "";
            return;
          }
          draft.advance = draft.advance.filter((v) => v.unit !== id).concat(s.value ? [{ unit: id, to: s.value }] : []);
          tools();
        });
        p.append(s, " ");
      }
      p.append(h("span", { className: "small" }, "An advance the result does not allow is left out and said so in the report."));
      fs.append(p);
    }
    if (draft.banzai && draft.attackers.length) {
      const p = h("p", { id: "removals" }, h("b", {}, "Banzai removals, first to go (rule 10.12): "),
        draft.removals.length ? draft.removals.join(", ") + " " : h("span", { className: "small" }, "the engine's choice, the least strength that pays (IW21) "));
      for (const id of draft.attackers.filter((x) => !draft.removals.includes(x))) {
        p.append(h("button", { className: "removal", value: id, on: { click: () => { draft.removals.push(id); tools(); } } }, (draft.removals.length ? "then " : "first ") + id), " ");
      }
      if (draft.removals.length) p.append(h("button", { id: "removals-clear", on: { click: () => { draft.removals = []; tools(); } } }, "clear the order"));
      p.append(h("span", { className: "small" }, " Infantry and engineers still go before armor, armor before artillery."));
      fs.append(p);
    }
    const ready = draft.defenders.length && (draft.attackers.length + draft.barrage.length || draft.gsp > 0);
    const o = ready ? odds(draft) : null;
    fs.append(h("p", { id: "odds", className: "odds" }, o ? oddsWords(o) : "Tick a defender and what attacks it."));
    fs.append(h("button", { id: "addattack", disabled: !ready, on: { click: () => { st.attacks.push(copyAttack(draft)); st.draft = null; render(); } } }, "Add this attack"));
    return fs;
  }

  // defenceTool edits a Defence (the answer of the defence wait, or the
  // standing instructions): final protective fire plans, the advance,
  // and where units retreat.
  function defenceTool(d, key, protectable, gunsFor) {
    const fs = h("fieldset", { id: key + "-tool" }, h("legend", {}, "Final protective fire (rules 8.4, 9.0)"));
    const pr = h("select", { id: key + "-protect" });
    for (const id of [...new Set(protectable)]) pr.append(h("option", { value: id }, id + " in " + at(id)));
    const draft = d.draft = d.draft || { protect: protectable[0] || "", artillery: [], gsp: 0, min: "", banzai: false };
    pr.value = draft.protect;
    pr.addEventListener("change", () => { draft.protect = pr.value; draft.artillery = []; render(); });
    fs.append(h("p", {}, h("label", {}, "Protect ", pr)));
    const gp = h("p", {}, "Artillery: ");
    const guns = gunsFor(draft.protect);
    if (!guns.length) gp.append(h("span", { className: "small" }, "none in range"));
    for (const id of guns) {
      const [i, l] = box(id, draft.artillery.includes(id), "gun");
      i.value = id;
      i.addEventListener("change", () => { draft.artillery = draft.artillery.filter((x) => x !== id).concat(i.checked ? [id] : []); });
      gp.append(l);
    }
    const g = num(draft.gsp, 0, 99), m = h("input", { type: "number", value: draft.min, id: key + "-min" });
    g.id = key + "-gsp";
    g.addEventListener("input", () => { draft.gsp = Math.max(0, +g.value || 0); });
    m.addEventListener("input", () => { draft.min = m.value; });
    const [ob, obl] = box("only against Banzai", draft.banzai);
    ob.addEventListener("change", () => { draft.banzai = ob.checked; });
    fs.append(gp, h("p", {}, h("label", {}, "GSP ", g), h("label", {}, "only if the differential is at least ", m), obl));
    fs.append(h("button", { id: key + "-addfpf", disabled: !draft.protect, on: { click: () => {
      d.fpf.push({ protect: draft.protect, artillery: draft.artillery.slice(), gsp: draft.gsp, min: draft.min === "" ? undefined : +draft.min, banzai: draft.banzai });
      d.draft = null;
      render();
    } } }, "Add this fire plan"));
    const [adv, advl] = box("advance into the attacker's hex after its A result (rule 7.91)", d.advance);
    adv.id = key + "-advance";
    adv.addEventListener("change", () => { d.advance = adv.checked; write(); });
    const ru = h("select", { id: key + "-rtunit" });
    for (const u of friends()) ru.append(h("option", { value: u.id }, u.id));
    const rb = h("button", { id: key + "-toward", on: { click: () => {
      const id = ru.value;
      st.pick = (hx) => { d.toward[id] = hx; };
      say("Tap the hex " + id + " should retreat toward.");
    } } }, "then tap the map");
    fs.append(h("p", {}, advl), h("p", {}, h("label", {}, "Retreat ", ru), " toward a hex (rule 7.7): ", rb));
    // A path tapped in hex by hex, or the hexes a displaced unit prefers.
    const trace = (kind) => () => {
      st.trace = { kind: kind, unit: ru.value, path: [], d: d };
      render();
      say("Tap the hexes of " + st.trace.unit + (kind === "displace" ? "'s displacement, best first (rule 7.81)" : "'s retreat from " + at(st.trace.unit) + ", one hex at a time (rule 7.7)") + "; marked hexes are the steps it may take.");
    };
    const tp = h("p", {}, h("button", { id: key + "-path", on: { click: trace("path") } }, "tap a retreat path"), " ",
      h("button", { id: key + "-displace", on: { click: trace("displace") } }, "tap where it goes when displaced"));
    if (st.trace && st.trace.d === d) {
      const tr = st.trace;
      tp.append(" ", h("button", { id: key + "-tracedone", disabled: !tr.path.length, on: { click: () => {
        if (tr.kind === "displace") d.displace[tr.unit] = tr.path.slice();
        else d.paths[tr.unit] = (d.paths[tr.unit] || []).filter((p) => p.join() !== tr.path.join()).concat([tr.path.slice()]);
        st.trace = null;
        render();
      } } }, "Done"), " ", h("button", { id: key + "-tracecancel", on: { click: () => { st.trace = null; render(); } } }, "Cancel"),
      " ", h("span", { className: "small" }, tr.unit + ": " + (tr.path.join(" ") || "no hex yet")));
    }
    fs.append(tp);
    // The order the units of one combat retreat in (IW15).
    const ro = h("select", { id: key + "-orderunit" });
    for (const u of friends().filter((u) => !d.order.includes(u.id))) ro.append(h("option", { value: u.id }, u.id));
    fs.append(h("p", {}, "Retreat order (IW15): " + (d.order.join(", ") || "by id") + " ", ro, " ",
      h("button", { id: key + "-orderadd", disabled: !ro.options.length, on: { click: () => { d.order.push(ro.value); render(); } } }, "retreats next"), " ",
      h("button", { id: key + "-orderclear", disabled: !d.order.length, on: { click: () => { d.order = []; render(); } } }, "clear")));
    return fs;
  }

  // ---- The orders as a list ----
  function acts() {
    const ol = $("acts");
    ol.textContent = "";
    const li = (text, undo, warn) => {
      const l = h("li", {}, text);
      if (warn) l.append(" ", h("span", { className: "warn" }, warn));
      if (undo) l.append(h("button", { on: { click: () => { undo(); render(); } } }, "remove"));
      ol.append(l);
    };
    if (D.wait === "setup") for (const id in st.setup) li(id + " in " + st.setup[id]);
    for (const id in st.moves) li(id + " moves " + st.moves[id].join(" "), () => { delete st.moves[id]; });
    st.attacks.forEach((a, k) => {
      const far = a.attackers.filter((x) => a.defenders.some((d) => !adjacent(at(x), at(d))));
      li("attack " + (k + 1) + ": " + a.defenders.join(", ") + " by " + a.attackers.concat(a.barrage.map((b) => b + " (barrage)")).join(", ") +
        (a.gsp ? ", " + a.gsp + " GSP" : "") + (a.banzai ? ", Banzai" : "") + ": " + oddsWords(odds(a)) +
        (a.advance.length ? "; after D or De " + a.advance.map((v) => v.unit + " advances into " + v.to).join(", ") : "") +
        (a.removals.length ? "; Banzai removals first " + a.removals.join(", ") : ""), () => { st.attacks.splice(k, 1); },
        far.length ? far.join(", ") + " not next to every defender (rule 7.23)" : "");
    });
    const d = D.wait === "defence" ? st.defence : null;
    if (d) defenceActs(d, li, "");
    if (!ol.children.length) li("none yet");
    $("duty").textContent = D.wait === "orders" ? dutyWords() : "";
    if (st.note) $("duty").textContent += " " + st.note;
  }
  function defenceActs(d, li, pre) {
    d.fpf.forEach((f, k) => li(pre + "fire for " + f.protect + ": " + (f.artillery.join(", ") || "no artillery") + (f.gsp ? ", " + f.gsp + " GSP" : "") +
      (f.min !== undefined ? ", if the differential is at least " + f.min : "") + (f.banzai ? ", only against Banzai" : ""), () => { d.fpf.splice(k, 1); }));
    for (const id in d.toward) li(pre + id + " retreats toward " + d.toward[id], () => { delete d.toward[id]; });
    for (const id in d.paths) d.paths[id].forEach((p, k) => li(pre + id + " retreats by " + p.join(" ") + (k ? " (choice " + (k + 1) + ")" : ""), () => {
      d.paths[id].splice(k, 1);
      if (!d.paths[id].length) delete d.paths[id];
    }));
    for (const id in d.displace) li(pre + id + " displaced goes to " + d.displace[id].join(" or "), () => { delete d.displace[id]; });
    if (d.order.length) li(pre + "retreat order " + d.order.join(", "), () => { d.order = []; });
    if (d.advance) li(pre + "advance after an A result");
  }
  // dutyWords reminds the player of the duty to attack (rules 7.11,
  // 7.12) where the moves leave the units; the server judges it.
  function duties() {
    const inA = new Set(st.attacks.flatMap((a) => a.attackers)), inD = new Set(st.attacks.flatMap((a) => a.defenders));
    return {
      must: friends().filter((f) => enemyNext(at(f.id)).length && !inA.has(f.id)).map((u) => u.id),
      owed: enemies().filter((e) => friends().some((f) => adjacent(at(f.id), at(e.id))) && !inD.has(e.id)).map((u) => u.id),
    };
  }
  function dutyWords() {
    const { must, owed } = duties();
    return (must.length ? "Next to an enemy and in no attack (rule 7.12): " + must.join(", ") + ". " : "") +
      (owed.length ? "Enemies next to your units and not attacked (rule 7.11): " + owed.join(", ") + "." : "");
  }

  // ---- Standing instructions ----
  function standing() {
    const s = $("standing");
    s.textContent = "";
    const [on, onl] = box("send standing instructions with this file: they replace yours whole (IW24), and the enemy never sees them (IW26)", st.standingOn);
    on.id = "standing-on";
    on.addEventListener("change", () => { st.standingOn = on.checked; render(); });
    s.append(h("p", {}, onl));
    if (!st.standingOn) return;
    const [ask, askl] = box("ask me: send me a defence wait to see the attacks first", st.ask);
    ask.id = "standing-ask";
    ask.addEventListener("change", () => { st.ask = ask.checked; write(); });
    s.append(h("p", {}, askl));
    const arts = friends().filter(isArt).map((u) => u.id);
    s.append(defenceTool(st.standing, "st", friends().map((u) => u.id), (p) => arts.filter((a) => a !== p)));
    const ul = h("ul", { id: "standing-list" });
    defenceActs(st.standing, (text, undo) => {
      const l = h("li", {}, text);
      if (undo) l.append(h("button", { on: { click: () => { undo(); render(); } } }, "remove"));
      ul.append(l);
    }, "");
    s.append(ul);
  }

  // ---- The file ----
  const q = (s) => JSON.stringify(s);
  const qs = (xs) => "[" + xs.map(q).join(", ") + "]";
  function defenceYAML(d, ind) {
    let out = "";
    if (!d.fpf.length) out += ind + "fpf: []\n";
    else {
      out += ind + "fpf:\n";
      for (const f of d.fpf) {
        out += ind + "  - {protect: " + q(f.protect) + (f.artillery.length ? ", artillery: " + qs(f.artillery) : "") + (f.gsp ? ", gsp: " + f.gsp : "") +
          (f.min !== undefined && !isNaN(f.min) ? ", min_differential: " + f.min : "") + (f.banzai ? ", only_banzai: true" : "") + "}\n";
      }
    }
    const ids = [...new Set(Object.keys(d.toward).concat(Object.keys(d.paths)))].sort(), dis = Object.keys(d.displace).sort();
    if (ids.length || d.order.length || dis.length) {
      out += ind + "own:\n";
      if (ids.length) {
        out += ind + "  retreats:\n";
        for (const id of ids) {
          const parts = [];
          if (d.paths[id]) parts.push("paths: [" + d.paths[id].map(qs).join(", ") + "]");
          if (d.toward[id]) parts.push("toward: " + q(d.toward[id]));
          out += ind + "    " + q(id) + ": {" + parts.join(", ") + "}\n";
        }
      }
      if (d.order.length) out += ind + "  order: " + qs(d.order) + "\n";
      if (dis.length) {
        out += ind + "  displace:\n";
        for (const id of dis) out += ind + "    " + q(id) + ": " + qs(d.displace[id]) + "\n";
      }
    }
    return out + ind + "advance: " + d.advance + "\n";
  }
  function body() {
    let out = "";
    if (D.wait === "setup") {
      const ids = Object.keys(st.setup);
      out += ids.length ? "setup:\n" + ids.map((id) => "  " + q(id) + ": " + q(st.setup[id]) + "\n").join("") : "setup: {}\n";
    }
    if (D.wait === "orders") {
      const ids = Object.keys(st.moves);
      out += ids.length ? "moves:\n" + ids.map((id) => "  - {unit: " + q(id) + ", path: " + qs(st.moves[id]) + "}\n").join("") : "moves: []\n";
      out += st.attacks.length ? "attacks:\n" + st.attacks.map((a) => "  - {defenders: " + qs(a.defenders) + (a.attackers.length ? ", attackers: " + qs(a.attackers) : "") +
        (a.barrage.length ? ", barrage: " + qs(a.barrage) : "") + (a.gsp ? ", gsp: " + a.gsp : "") + (a.banzai ? ", banzai: true" : "") +
        (a.advance.length ? ", advance: [" + a.advance.map((v) => "{unit: " + q(v.unit) + ", to: " + q(v.to) + "}").join(", ") + "]" : "") +
        (a.removals.length ? ", removals: " + qs(a.removals) : "") + "}\n").join("") : "attacks: []\n";
    }
    if (D.wait === "defence") out += "defence:\n" + defenceYAML(st.defence, "  ");
    if (st.standingOn) out += "standing:\n  ask: " + st.ask + "\n" + defenceYAML(st.standing, "  ");
    return out;
  }
  function fileText(withToken) {
    const tok = token === "" ? "PASTE-YOUR-TOKEN-HERE" : !withToken ? "YOUR-TOKEN # added when you copy, download or mail the file" :
      /^[A-Za-z0-9._-]+$/.test(token) ? token : q(token);
    return "# attu orders for game " + D.game + ": " + D.title + ", written by the order sheet.\n" +
      "game: " + q(D.game) + "\nside: " + D.side + "\nturn: " + D.turn + "\nwait: " + D.wait + "\ntoken: " + tok + "\n" + ($("now").checked ? "now: true\n" : "") + body();
  }
  function write() {
    $("yaml").value = fileText(false);
    links();
  }

  // ---- Loading a file ----

  // readFlow reads one YAML flow value as the sheet and the order
  // template write them: {k: v}, [a, b], quoted and plain scalars.
  function readFlow(s) {
    let i = 0;
    const ws = () => { while (s[i] === " ") i++; };
    const fail = (what) => { throw new Error(what + " at column " + (i + 1) + " of: " + s); };
    function scalar(key) {
      ws();
      if (s[i] === '"') {
        let j = i + 1;
        while (j < s.length && s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
        if (j >= s.length) fail("an unclosed quote");
        const out = JSON.parse(s.slice(i, j + 1));
        i = j + 1;
        return out;
      }
      if (s[i] === "'") {
        const j = s.indexOf("'", i + 1);
        if (j < 0) fail("an unclosed quote");
        const out = s.slice(i + 1, j);
        i = j + 1;
        return out;
      }
      let j = i;
      while (j < s.length && !(key ? ":,{}[]" : ",{}[]").includes(s[j])) j++;
      const out = s.slice(i, j).trim();
      i = j;
      if (key) return out;
      if (out === "true" || out === "false") return out === "true";
      if (/^-?(0|[1-9]\d*)$/.test(out)) return +out;
      return out;
    }
    function value() {
      ws();
      if (s[i] === "{") {
        i++;
        const o = {};
        ws();
        if (s[i] === "}") { i++; return o; }
        for (;;) {
          const k = scalar(true);
          ws();
          if (s[i] !== ":") fail("a missing colon");
          i++;
          o[k] = value();
          ws();
          if (s[i] === ",") { i++; continue; }
          if (s[i] === "}") { i++; return o; }
          fail("a missing comma or }");
        }
      }
      if (s[i] === "[") {
        i++;
        const a = [];
        ws();
        if (s[i] === "]") { i++; return a; }
        for (;;) {
          a.push(value());
          ws();
          if (s[i] === ",") { i++; continue; }
          if (s[i] === "]") { i++; return a; }
          fail("a missing comma or ]");
        }
      }
      return scalar(false);
    }
    const v = value();
    ws();
    if (i < s.length) fail("more after the value");
    return v;
  }
  // stripComment cuts a line's comment: a # after a space, outside quotes.
  function stripComment(l) {
    let q = "";
    for (let i = 0; i < l.length; i++) {
      const c = l[i];
      if (q) { if (c === "\\" && q === '"') i++; else if (c === q) q = ""; }
      else if (c === '"' || c === "'") q = c;
      else if (c === "#" && (i === 0 || l[i - 1] === " ")) return l.slice(0, i).trimEnd();
    }
    return l.trimEnd();
  }
  // readFile reads the block YAML of an order file into plain values:
  // mappings and lists by indentation, each leaf a flow value.
  function readFile(text) {
    const lines = text.replace(/\r/g, "").split("\n").map(stripComment).filter((l) => l.trim() !== "" && l.trim() !== "---");
    let k = 0;
    const indent = (l) => l.search(/\S/);
    const keyRE = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:{}\[\]"']+?):(?:\s+(.*))?$/;
    function block(ind) {
      const list = lines[k].trim().startsWith("- ") || lines[k].trim() === "-";
      const out = list ? [] : {};
      while (k < lines.length && indent(lines[k]) === ind) {
        let l = lines[k].trim();
        if (list) {
          if (!l.startsWith("-")) break;
          l = l.slice(1).trim();
          if (/^[{\["']/.test(l) || !keyRE.test(l)) {
            out.push(l === "" ? null : readFlow(l));
            k++;
          } else {
            lines[k] = " ".repeat(ind + 2) + l;
            out.push(block(ind + 2));
          }
          continue;
        }
        const m = keyRE.exec(l);
        if (!m) throw new Error("line " + (k + 1) + " is not key: value: " + l);
        const key = /^["']/.test(m[1]) ? readFlow(m[1]) : m[1].trim();
        k++;
        if (m[2] !== undefined && m[2] !== "") out[key] = readFlow(m[2]);
        else if (k < lines.length && indent(lines[k]) > ind) out[key] = block(indent(lines[k]));
        else if (k < lines.length && indent(lines[k]) === ind && lines[k].trim().startsWith("- ")) out[key] = block(ind);
        else out[key] = null;
      }
      return out;
    }
    return lines.length ? block(indent(lines[0])) : {};
  }
  // load takes a file's orders into the page, when it answers this wait.
  function load(text) {
    let f;
    try {
      f = readFile(text);
    } catch (e) {
      return "Not read: " + e.message;
    }
    if (!f || typeof f !== "object" || Array.isArray(f)) return "Not read: not an order file.";
    if (String(f.side) !== D.side || String(f.wait) !== D.wait || +f.turn !== D.turn) {
      return "This file answers " + f.side + " " + f.wait + " of turn " + f.turn + ", not this wait (" + D.side + " " + D.wait + " of turn " + D.turn + "): nothing loaded.";
    }
    const ids = (xs) => (Array.isArray(xs) ? xs : []).map(String);
    const units = (xs) => ids(xs).filter((id) => U[id]);
    const hexOK = (x) => allHexes.includes(String(x));
    if (D.wait === "setup") {
      st.setup = {};
      for (const id in f.setup || {}) if (U[id] && hexOK(f.setup[id])) st.setup[id] = String(f.setup[id]);
    }
    if (D.wait === "orders") {
      st.moves = {};
      for (const m of Array.isArray(f.moves) ? f.moves : []) {
        const path = ids(m && m.path);
        if (m && U[m.unit] && own(U[m.unit]) && path.length && path.every(hexOK)) st.moves[m.unit] = path;
      }
      st.attacks = (Array.isArray(f.attacks) ? f.attacks : []).filter((a) => a && typeof a === "object").map((a) => copyAttack({ defenders: units(a.defenders), attackers: units(a.attackers), barrage: units(a.barrage), gsp: Math.max(0, +a.gsp || 0), banzai: a.banzai === true,
        advance: (Array.isArray(a.advance) ? a.advance : []).filter((v) => v && U[v.unit] && hexOK(v.to)).map((v) => ({ unit: String(v.unit), to: String(v.to) })), removals: units(a.removals) }));
    }
    const defence = (d) => {
      d = d || {};
      if (typeof d !== "object" || Array.isArray(d)) d = {};
      const own = d.own && typeof d.own === "object" && !Array.isArray(d.own) ? d.own : {};
      const r = fromDefence({ fpf: (Array.isArray(d.fpf) ? d.fpf : []).filter((x) => x && typeof x === "object").map((x) => ({ protect: String(x.protect), artillery: ids(x.artillery), gsp: +x.gsp || 0, min_differential: typeof x.min_differential === "number" ? x.min_differential : undefined, only_banzai: x.only_banzai === true })),
        own: { retreats: own.retreats && typeof own.retreats === "object" ? own.retreats : {}, order: own.order, displace: own.displace && typeof own.displace === "object" ? own.displace : {} }, advance: d.advance === true });
      for (const id in r.toward) r.toward[id] = String(r.toward[id]);
      for (const id in r.paths) r.paths[id] = (Array.isArray(r.paths[id]) ? r.paths[id] : []).map(ids);
      for (const id in r.displace) r.displace[id] = ids(r.displace[id]);
      r.order = ids(r.order);
      return r;
    };
    if (D.wait === "defence") st.defence = defence(f.defence);
    st.standingOn = !!f.standing;
    if (f.standing) {
      st.standing = defence(f.standing);
      st.ask = f.standing.ask === true;
    }
    $("now").checked = f.now === true;
    st.sel = null;
    st.note = "";
    render();
    return "Loaded: the page now holds the file's orders. Your token stays as typed here.";
  }

  function render() {
    drawUnits();
    drawMarks();
    tools();
    acts();
    standing();
    write();
  }
  // The terrain key, each colour as the map draws it.
  for (const t of D.terrains) {
    const sw = el("svg", { width: 14, height: 14, viewBox: "0 0 14 14", class: "sw" });
    sw.append(el("rect", { width: 14, height: 14, fill: t.colour, stroke: "#555" }));
    $("terrainkey").append(sw, " " + t.name + (t.impassable ? "" : " (" + t.line + " line)") + " ");
  }
  $("game").textContent = D.game;
  $("status").textContent = (D.deadline ? "Deadline: " + D.deadline + ". " : "") + "Ground Support Points left: " + D.gsp + ".";
  $("zoomin").addEventListener("click", () => setZoom(zoom * 1.25));
  $("zoomout").addEventListener("click", () => setZoom(zoom / 1.25));
  $("token").addEventListener("input", () => { token = $("token").value.trim(); write(); });
  $("now").addEventListener("change", write);
  $("load").addEventListener("click", () => { $("loadnote").textContent = load($("loadtext").value); });
  $("loadfile").addEventListener("change", () => {
    const file = $("loadfile").files[0];
    if (!file) return;
    const r = new FileReader();
    r.onload = () => { $("loadtext").value = r.result; $("loadnote").textContent = load(r.result); };
    r.readAsText(file);
  });
  drawMap();
  render();
  // For the browser test: how long the first drawing took, and the
  // page's own reckonings to hold against the engine's.
  window.attuSheet = {
    shownAt: performance.now(),
    odds: (a) => odds(copyAttack(a)),
    distance: distance,
    duties: duties,
    setMoves: (m) => { st.moves = m; st.attacks = []; render(); },
  };
})();
