// obverse sandbox: cards drawn as HTML (readable text: never under 11 px on the board, 14 px
// in the inspector). Colours go through CSS custom properties: the CSP allows no inline
// style attributes, but the CSSOM is fine.
"use strict";

const Cards = (() => {
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

  const FRAME = { W: ["#f4efdc", "#c9bf98"], U: ["#4b93d1", "#0d4f86"], B: ["#6d6168", "#29232a"],
    R: ["#e0654e", "#8e1f15"], G: ["#3f9f66", "#12572f"] };
  const ELEMENT = { fire: ["#e0613d", "#8c2412"], water: ["#3a8fd6", "#174f86"],
    wind: ["#57b98a", "#1d6a47"], norm: ["#b7aa8e", "#6d634f"], arcane: ["#9d6ad6", "#4e2a82"],
    crux: ["#d6b04a", "#7d6112"], luxem: ["#f0d97a", "#9b8128"], umbra: ["#5d5470", "#26203a"],
    astra: ["#7fa7e8", "#34518a"], exia: ["#cf5e9a", "#7a2453"], neos: ["#8ad0d0", "#2f7373"],
    tera: ["#a4874f", "#5a4520"] };
  const CLASS = { Safe: ["#4faa6f", "#1f5c36"], Euclid: ["#d8b23e", "#7c6010"],
    Keter: ["#cf3f35", "#6e1510"], Thaumiel: ["#7b6ad8", "#332780"],
    Neutralized: ["#9a9a9a", "#555555"] };
  const PITCH = { 1: ["#d9413a", "#7e1712"], 2: ["#e6c64a", "#826812"], 3: ["#3c82d4", "#173f7a"] };

  function frameColors(f) {
    let colors = f.colors || [];
    const cost = typeof f.cost === "string" ? f.cost : f.mana_cost;
    if (!colors.length && typeof cost === "string") {
      colors = [...new Set((cost.match(/[WUBRG]/g) || []))];
    }
    if (colors.length > 1) return ["#e0c25e", "#8a6d14"];
    if (colors.length === 1 && FRAME[colors[0]]) return FRAME[colors[0]];
    const elem = typeof f.element === "string" ? f.element.toLowerCase() : "";
    if (ELEMENT[elem]) return ELEMENT[elem];
    if (f.object_class && CLASS[f.object_class]) return CLASS[f.object_class];
    if (f.pitch && PITCH[f.pitch]) return PITCH[f.pitch];
    return ["#a7adb3", "#5f666d"];
  }

  function costText(f) {
    const cost = f.cost !== undefined && f.cost !== null ? f.cost : f.mana_cost;
    if (cost === null || cost === undefined || cost === "") return "";
    if (typeof cost !== "string") return String(cost);
    const syms = (cost.match(/\{[^}]+\}/g) || []).map((s) => s.slice(1, -1));
    return syms.length ? syms.join("·") : cost;
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

  function paint(node, f) {
    const [light, dark] = frameColors(f);
    node.style.setProperty("--c1", light);
    node.style.setProperty("--c2", dark);
    return node;
  }

  // One face's frame: name and cost, type line, text, corner and stats.
  function faceBody(f, text, cls) {
    const stat = statLine(f);
    const corner = cornerLine(f);
    return paint(el("div", { class: `c-face ${cls || ""}` },
      el("div", { class: "c-head" }, el("span", { class: "c-name", text: f.name || "" }),
        costText(f) ? el("span", { class: "c-cost", text: costText(f) }) : null),
      el("div", { class: "c-type", text: typeLine(f) }),
      el("div", { class: "c-text", text: text || (f.abilities || []).join(", ") }),
      (stat || corner) ? el("div", { class: "c-foot" },
        el("span", { class: "c-corner", text: corner }),
        stat ? el("span", { class: "c-stat", text: stat }) : null) : null), f);
  }

  // Which printed faces are up: indexes into o.printed.
  function upFaces(o) {
    const n = (o.printed || []).length;
    if (!o.visible || o.face_down || !n) return [];
    if (o.face === "both") return [...Array(n).keys()];
    if (o.face === "back" || o.face === "right") return [Math.min(1, n - 1)];
    return [0];
  }

  function activeText(o) {
    const printed = o.printed || [];
    if (!printed.length) return "";
    if (o.face === "both") return printed.map((f) => f.text || "").filter(Boolean).join("\n//\n");
    const [i] = upFaces(o);
    return (printed[i === undefined ? 0 : i] || {}).text || "";
  }

  // The badge a back face gets, in each game's words.
  function backBadge(o, game) {
    if (!o.visible || o.face_down || o.face !== "back") return null;
    if (game === "mtg") return o.transformed ? "transformed" : o.flipped ? "flipped" : "back face";
    if (game === "fab") {
      const front = (o.printed || [])[0] || {};
      const transcends = (front.abilities || []).some((a) => /transcend/i.test(a));
      return transcends ? "transcended" : "back face";
    }
    return "back face";
  }

  function marksOf(o, game) {
    const marks = [];
    const back = backBadge(o, game);
    if (back) marks.push(["back", back]);
    if (o.transformed && back !== "transformed") marks.push(["status", "transformed"]);
    if (o.flipped && back !== "flipped") marks.push(["status", "flipped"]);
    if (o.is_copy) marks.push(["status", "copy"]);
    if (o.is_token) marks.push(["status", "token"]);
    if (o.face_down) marks.push(["status", "face down"]);
    if (o.marked) marks.push(["status", "marked"]);
    if (o.tapped) marks.push(["status", "tapped"]);
    if (o.rested) marks.push(["status", "rested"]);
    for (const [k, v] of Object.entries(o.counters || {})) marks.push(["counter", `${k} ×${v}`]);
    if (o.hidden_from && o.hidden_from.length) {
      marks.push(["hidden", `hidden ×${o.hidden_from.length}`, `hidden from ${o.hidden_from.join(", ")}`]);
    }
    return marks;
  }

  function badges(marks) {
    if (!marks.length) return null;
    return el("div", { class: "c-badges" }, marks.map(([kind, text, title]) =>
      el("span", { class: `badge b-${kind}`, text, title: title || null })));
  }

  function back(caption, stat) {
    return el("div", { class: "c-back" },
      el("div", { class: "c-back-art" }, el("span", { class: "c-back-logo", text: "◐" })),
      caption ? el("div", { class: "c-back-cap", text: caption }) : null,
      el("div", { class: "c-back-word", text: "OBVERSE" }),
      stat ? el("div", { class: "c-stat c-back-stat", text: stat }) : null);
  }

  // A flip card as printed: the second half upside down; with that half up (MTG flipped,
  // a resolved FaB invocation or Construct: its back face), the whole card turns, so the
  // face that counts is the one upright.
  function flipCard(o) {
    const [a, b] = o.printed;
    const turned = o.flipped || (!o.face_down && (o.face === "back" || o.face === "right"));
    return el("div", { class: "c-flip" + (turned ? " turned" : "") },
      faceBody(a, a.text, "half"), faceBody(b, b.text, "half upside"));
  }

  // The object as its seat sees it on the board.
  function board(o, game) {
    const marks = marksOf(o, game);
    let body;
    if (!o.visible) body = back(null, statLine(o));
    else if (o.face_down) body = back(o.card, statLine(o));
    else if (o.layout === "flip" && (o.printed || []).length === 2) body = flipCard(o);
    else body = faceBody(o, activeText(o));
    return [body, badges(marks)];
  }

  // A printed face in the inspector, large; ``up`` marks the face that is up.
  function big(f, caption, up) {
    return el("figure", { class: "face-big" + (up ? " up" : ""), "data-face": f.name || "" },
      faceBody(f, f.text, "large"),
      el("figcaption", { class: "face-cap" }, up ? el("b", { text: "face up · " }) : null, caption));
  }

  return { el, board, big, back, faceBody, upFaces, backBadge, marksOf, statLine, typeLine, costText };
})();
