// obverse sandbox: plain JS, no build step. Every board is drawn from the seat's own view,
// which the server filtered; this page never gets anything its seats may not know.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const XHTML = "http://www.w3.org/1999/xhtml";
const $ = (id) => document.getElementById(id);

const app = {
  key: null,         // the token this page holds (its own seat)
  panels: [],        // [{token, data, el}]
  rulesets: [],
  selected: null,    // {token, ref}
  timer: null,
};

// --- small DOM helpers -------------------------------------------------------------------

function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
}

function svg(tag, attrs, ...kids) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid) node.append(kid);
  return node;
}

function option(value, label, selected) {
  return el("option", { value, selected: selected || null, text: label === undefined ? value : label });
}

function status(message, ok) {
  const s = $("status");
  s.textContent = message || "";
  s.className = "status" + (message ? (ok ? " ok" : " err") : "");
}

// --- the API ------------------------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const msg = data && data.error ? data.error : `${res.status} ${res.statusText}`;
    throw new Error(`${res.status}: ${msg}`);
  }
  return data;
}

// --- hash: #k=TOKEN&s=TOKEN,TOKEN ----------------------------------------------------------

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get("k");
  const shown = (params.get("s") || key || "").split(",").filter(Boolean);
  return { key, shown: shown.slice(0, 3) };
}

function setHash(key, shown) {
  const s = shown && shown.length && !(shown.length === 1 && shown[0] === key)
    ? `&s=${shown.join(",")}` : "";
  location.hash = `k=${key}${s}`;
}

// --- cards drawn as SVG --------------------------------------------------------------------

const MANA = { W: "#f8f3d6", U: "#b3dcf5", B: "#cbc2bf", R: "#f6b09a", G: "#a5d8b4", C: "#d6d0cd" };
const FRAME = { W: ["#f4efdc", "#c9bf98"], U: ["#2a7cc0", "#0d4f86"], B: ["#5a4f55", "#29232a"],
  R: ["#d9503a", "#8e1f15"], G: ["#2f8f57", "#12572f"] };
const ELEMENT = { fire: ["#e0613d", "#8c2412"], water: ["#3a8fd6", "#174f86"],
  wind: ["#57b98a", "#1d6a47"], norm: ["#b7aa8e", "#6d634f"], arcane: ["#9d6ad6", "#4e2a82"],
  crux: ["#d6b04a", "#7d6112"], luxem: ["#f0d97a", "#9b8128"], umbra: ["#5d5470", "#26203a"],
  astra: ["#7fa7e8", "#34518a"], exia: ["#cf5e9a", "#7a2453"], neos: ["#8ad0d0", "#2f7373"],
  tera: ["#a4874f", "#5a4520"] };
const CLASS = { Safe: ["#4faa6f", "#1f5c36"], Euclid: ["#d8b23e", "#7c6010"],
  Keter: ["#cf3f35", "#6e1510"], Thaumiel: ["#7b6ad8", "#332780"], Neutralized: ["#9a9a9a", "#555"] };
const PITCH = { 1: ["#d9413a", "#7e1712"], 2: ["#e6c64a", "#826812"], 3: ["#3c82d4", "#173f7a"] };

function frameColors(f) {
  let colors = f.colors || [];
  if (!colors.length && typeof f.cost === "string") {
    colors = [...new Set((f.cost.match(/[WUBRG]/g) || []))];
  }
  if (colors.length > 1) return ["#e0c25e", "#8a6d14"];
  if (colors.length === 1 && FRAME[colors[0]]) return FRAME[colors[0]];
  const elem = typeof f.element === "string" ? f.element.toLowerCase() : "";
  if (ELEMENT[elem]) return ELEMENT[elem];
  if (f.object_class && CLASS[f.object_class]) return CLASS[f.object_class];
  if (f.pitch && PITCH[f.pitch]) return PITCH[f.pitch];
  return ["#a7adb3", "#5f666d"];
}

function manaSymbols(cost) {
  if (typeof cost !== "string") return cost === null || cost === undefined ? [] : [String(cost)];
  return (cost.match(/\{[^}]+\}/g) || []).map((s) => s.slice(1, -1));
}

function typeLine(f) {
  const left = [...(f.supertypes || []), ...(f.types || [])].join(" ");
  const right = (f.subtypes || []).join(" ");
  return right ? `${left} — ${right}` : left;
}

function statLine(f) {
  const has = (k) => f[k] !== null && f[k] !== undefined;
  if (has("power") && has("toughness")) return `${f.power}/${f.toughness}`;
  if (has("power") && has("defense")) return `${f.power}/${f.defense}`;
  if (has("power") && has("life")) return `${f.power}/${f.life}`;
  for (const k of ["loyalty", "defense", "life", "durability", "securing_power", "intellect"]) {
    if (has(k)) return String(f[k]);
  }
  if (has("power")) return String(f.power);
  return "";
}

function cornerLine(f) {
  const parts = [];
  if (f.pitch !== null && f.pitch !== undefined) parts.push(`pitch ${f.pitch}`);
  if (f.element) parts.push(String(f.element));
  if (f.level !== null && f.level !== undefined) parts.push(`Lv ${f.level}`);
  if (f.object_class) parts.push(String(f.object_class));
  if (f.memory_cost !== null && f.memory_cost !== undefined) parts.push(`mem ${f.memory_cost}`);
  return parts.join(" · ");
}

function fitText(node, text, maxWidth, perChar) {
  node.textContent = text;
  if (text.length * perChar > maxWidth) {
    node.setAttribute("textLength", String(maxWidth));
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return node;
}

let gradientSeq = 0;

// A face: {name, cost, types, subtypes, supertypes, colors, text, stats...}; marks: [text...]
function drawFace(f, marks) {
  const id = `g${++gradientSeq}`;
  const [light, dark] = frameColors(f);
  const root = svg("svg", { viewBox: "0 0 200 280", role: "img",
    "aria-label": f.name || "a card" });
  root.append(svg("defs", {},
    svg("linearGradient", { id, x1: "0", y1: "0", x2: "1", y2: "1" },
      svg("stop", { offset: "0", "stop-color": light }),
      svg("stop", { offset: "1", "stop-color": dark }))));
  root.append(svg("rect", { x: 1, y: 1, width: 198, height: 278, rx: 12, fill: "#161616" }));
  root.append(svg("rect", { x: 7, y: 7, width: 186, height: 266, rx: 8, fill: `url(#${id})` }));
  // name bar with the cost
  root.append(svg("rect", { x: 12, y: 12, width: 176, height: 26, rx: 5, fill: "#f3eee2",
    stroke: "#00000055" }));
  const syms = manaSymbols(f.cost !== undefined && f.cost !== null ? f.cost : f.mana_cost);
  const symW = syms.length * 17;
  root.append(fitText(svg("text", { x: 18, y: 30, class: "c-name" }), f.name || "",
    168 - symW, 8.3));
  syms.forEach((s, i) => {
    const cx = 178 - (syms.length - 1 - i) * 17;
    const fill = MANA[s] || (s.length <= 2 && /^\d+$|^X$/.test(s) ? MANA.C : "#e6dcc0");
    root.append(svg("circle", { cx, cy: 25, r: 7.5, fill, stroke: "#00000066" }));
    root.append(svg("text", { x: cx, y: 29, "text-anchor": "middle", class: "c-sym",
      text: s.length > 2 ? s.slice(0, 2) : s }));
  });
  // art box: a glyph of the name on the frame's colours
  root.append(svg("rect", { x: 14, y: 42, width: 172, height: 98, rx: 3, fill: dark,
    stroke: "#00000066" }));
  root.append(svg("circle", { cx: 150, cy: 70, r: 44, fill: light, opacity: ".35" }));
  root.append(svg("circle", { cx: 52, cy: 118, r: 30, fill: "#ffffff", opacity: ".08" }));
  root.append(svg("text", { x: 100, y: 114, "text-anchor": "middle", class: "c-glyph",
    text: (f.name || "?").trim().charAt(0) }));
  // type line
  root.append(svg("rect", { x: 12, y: 143, width: 176, height: 22, rx: 5, fill: "#f3eee2",
    stroke: "#00000055" }));
  root.append(fitText(svg("text", { x: 18, y: 158, class: "c-type" }), typeLine(f), 164, 6.6));
  // text box
  root.append(svg("rect", { x: 14, y: 168, width: 172, height: 92, rx: 3, fill: "#f7f3ea",
    opacity: ".95" }));
  const fo = svg("foreignObject", { x: 16, y: 170, width: 168, height: 88 });
  const div = document.createElementNS(XHTML, "div");
  div.setAttribute("class", "c-text");
  const abilities = (f.abilities || []).join(", ");
  div.textContent = f.text || abilities;
  fo.append(div);
  root.append(fo);
  const corner = cornerLine(f);
  if (corner) {
    root.append(svg("text", { x: 18, y: 271, class: "c-sym", text: corner }));
  }
  const stat = statLine(f);
  if (stat) {
    root.append(svg("rect", { x: 136, y: 246, width: 54, height: 26, rx: 6, fill: "#f3eee2",
      stroke: "#00000088" }));
    root.append(svg("text", { x: 163, y: 265, "text-anchor": "middle", class: "c-stat",
      text: stat }));
  }
  drawMarks(root, marks);
  return root;
}

function drawBack(marks, caption, stat) {
  const id = `g${++gradientSeq}`;
  const root = svg("svg", { viewBox: "0 0 200 280", role: "img", "aria-label": "card back" });
  root.append(svg("defs", {},
    svg("pattern", { id, width: 20, height: 20, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)" },
      svg("rect", { width: 20, height: 20, fill: "#1f2a4d" }),
      svg("rect", { width: 10, height: 10, fill: "#26345e" }))));
  root.append(svg("rect", { x: 1, y: 1, width: 198, height: 278, rx: 12, fill: "#0d0f1a" }));
  root.append(svg("rect", { x: 8, y: 8, width: 184, height: 264, rx: 8, fill: `url(#${id})`,
    stroke: "#b99c4e", "stroke-width": 2 }));
  root.append(svg("ellipse", { cx: 100, cy: 140, rx: 62, ry: 84, fill: "#121a33",
    stroke: "#b99c4e", "stroke-width": 3 }));
  root.append(svg("path", { d: "M100 78 A 40 40 0 0 1 100 202 Z", fill: "#b99c4e",
    opacity: ".85" }));
  root.append(svg("circle", { cx: 100, cy: 140, r: 62, fill: "none", stroke: "#b99c4e",
    "stroke-width": 1.5, opacity: ".6" }));
  root.append(svg("text", { x: 100, y: 250, "text-anchor": "middle", class: "c-back-t",
    text: "OBVERSE" }));
  if (caption) {
    root.append(svg("rect", { x: 14, y: 16, width: 172, height: 22, rx: 5, fill: "#000000aa" }));
    root.append(fitText(svg("text", { x: 100, y: 31, "text-anchor": "middle",
      class: "c-back-s" }), caption, 164, 6.6));
  }
  if (stat) {
    root.append(svg("rect", { x: 136, y: 210, width: 54, height: 26, rx: 6, fill: "#f3eee2" }));
    root.append(svg("text", { x: 163, y: 229, "text-anchor": "middle", class: "c-stat",
      text: stat }));
  }
  drawMarks(root, marks);
  return root;
}

const MARK_COLORS = { transformed: "#7b3fd0", flipped: "#c2410c", copy: "#0e7490",
  token: "#15803d", "face down": "#334155", marked: "#b91c1c", hidden: "#6b21a8" };

function drawMarks(root, marks) {
  let y = 46;
  for (const m of marks || []) {
    const color = MARK_COLORS[m.split(":")[0]] || "#374151";
    const w = Math.min(176, 12 + m.length * 6.4);
    root.append(svg("rect", { x: 186 - w, y, width: w, height: 16, rx: 8, fill: color,
      stroke: "#ffffffaa" }));
    root.append(svg("text", { x: 186 - w / 2, y: y + 11.5, "text-anchor": "middle",
      class: "c-mark", text: m }));
    y += 19;
  }
}

function marksOf(o) {
  const marks = [];
  if (o.transformed) marks.push("transformed");
  if (o.flipped) marks.push("flipped");
  if (o.is_copy) marks.push("copy");
  if (o.is_token) marks.push("token");
  if (o.face_down) marks.push("face down");
  if (o.marked) marks.push("marked");
  for (const [k, v] of Object.entries(o.counters || {})) marks.push(`${k} ×${v}`);
  if (o.hidden_from && o.hidden_from.length) marks.push(`hidden: ${o.hidden_from.join(", ")}`);
  return marks;
}

function activeText(o) {
  const printed = o.printed || [];
  if (!printed.length) return "";
  if (o.face === "both") return printed.map((f) => f.text || "").filter(Boolean).join("\n//\n");
  const i = o.face === "back" || o.face === "right" ? 1 : 0;
  return (printed[Math.min(i, printed.length - 1)] || {}).text || "";
}

// The object as its seat sees it: the active face, or a back.
function drawObject(o) {
  const marks = marksOf(o);
  if (!o.visible) return drawBack(marks, null, statLine(o));
  if (o.face_down) return drawBack(marks, o.card, statLine(o));
  return drawFace({ ...o, text: activeText(o) }, marks);
}

// --- the board -----------------------------------------------------------------------------

const ZONE_ORDER = ["hand", "arsenal", "library", "deck", "main_deck", "material_deck", "memory",
  "graveyard", "pitch", "exile", "banishment", "banished"];
const PILE_ZONES = new Set(["library", "deck", "main_deck", "material_deck"]);
const SMALL_ZONES = new Set(["graveyard", "exile", "banishment", "banished", "pitch",
  "decommissioned", "memory", "command", "out_of_game"]);

function zoneBox(name, objects, token, opts) {
  const cls = ["zone"];
  if (opts.play) cls.push("play");
  else if (PILE_ZONES.has(name) && objects.length > 1) cls.push("pile");
  else if (SMALL_ZONES.has(name)) cls.push("small");
  if (opts.shared) cls.push("shared");
  const box = el("div", { class: cls.join(" "), "data-zone": name });
  box.append(el("div", { class: "zone-title" }, opts.title || name.replace(/_/g, " "),
    el("span", { class: "n", text: String(objects.length) })));
  const row = el("div", { class: "cards" });
  if (!objects.length) row.append(el("div", { class: "empty", text: "empty" }));
  for (const o of objects) {
    const sel = app.selected && app.selected.token === token && app.selected.ref === o.ref;
    const card = el("div", { class: "card" + (sel ? " selected" : ""), "data-ref": o.ref,
      "data-name": o.visible ? (o.name || "") : "", title: o.visible ? (o.card || "") : "a card",
      onclick: () => select(token, o.ref) });
    card.append(drawObject(o));
    row.append(card);
  }
  box.append(row);
  return box;
}

function renderPanel(panel) {
  const { data, token } = panel;
  const rs = data.ruleset;
  const v = data.view;
  const players = data.players;
  const me = players.includes(data.seat) ? data.seat : players[0];
  const order = [...players.filter((p) => p !== me), me];
  const byZone = new Map();
  for (const z of v.zones) byZone.set(`${z.owner || ""}:${z.zone}`, z.objects);
  const shared = new Set(rs.shared_zones);
  const wrap = el("div", { class: "board" });
  const rank = (z) => { const i = ZONE_ORDER.indexOf(z); return i < 0 ? ZONE_ORDER.length : i; };
  const owned = rs.zones.filter((z) => !shared.has(z) && z !== rs.play_zone)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const areaFor = (p) => {
    const area = el("div", { class: "player-area" + (p === me ? " me" : "") });
    area.append(el("div", { class: "player-name" }, el("b", { text: p }),
      v.active === p ? el("span", { class: "active", text: "● active" }) : null));
    let play;
    if (shared.has(rs.play_zone)) {
      play = (byZone.get(`:${rs.play_zone}`) || []).filter((o) => o.controller === p);
    } else {
      play = byZone.get(`${p}:${rs.play_zone}`) || [];
    }
    const playBox = zoneBox(rs.play_zone, play, token, { play: true });
    const zones = el("div", { class: "zones" });
    for (const z of owned) {
      const objs = byZone.get(`${p}:${z}`) || [];
      if (!objs.length && !["hand", "library", "deck", "main_deck", "graveyard", "site"]
        .includes(z)) continue;
      zones.append(zoneBox(z, objs, token, {}));
    }
    if (p === me) area.append(playBox, zones);
    else area.append(zones, playBox);
    return area;
  };
  for (const p of order.slice(0, -1)) wrap.append(areaFor(p));
  const middle = el("div", { class: "middle" });
  for (const z of rs.shared_zones) {
    if (z === rs.play_zone) continue;
    const objs = byZone.get(`:${z}`) || [];
    if (!objs.length && z !== rs.stack_zone) continue;
    middle.append(zoneBox(z, objs, token, { shared: true }));
  }
  wrap.append(middle);
  wrap.append(areaFor(me));

  const head = el("div", { class: "panel-head" },
    el("span", { class: `seat-badge ${data.seat}`, text: data.seat }),
    el("span", { class: "meta",
      text: `${rs.title || rs.name} · turn ${v.turn}${v.pregame ? " · pregame" : ""}` }));
  const log = el("div", { class: "log", "data-seat": data.seat },
    el("h3", { text: `log · as ${data.seat} sees it` }));
  for (const entry of data.log) log.append(logEntry(entry));
  if (!data.log.length) log.append(el("div", { class: "empty", text: "no actions yet" }));
  if (data.broken) log.append(el("div", { class: "status err", text: data.broken }));
  const node = el("div", { class: "panel", "data-seat": data.seat }, head, wrap, log);
  if (panel.el) panel.el.replaceWith(node);
  panel.el = node;
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
  return node;
}

function logEntry(e) {
  const node = el("div", { class: "log-entry" },
    el("span", { class: "who", text: `#${e.n} ${e.actor}` }), " ",
    el("span", { class: "verb", text: e.verb.replace(/_/g, " ") }),
    e.result ? el("span", { class: `res-${e.result}`, text: ` → ${e.result.replace(/_/g, " ")}` })
      : null);
  for (const ev of e.events || []) {
    const bits = [ev.kind];
    if (ev.card) bits.push(ev.card);
    else if (ev.kind !== "end_turn" && ev.kind !== "shuffle") bits.push("a card");
    if (ev.from || ev.to) bits.push(`${ev.from || "?"} → ${ev.to || "?"}`);
    if (ev.player) bits.push(`(${ev.player})`);
    node.append(el("div", { class: "ev", text: bits.join(" ") }));
  }
  for (const r of e.rulings || []) {
    node.append(el("div", { class: "ruling" }, el("b", { text: r.rule }), ` ${r.reason}`));
  }
  if (e.withheld) node.append(el("div", { class: "ev", text: "(details withheld: a card you can't see)" }));
  return node;
}

// --- inspector and actions -----------------------------------------------------------------

function findObject(token, ref) {
  const panel = app.panels.find((p) => p.token === token);
  if (!panel || !panel.data) return null;
  for (const z of panel.data.view.zones) {
    for (const o of z.objects) if (o.ref === ref) return { panel, obj: o };
  }
  return null;
}

function select(token, ref) {
  app.selected = { token, ref };
  for (const p of app.panels) if (p.data) renderPanel(p);
  renderInspector();
}

function describe(o) {
  if (!o) return "?";
  return o.visible ? (o.name || o.card || "a face-down card") : `a card (${o.owner}'s ${o.zone})`;
}

async function act(token, verb, ref, args) {
  status(`${verb.replace(/_/g, " ")}…`, true);
  try {
    const out = await api("POST", `/api/t/${token}/act`, { verb, object: ref, args });
    const last = out.last || {};
    status(`${verb.replace(/_/g, " ")}: ${last.result || "done"}`, true);
    if (verb === "create_token_copy" || verb === "meld") app.selected = null;
    await refreshAll(true);
  } catch (err) {
    status(err.message, false);
  }
}

function renderInspector() {
  const box = $("inspector");
  box.replaceChildren(el("h2", { text: "Object" }));
  const found = app.selected && findObject(app.selected.token, app.selected.ref);
  if (!found) {
    box.append(el("p", { class: "hint", text: "Click a card to see it and act on it." }));
    return;
  }
  const { panel, obj: o } = found;
  const data = panel.data;
  const seat = data.seat;
  box.append(el("div", { class: "facts" },
    el("b", { text: describe(o) }), el("br"),
    `${o.zone} · owner ${o.owner} · controller ${o.controller}`, el("br"),
    `seen as ${seat}${o.visible ? "" : " (hidden)"}${o.face && o.face !== "none" ? ` · face ${o.face}` : ""}`));
  // Both faces, where the seat may look.
  const faces = el("div", { class: "faces" });
  if (o.visible && o.printed && o.printed.length) {
    o.printed.forEach((f, i) => {
      const cap = o.printed.length > 1 ? (i === 0 ? "front / left" : "back / right") : "printed";
      faces.append(el("div", { class: "face-big" }, drawFace(f, []),
        el("div", { class: "face-cap", text: cap })));
    });
  } else {
    faces.append(el("div", { class: "face-big" }, drawObject(o),
      el("div", { class: "face-cap", text: "you can't identify this card" })));
  }
  box.append(faces);
  const mayAct = seat === "judge" ||
    (data.players.includes(seat) && o.visible && (o.owner === seat || o.controller === seat));
  if (!mayAct) {
    box.append(el("p", { class: "hint", text: seat === "spectator"
      ? "Spectators watch; they don't act."
      : "You may act only on objects you own or control and can see." }));
    return;
  }
  box.append(actionControls(panel, o));
}

function actionControls(panel, o) {
  const { token, data } = panel;
  const rs = data.ruleset;
  const verbs = new Set(rs.verbs);
  const acts = el("div", { class: "acts" });
  const others = [];
  for (const z of data.view.zones) for (const x of z.objects) if (x.ref !== o.ref) others.push(x);
  const otherSelect = (id) => el("select", { id, "aria-label": "other object" },
    others.map((x) => option(x.ref, `${describe(x)} · ${x.zone}`)));
  const faceSelect = (id) => el("select", { id, "aria-label": "face" },
    option("", "default face"), ["front", "back", "left", "right", "both"].map((f) => option(f)));

  const simple = el("div", { class: "simple" });
  for (const v of ["transform", "flip", "awaken", "transcend", "turn_face_down", "turn_face_up",
    "resolve", "mark", "reveal", "create_token_copy", "examine"]) {
    if (!verbs.has(v)) continue;
    if (v === "resolve" && o.zone !== rs.stack_zone) continue;
    if (v === "turn_face_up" && !o.face_down) continue;
    if (v === "turn_face_down" && o.face_down) continue;
    const args = v === "examine" && data.seat === "judge" ? { player: o.owner } : {};
    simple.append(el("button", { type: "button", "data-verb": v,
      onclick: () => act(token, v, o.ref, args), text: v.replace(/_/g, " ") }));
  }
  acts.append(simple);

  if (verbs.has("move")) {
    const zone = el("select", { id: "move-zone", "aria-label": "zone" },
      rs.zones.map((z) => option(z, z, z === o.zone)));
    const face = faceSelect("move-face");
    const fd = el("input", { type: "checkbox", id: "move-facedown" });
    acts.append(el("fieldset", {}, el("legend", { text: "move" }),
      el("div", { class: "row" }, zone, face),
      el("div", { class: "row" }, el("label", { class: "check" }, fd, "face down"),
        el("button", { type: "button", "data-verb": "move", text: "Move",
          onclick: () => act(token, "move", o.ref, { to: zone.value, face: face.value || null,
            face_down: fd.checked ? true : null }) }))));
  }
  if (verbs.has("cast") || verbs.has("play")) {
    const face = faceSelect("cast-face");
    const fd = el("input", { type: "checkbox", id: "cast-facedown" });
    const row = el("div", { class: "row" }, face, el("label", { class: "check" }, fd, "face down"));
    const buttons = el("div", { class: "row" });
    for (const v of ["cast", "play"]) {
      if (verbs.has(v)) {
        buttons.append(el("button", { type: "button", "data-verb": v, text: v,
          onclick: () => act(token, v, o.ref, { face: face.value || null,
            face_down: fd.checked }) }));
      }
    }
    acts.append(el("fieldset", {}, el("legend", { text: "cast / play with a face" }), row, buttons));
  }
  const pairs = [["become_copy", "of", "become a copy of"], ["meld", "with", "meld with"],
    ["hit", "source", "hit by"], ["cross_test", "target", "cross test with"]];
  for (const [v, key, legend] of pairs) {
    if (!verbs.has(v) || !others.length) continue;
    const sel = otherSelect(`${v}-other`);
    acts.append(el("fieldset", {}, el("legend", { text: legend }),
      el("div", { class: "row" }, sel, el("button", { type: "button", "data-verb": v,
        text: "Go", onclick: () => act(token, v, o.ref, { [key]: sel.value }) }))));
  }
  if (verbs.has("apply_effect")) {
    const p = el("input", { type: "number", value: "1", "aria-label": "power change" });
    const t = el("input", { type: "number", value: "1", "aria-label": "toughness change" });
    const forbid = el("select", { "aria-label": "forbid" }, option("", "no prohibition"),
      ["transform", "move", "turn_face_up", "turn_face_down", "cross_test"].map((x) =>
        option(x, `can't ${x.replace(/_/g, " ")}`)));
    const lose = el("input", { type: "checkbox" });
    const eot = el("input", { type: "checkbox", checked: true });
    acts.append(el("fieldset", {}, el("legend", { text: "apply an effect" }),
      el("div", { class: "row" }, "power", p, "toughness", t),
      el("div", { class: "row" }, forbid, el("label", { class: "check" }, lose, "lose abilities")),
      el("div", { class: "row" }, el("label", { class: "check" }, eot, "until end of turn"),
        el("button", { type: "button", "data-verb": "apply_effect", text: "Apply",
          onclick: () => {
            const modify = {};
            const dp = parseInt(p.value, 10);
            const dt = parseInt(t.value, 10);
            if (dp) modify.power = dp;
            if (dt) modify.toughness = dt;
            if (forbid.value) modify.forbid = [forbid.value];
            if (lose.checked) modify.lose_all_abilities = true;
            act(token, "apply_effect", o.ref, { modify,
              until: eot.checked ? "end_of_turn" : null });
          } }))));
  }
  const small = el("div", { class: "row" });
  if (verbs.has("add_counters")) {
    const name = el("input", { value: "+1/+1", size: 6, "aria-label": "counter" });
    small.append(name, el("button", { type: "button", "data-verb": "add_counters",
      text: "add counter", onclick: () => act(token, "add_counters", o.ref,
        { counter: name.value, count: 1 }) }));
  }
  if (verbs.has("change_control")) {
    const who = el("select", { "aria-label": "new controller" },
      data.players.map((p) => option(p, p, p !== o.controller)));
    small.append(who, el("button", { type: "button", "data-verb": "change_control",
      text: "give control", onclick: () => act(token, "change_control", o.ref, { to: who.value }) }));
  }
  acts.append(small);
  if (data.seat === "judge" && (data.labels || []).includes(o.ref)) {
    acts.append(el("div", { class: "row" }, el("button", { type: "button", id: "btn-remove",
      text: "remove from setup", onclick: async () => {
        try {
          await api("POST", `/api/t/${token}/remove`, { object: o.ref });
          app.selected = null;
          status("removed", true);
          await refreshAll(true);
        } catch (err) { status(err.message, false); }
      } })));
  }
  return acts;
}

// --- the side bar: setup, table verbs, seat links ------------------------------------------

function keyPanel() {
  return app.panels.find((p) => p.data && p.data.seat === "judge") ||
    app.panels.find((p) => p.token === app.key) || app.panels[0];
}

function judgeData() {
  return app.judge || null;
}

function renderSide() {
  const judge = judgeData();
  document.body.classList.toggle("judge", !!judge);
  const main = keyPanel();
  if (!main || !main.data) return;
  const data = judge || main.data;
  const rs = data.ruleset;
  $("table-title").textContent = data.title || `${rs.title || rs.name}`;
  const owner = $("card-owner");
  if (owner.options.length !== data.players.length) {
    owner.replaceChildren(...data.players.map((p) => option(p)));
    $("card-zone").replaceChildren(...rs.zones.map((z) => option(z, z, z === rs.play_zone)));
  }
  const shuffle = $("shuffle-zone");
  const actor = app.judge ? "judge" : main.data.seat;
  const who = actor === "judge" ? data.players : data.players.filter((p) => p === actor);
  const opts = [];
  for (const p of who) for (const z of rs.zones) {
    if (!rs.shared_zones.includes(z)) opts.push(option(`${p}:${z}`, `${p} · ${z}`,
      z === "library" || z === "deck" || z === "main_deck"));
  }
  if (shuffle.options.length !== opts.length) shuffle.replaceChildren(...opts);
  $("btn-start-game").hidden = !(data.view && data.view.pregame);
  // seat switch and links (the judge knows every seat's token)
  const sw = $("seat-switch");
  sw.replaceChildren();
  if (judge) {
    const seats = judge.seats;
    const shown = app.panels.map((p) => p.token);
    const add = (label, tokens) => {
      const on = tokens.length === shown.length && tokens.every((t, i) => t === shown[i]);
      sw.append(el("button", { type: "button", class: on ? "on" : "", "data-view": label,
        text: label, onclick: () => setHash(app.key, tokens) }));
    };
    add("judge", [seats.judge]);
    for (const p of data.players) add(p, [seats[p]]);
    add("spectator", [seats.spectator]);
    if (data.players.length >= 2) {
      add(`${data.players[0]} | ${data.players[1]}`, [seats[data.players[0]], seats[data.players[1]]]);
    }
    add("judge | spectator", [seats.judge, seats.spectator]);
    const links = $("seat-links");
    links.replaceChildren(el("div", { class: "hint", text: "Seat links (each carries its secret):" }));
    for (const [seat, tok] of Object.entries(seats)) {
      if (seat === "judge") continue;
      const url = `${location.origin}/#k=${tok}`;
      links.append(el("div", {}, `${seat}: `, el("a", { href: url, target: "_blank",
        rel: "noopener", "data-seat-link": seat, text: url })));
    }
  }
}

async function refreshAll(force) {
  const { key, shown } = readHash();
  if (!key) return;
  if (app.key !== key) { app.key = key; app.judge = null; }
  const tokens = shown.length ? shown : [key];
  if (app.panels.map((p) => p.token).join() !== tokens.join()) {
    for (const p of app.panels) if (p.el) p.el.remove();
    app.panels = tokens.map((token) => ({ token, data: null, el: null }));
    force = true;
  }
  try {
    const keyState = await fetchSeat(key, force ? null : app.keyVersion);
    if (keyState && !keyState.unchanged) {
      app.keyVersion = keyState.version;
      app.judge = keyState.seat === "judge" ? keyState : null;
      force = true;
    }
    if (!force) return;
    const container = $("panels");
    for (const panel of app.panels) {
      panel.data = panel.token === key && keyState && !keyState.unchanged
        ? keyState : await fetchSeat(panel.token, null);
      const node = renderPanel(panel);
      if (!node.isConnected) container.append(node);
    }
    renderSide();
    renderInspector();
  } catch (err) {
    status(err.message, false);
  }
}

async function fetchSeat(token, since) {
  const q = since === null || since === undefined ? "" : `?since=${since}`;
  return api("GET", `/api/t/${token}${q}`);
}

// --- wiring ---------------------------------------------------------------------------------

function showHome(on) {
  $("home").hidden = !on;
  $("table").hidden = on;
}

async function start() {
  try {
    app.rulesets = await api("GET", "/api/rulesets");
  } catch (err) {
    status(err.message, false);
  }
  $("new-ruleset").replaceChildren(...app.rulesets.map((r) =>
    option(r.name, `${r.name} — ${r.title}`)));
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const out = await api("POST", "/api/tables", { ruleset: $("new-ruleset").value,
        title: $("new-title").value });
      setHash(out.seats.judge, null);
    } catch (err) { status(err.message, false); }
  });
  $("open-scenario").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = $("scenario-file").files[0];
    if (!file) return;
    try {
      const out = await api("POST", "/api/tables/import", { scenario: await file.text() });
      setHash(out.seats.judge, null);
    } catch (err) { status(err.message, false); alert(err.message); }
  });
  $("btn-home").addEventListener("click", () => { location.hash = ""; });
  $("btn-export").addEventListener("click", async () => {
    try {
      const text = await api("GET", `/api/t/${app.key}/export`);
      const url = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
      const a = el("a", { href: url, download: `obverse-${(app.judge || {}).game || "table"}.yaml` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 2000);
      status("exported", true);
    } catch (err) { status(err.message, false); }
  });
  $("btn-undo").addEventListener("click", async () => {
    try {
      await api("POST", `/api/t/${app.key}/undo`, {});
      status("undone", true);
      await refreshAll(true);
    } catch (err) { status(err.message, false); }
  });
  const actor = () => (app.judge ? app.key : (keyPanel() || {}).token);
  $("btn-end-turn").addEventListener("click", () => act(actor(), "end_turn", null, {}));
  $("btn-start-game").addEventListener("click", () => act(actor(), "start_game", null, {}));
  $("btn-shuffle").addEventListener("click", () => {
    const [player, zone] = $("shuffle-zone").value.split(":");
    act(actor(), "shuffle", null, { player, zone });
  });
  let suggestTimer = null;
  $("card-name").addEventListener("input", () => {
    clearTimeout(suggestTimer);
    suggestTimer = setTimeout(async () => {
      const data = app.judge;
      if (!data) return;
      const q = encodeURIComponent($("card-name").value);
      try {
        const out = await api("GET", `/api/cards?ruleset=${encodeURIComponent(data.ruleset.name)}&q=${q}`);
        $("card-names").replaceChildren(...out.names.map((n) => option(n)));
      } catch (err) { status(err.message, false); }
    }, 120);
  });
  $("add-card").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    status("adding…", true);
    try {
      const out = await api("POST", `/api/t/${app.key}/setup`, {
        card: $("card-name").value, owner: $("card-owner").value, zone: $("card-zone").value,
        face: $("card-face").value || null, face_down: $("card-facedown").checked,
        token: $("card-token").checked });
      status(`added ${out.label}`, true);
      $("card-name").value = "";
      await refreshAll(true);
    } catch (err) { status(err.message, false); }
  });
  window.addEventListener("hashchange", route);
  route();
}

function route() {
  const { key } = readHash();
  clearInterval(app.timer);
  if (!key) {
    showHome(true);
    return;
  }
  showHome(false);
  app.selected = null;
  refreshAll(true);
  app.timer = setInterval(() => refreshAll(false), 2000);
}

document.addEventListener("DOMContentLoaded", start);
