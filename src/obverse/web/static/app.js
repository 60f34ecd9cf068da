// obverse sandbox: plain JS, no build step. Every board is drawn from the seat's own view,
// which the server filtered; this page never gets anything its seats may not know. The page
// follows the table by server-sent events and fetches only the log entries it lacks.
"use strict";

const $ = (id) => document.getElementById(id);
const el = Cards.el;

const app = {
  key: null,         // the token this page holds (its own seat)
  keyVersion: null,  // the version of the key seat last drawn
  judge: null,       // the judge's state, when the key is the judge's
  panels: [],        // the panels shown: [{token, data, log, offers, el}]
  cache: new Map(),  // every seat followed, by token (its log is kept between views)
  rulesets: [],
  selected: null,    // {token, ref}
  source: null,      // the EventSource
  showRules: false,  // offers show the rule that allows each
  inspected: null,   // the inspector's last answer: {key, data}
  tab: null,         // on a phone, the one panel shown of several
  busy: false,
  again: false,
};

function option(value, label, selected) {
  return el("option", { value, selected: selected || null, text: label === undefined ? value : label });
}

// --- messages, inline (never alert) ----------------------------------------------------------

let noticeTimer = null;

function notify(message, kind) {
  const box = $("notice");
  clearTimeout(noticeTimer);
  if (!message) { box.hidden = true; return; }
  box.className = `notice ${kind || "ok"}`;
  box.setAttribute("role", kind === "err" ? "alert" : "status");
  $("notice-text").textContent = message;
  box.hidden = false;
  if (kind !== "err") noticeTimer = setTimeout(() => { box.hidden = true; }, 3500);
}

const LEADS = { 400: "That request was not understood", 403: "Not allowed",
  404: "Not found", 409: "Refused", 413: "Too large", 415: "Not accepted",
  422: "The rules engine refused it" };

class ApiError extends Error {}

function friendly(status, message) {
  const lead = LEADS[status] || "Something went wrong";
  const text = (message || "").replace(/^\d{3}:\s*/, "");
  return text ? `${lead}: ${text}` : `${lead}.`;
}

// --- the API ------------------------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError("The sandbox server can't be reached; is `obverse serve` running?");
  }
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new ApiError(friendly(res.status, data && data.error));
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

// --- the board -----------------------------------------------------------------------------

const ZONE_ORDER = ["hand", "arsenal", "library", "deck", "main_deck", "material_deck", "memory",
  "graveyard", "pitch", "exile", "banishment", "banished"];
const PILE_ZONES = new Set(["library", "deck", "main_deck", "material_deck"]);
const SMALL_ZONES = new Set(["graveyard", "exile", "banishment", "banished", "pitch",
  "decommissioned", "memory", "command", "out_of_game"]);
const ALWAYS_SHOWN = ["hand", "library", "deck", "main_deck", "graveyard", "site"];

function cardNode(o, token, game) {
  const sel = app.selected && app.selected.token === token && app.selected.ref === o.ref;
  const node = el("div", { role: "button", tabindex: "0", class: "card" + (sel ? " selected" : ""),
    "data-ref": o.ref, "data-name": o.visible ? (o.name || "") : "",
    title: o.visible ? (o.card || "") : "a card",
    "aria-label": o.visible ? (o.name || o.card || "a face-down card") : "a hidden card",
    onclick: () => select(token, o.ref),
    onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(token, o.ref); } } });
  node.append(...Cards.board(o, game).filter(Boolean));
  return node;
}

function zoneBox(name, objects, token, game, opts) {
  const cls = ["zone"];
  if (opts.play) cls.push("play");
  else if (PILE_ZONES.has(name) && objects.length > 1) cls.push("pile");
  else if (SMALL_ZONES.has(name)) cls.push("small");
  if (opts.shared) cls.push("shared");
  const box = el("div", { class: cls.join(" "), "data-zone": name });
  box.append(el("div", { class: "zone-title" }, name.replace(/_/g, " "),
    el("span", { class: "n", text: String(objects.length) })));
  const row = el("div", { class: "cards" });
  if (!objects.length) row.append(el("div", { class: "empty", text: "empty" }));
  for (const o of objects) row.append(cardNode(o, token, game));
  box.append(row);
  return box;
}

function playerArea(panel, p, me, byZone) {
  const { data, token } = panel;
  const rs = data.ruleset;
  const v = data.view;
  const shared = new Set(rs.shared_zones);
  const rank = (z) => { const i = ZONE_ORDER.indexOf(z); return i < 0 ? ZONE_ORDER.length : i; };
  const owned = rs.zones.filter((z) => !shared.has(z) && z !== rs.play_zone)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const area = el("div", { class: "player-area" + (p === me ? " me" : "") });
  area.append(el("div", { class: "player-name" }, el("b", { text: p }),
    v.active === p ? el("span", { class: "active", text: "● active" }) : null));
  const play = shared.has(rs.play_zone)
    ? (byZone.get(`:${rs.play_zone}`) || []).filter((o) => o.controller === p)
    : byZone.get(`${p}:${rs.play_zone}`) || [];
  const playBox = zoneBox(rs.play_zone, play, token, rs.game, { play: true });
  const zones = el("div", { class: "zones" });
  for (const z of owned) {
    const objs = byZone.get(`${p}:${z}`) || [];
    if (!objs.length && !ALWAYS_SHOWN.includes(z)) continue;
    zones.append(zoneBox(z, objs, token, rs.game, {}));
  }
  if (p === me) area.append(playBox, zones);
  else area.append(zones, playBox);
  return area;
}

function renderPanel(panel) {
  const { data, token } = panel;
  const rs = data.ruleset;
  const v = data.view;
  const me = data.players.includes(data.seat) ? data.seat : data.players[0];
  const byZone = new Map();
  for (const z of v.zones) byZone.set(`${z.owner || ""}:${z.zone}`, z.objects);
  const board = el("div", { class: "board" });
  for (const p of data.players.filter((x) => x !== me)) board.append(playerArea(panel, p, me, byZone));
  const middle = el("div", { class: "middle" });
  for (const z of rs.shared_zones) {
    if (z === rs.play_zone) continue;
    const objs = byZone.get(`:${z}`) || [];
    if (!objs.length && z !== rs.stack_zone) continue;
    middle.append(zoneBox(z, objs, token, rs.game, { shared: true }));
  }
  board.append(middle, playerArea(panel, me, me, byZone));
  const head = el("div", { class: "panel-head" },
    el("span", { class: `seat-badge ${data.seat}`, text: data.seat }),
    el("span", { class: "meta",
      text: `${rs.title || rs.name} · turn ${v.turn}${v.pregame ? " · pregame" : ""}` }));
  const log = el("div", { class: "log", "data-seat": data.seat },
    el("h3", { text: `log · as ${data.seat} sees it` }));
  for (const entry of panel.log) log.append(logEntry(entry));
  if (!panel.log.length) log.append(el("div", { class: "empty", text: "no actions yet" }));
  if (data.broken) log.append(el("div", { class: "notice err inline", text: data.broken }));
  const node = el("section", { class: "panel", "data-seat": data.seat }, head, board, log);
  if (panel.el) panel.el.replaceWith(node);
  panel.el = node;
  requestAnimationFrame(() => { log.scrollTop = log.scrollHeight; });
  return node;
}

// Several seats side by side don't fit a phone: there they are tabs, one panel at a time
// (the tab bar is hidden on a wider screen, where the panels stand side by side).
function renderTabs() {
  const container = $("panels");
  let bar = $("panel-tabs");
  if (app.panels.length < 2) {
    if (bar) bar.remove();
    for (const p of app.panels) if (p.el) p.el.classList.remove("tab-off");
    return;
  }
  if (!bar) {
    bar = el("nav", { id: "panel-tabs", class: "panel-tabs", "aria-label": "seat shown" });
    container.prepend(bar);
  }
  if (!app.panels.some((p) => p.token === app.tab)) app.tab = app.panels[0].token;
  bar.replaceChildren(...app.panels.map((p) => el("button", { type: "button",
    class: p.token === app.tab ? "on" : "", "data-tab": p.data ? p.data.seat : "",
    text: p.data ? p.data.seat : "…", onclick: () => { app.tab = p.token; renderTabs(); } })));
  for (const p of app.panels) if (p.el) p.el.classList.toggle("tab-off", p.token !== app.tab);
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
  for (const p of app.panels) {
    if (!p.el) continue;
    for (const c of p.el.querySelectorAll(".card.selected")) c.classList.remove("selected");
    if (p.token === token) {
      for (const c of p.el.querySelectorAll(".card")) {
        if (c.dataset.ref === ref) c.classList.add("selected");
      }
    }
  }
  renderInspector();
  if (window.matchMedia("(max-width: 700px)").matches) {
    $("inspector").scrollIntoView({ behavior: "smooth", block: "start" });
  }
}

function describe(o) {
  if (!o) return "?";
  return o.visible ? (o.name || o.card || "a face-down card") : `a card (${o.owner}'s ${o.zone})`;
}

// The kernel's label for an offer (Ruleset.describe); the verb and its arguments otherwise.
function offerLabel(a) {
  if (a.label) return a.label;
  const verb = a.verb.replace(/_/g, " ");
  const args = Object.entries(a.args || {}).filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => (k === "to" ? `→ ${v}` : `${k.replace(/_/g, " ")} ${Array.isArray(v) ? v.join(", ") : v}`));
  return args.length ? `${verb} ${args.join(" ")}` : verb;
}

// An offer with a free target (becoming a copy of, melding with ...) lists its choices once:
// one button per choice.
function expandOffer(a) {
  if (!a.targets) return [a];
  const [[key, choices]] = Object.entries(a.targets);
  // Each choice's label is the kernel's (``choice_labels``, in order); without them, the first
  // choice's is ``label`` and the others say the verb and args.
  const labels = a.choice_labels || [];
  return choices.map((c, i) => ({ ...a, args: { ...(a.args || {}), [key]: c }, targets: undefined,
    choice_labels: undefined, label: labels[i] || (choices.length > 1 ? undefined : a.label) }));
}

function offerButton(token, a) {
  return el("button", { type: "button", class: "offer", "data-verb": a.verb,
    "data-group": a.group || "main", "data-rule": a.rule || null,
    onclick: () => act(token, a.verb, a.object, a.args || {}) },
    el("span", { class: "label", text: offerLabel(a) }),
    a.rule ? el("small", { class: "rule", text: ` ${a.rule}` }) : null);
}

const GROUPS = [["main", null], ["move", "Move to another zone"], ["more", "More: copies, counters, control, looking"]];

// Offers grouped, the card's own actions (the likely ones) first and open; zone moves and
// the judge's tools folded under them. The rule behind each is one switch away.
function offerGroups(token, offers) {
  const box = el("div", { class: "offer-groups" });
  const main = offers.filter((a) => (a.group || "main") === "main");
  for (const [name, title] of GROUPS) {
    const mine = offers.filter((a) => (a.group || "main") === name);
    if (!mine.length) continue;
    const row = el("div", { class: "offers", "data-group": name }, mine.map((a) => offerButton(token, a)));
    if (!title) { box.append(row); continue; }
    box.append(el("details", { class: "offer-group", "data-group": name, open: !main.length && name === "move" },
      el("summary", { text: `${title} (${mine.length})` }), row));
  }
  const toggle = el("input", { type: "checkbox", id: "show-rules", checked: app.showRules });
  toggle.addEventListener("change", () => {
    app.showRules = toggle.checked;
    document.body.classList.toggle("show-rules", app.showRules);
  });
  box.append(el("label", { class: "check rules-toggle" }, toggle, "show the rule that allows each action"));
  return box;
}

// On a phone the inspector is under the board: after an action, bring the board (the card
// acted on, else its panel) back into view.
function showBoard(token) {
  if (!window.matchMedia("(max-width: 700px)").matches) return;
  const panel = app.panels.find((p) => p.token === token) || app.panels[0];
  if (!panel || !panel.el) return;
  const card = app.selected && app.selected.token === token
    ? panel.el.querySelector(`.card[data-ref="${CSS.escape(app.selected.ref)}"]`) : null;
  (card || panel.el).scrollIntoView({ block: card ? "center" : "start" });
}

async function act(token, verb, ref, args) {
  notify(`${verb.replace(/_/g, " ")}…`, "busy");
  const panel = app.panels.find((p) => p.token === token);
  const q = panel ? logQuery(panel) : "";
  try {
    const out = await api("POST", `/api/t/${token}/act${q}`, { verb, object: ref, args });
    if (panel) {  // the answer carries the state and the new log entries: keep them
      panel.log = out.log_from ? panel.log.slice(0, out.log_from).concat(out.log) : out.log;
      panel.data = out;
      // The stream's news of this very change need not fetch it again.
      if (token === app.key) app.keyVersion = out.version;
    }
    const last = out.last || {};
    notify(`${verb.replace(/_/g, " ")}: ${(last.result || "done").replace(/_/g, " ")}`, "ok");
    if (verb === "create_token_copy" || verb === "meld") app.selected = null;
    await refreshAll(true);
    showBoard(token);
  } catch (err) {
    notify(err.message, "err");
  }
}

// What each badge on a card means, in words a phone can read (the board's badges are short).
const BADGE_TEXT = {
  transformed: "its back face is up: it has the back face's characteristics",
  flipped: "flipped: the other half is up and it has that half's characteristics",
  transcended: "transcended: its back face is up",
  "back face": "its back face is up: it has the back face's characteristics",
  copy: "a copy: its values are copied from another object",
  token: "a token: not a card; it ceases to exist when it leaves play",
  "face down": "face down: whoever can't identify it sees a card back and its public values only",
  marked: "marked",
};

function badgeLines(o, game) {
  return Cards.marksOf(o, game).map(([kind, text, title]) => {
    let why = BADGE_TEXT[text];
    if (kind === "hidden") why = `${title}: they see a card back, never which card it is`;
    else if (kind === "counter") why = `counters on it: ${text}`;
    return el("li", { class: `badge-why b-${kind}` }, el("span", { class: `badge b-${kind}`, text }),
      ` ${why || text}`);
  });
}

function renderInspector() {
  const box = $("inspector");
  box.replaceChildren(el("h2", { text: "Card" }));
  const found = app.selected && findObject(app.selected.token, app.selected.ref);
  if (!found) {
    box.append(el("p", { class: "hint", text: "Tap a card to read it and see what you can do with it." }));
    return;
  }
  const { panel, obj: o } = found;
  const seat = panel.data.seat;
  box.append(el("div", { class: "facts" },
    el("b", { class: "facts-name", text: describe(o) }), el("br"),
    `${o.zone.replace(/_/g, " ")} · owner ${o.owner} · controller ${o.controller}`, el("br"),
    `seen as ${seat}${o.visible ? "" : " (hidden)"}${o.face && o.face !== "none" ? ` · face ${o.face}` : ""}`));
  const badges = badgeLines(o, panel.data.ruleset.game);
  if (badges.length) box.append(el("ul", { class: "badges-why" }, badges));
  const faces = el("div", { class: "faces" });
  const up = Cards.upFaces(o);
  if (o.visible && o.printed && o.printed.length) {
    o.printed.forEach((f, i) => {
      const cap = o.printed.length > 1 ? (i === 0 ? "front" : "back") : "printed";
      faces.append(Cards.big(f, o.printed.length > 1 && o.layout === "split" ? (i ? "right" : "left") : cap,
        up.includes(i)));
    });
  } else {
    faces.append(el("figure", { class: "face-big" }, Cards.back(o.visible ? o.card : null, ""),
      el("figcaption", { class: "face-cap", text: "you can't identify this card" })));
  }
  // The offers first (the likely one on top), then what the card is now and why, then its faces.
  const now = el("div", { class: "now", id: "inspector-now" });
  const offers = (panel.offers || []).filter((a) => a.object === o.ref).flatMap(expandOffer);
  const acts = el("div", { class: "acts" });
  if (offers.length) {
    acts.append(el("h3", { text: "Offered actions" }), offerGroups(panel.token, offers));
  } else {
    acts.append(el("p", { class: "hint", text: seat === "spectator"
      ? "Spectators watch; they don't act."
      : "Nothing is offered to you for this card." }));
  }
  box.append(acts);
  if (offers.length && seat !== "spectator") box.append(moreControls(panel, o));
  box.append(now, faces);
  fillNow(panel, o, now);
}

// The card's characteristics now and the rulings that decided them (the kernel's `why`),
// asked of the server once per seat, card and version.
async function fillNow(panel, o, node) {
  const key = `${panel.token}|${o.ref}|${panel.data.version}`;
  let data = app.inspected && app.inspected.key === key ? app.inspected.data : null;
  if (!data) {
    try {
      data = await api("GET", `/api/t/${panel.token}/inspect?ref=${encodeURIComponent(o.ref)}`);
    } catch (err) {
      node.replaceChildren(el("p", { class: "hint", text: err.message }));
      return;
    }
    app.inspected = { key, data };
  }
  if (!node.isConnected) return;
  const parts = [];
  const c = data.characteristics || {};
  if (data.visible) {
    const type = Cards.typeLine(c);
    const stat = Cards.statLine(c);
    const bits = [];
    if (type) bits.push(type);
    if (stat) bits.push(stat);
    if (data.mana_value !== null && data.mana_value !== undefined) bits.push(`mana value ${data.mana_value}`);
    else if (c.cost !== undefined) bits.push(`cost ${c.cost}`);
    parts.push(el("h3", { text: "Now" }),
      el("p", { class: "now-line" }, el("b", { class: "now-name", text: data.name || "(no name)" }),
        bits.length ? ` · ${bits.join(" · ")}` : ""));
  }
  if (data.rulings && data.rulings.length) {
    parts.push(el("h3", { text: data.visible ? "Why: the rules that decided it" : "Why" }),
      el("ul", { class: "why" }, data.rulings.map((r) =>
        el("li", { class: "ruling" }, el("b", { text: r.rule }), ` ${r.reason}`))));
  }
  node.replaceChildren(...parts);
}

// Actions with free arguments (the sandbox's own tools), folded away under the offers.
function moreControls(panel, o) {
  const { token, data } = panel;
  const rs = data.ruleset;
  const verbs = new Set(rs.verbs);
  const more = el("details", { class: "more" }, el("summary", { text: "More actions" }));
  const others = [];
  for (const z of data.view.zones) for (const x of z.objects) if (x.ref !== o.ref) others.push(x);
  const faceSelect = () => el("select", { "aria-label": "face" },
    option("", "default face"), ["front", "back", "left", "right", "both"].map((f) => option(f)));
  if (verbs.has("move")) {
    const zone = el("select", { "aria-label": "zone" }, rs.zones.map((z) => option(z, z, z === o.zone)));
    const face = faceSelect();
    const fd = el("input", { type: "checkbox" });
    more.append(el("fieldset", {}, el("legend", { text: "move with options" }),
      el("div", { class: "row" }, zone, face,
        el("label", { class: "check" }, fd, "face down"),
        el("button", { type: "button", "data-form-verb": "move", text: "Move",
          onclick: () => act(token, "move", o.ref, { to: zone.value, face: face.value || null,
            face_down: fd.checked ? true : null }) }))));
  }
  if (verbs.has("cast") || verbs.has("play")) {
    const face = faceSelect();
    const fd = el("input", { type: "checkbox" });
    const row = el("div", { class: "row" }, face, el("label", { class: "check" }, fd, "face down"));
    for (const v of ["cast", "play"]) {
      if (verbs.has(v)) {
        row.append(el("button", { type: "button", "data-form-verb": v, text: v,
          onclick: () => act(token, v, o.ref, { face: face.value || null, face_down: fd.checked }) }));
      }
    }
    more.append(el("fieldset", {}, el("legend", { text: "cast / play with a face" }), row));
  }
  const pairs = [["become_copy", "of", "become a copy of"], ["meld", "with", "meld with"],
    ["hit", "source", "hit by"], ["cross_test", "target", "cross test with"]];
  for (const [v, key, legend] of pairs) {
    if (!verbs.has(v) || !others.length) continue;
    const sel = el("select", { "aria-label": "other object" },
      others.map((x) => option(x.ref, `${describe(x)} · ${x.zone}`)));
    more.append(el("fieldset", {}, el("legend", { text: legend }),
      el("div", { class: "row" }, sel, el("button", { type: "button", "data-form-verb": v,
        text: "Go", onclick: () => act(token, v, o.ref, { [key]: sel.value }) }))));
  }
  if (verbs.has("apply_effect")) more.append(effectControls(token, o, rs.verbs));
  const small = el("div", { class: "row" });
  if (verbs.has("add_counters")) {
    const name = el("input", { value: "+1/+1", size: 6, "aria-label": "counter" });
    small.append(name, el("button", { type: "button", "data-form-verb": "add_counters",
      text: "add counter", onclick: () => act(token, "add_counters", o.ref,
        { counter: name.value, count: 1 }) }));
  }
  if (verbs.has("change_control")) {
    const who = el("select", { "aria-label": "new controller" },
      data.players.map((p) => option(p, p, p !== o.controller)));
    small.append(who, el("button", { type: "button", "data-form-verb": "change_control",
      text: "give control", onclick: () => act(token, "change_control", o.ref, { to: who.value }) }));
  }
  more.append(small);
  if (data.seat === "judge" && (data.labels || []).includes(o.ref)) {
    more.append(el("div", { class: "row" }, el("button", { type: "button", id: "btn-remove",
      text: "remove from setup", onclick: () => removeCard(token, o.ref) })));
  }
  return more;
}

function effectControls(token, o, verbs) {
  const p = el("input", { type: "number", value: "1", "aria-label": "power change" });
  const t = el("input", { type: "number", value: "1", "aria-label": "toughness change" });
  const forbid = el("select", { "aria-label": "forbid" }, option("", "no prohibition"),
    verbs.filter((x) => x !== "apply_effect").map((x) =>
      option(x, `can't ${x.replace(/_/g, " ")}`)));
  const lose = el("input", { type: "checkbox" });
  const eot = el("input", { type: "checkbox", checked: true });
  const apply = () => {
    const modify = {};
    const dp = parseInt(p.value, 10);
    const dt = parseInt(t.value, 10);
    if (dp) modify.power = dp;
    if (dt) modify.toughness = dt;
    if (forbid.value) modify.forbid = [forbid.value];
    if (lose.checked) modify.lose_all_abilities = true;
    act(token, "apply_effect", o.ref, { modify, until: eot.checked ? "end_of_turn" : null });
  };
  return el("fieldset", {}, el("legend", { text: "apply an effect" }),
    el("div", { class: "row" }, "power", p, "toughness", t),
    el("div", { class: "row" }, forbid, el("label", { class: "check" }, lose, "lose abilities")),
    el("div", { class: "row" }, el("label", { class: "check" }, eot, "until end of turn"),
      el("button", { type: "button", "data-form-verb": "apply_effect", text: "Apply", onclick: apply })));
}

async function removeCard(token, ref) {
  try {
    await api("POST", `/api/t/${token}/remove`, { object: ref });
    app.selected = null;
    notify("removed from the setup", "ok");
    await refreshAll(true);
  } catch (err) { notify(err.message, "err"); }
}

// --- the side bar: setup, table actions, seat links ----------------------------------------

function keyPanel() {
  return app.cache.get(app.key) || app.panels[0];
}

function renderTableActions(main) {
  const box = $("table-acts");
  const actor = main;
  const offers = ((actor && actor.offers) || []).filter((a) => a.object === null);
  box.replaceChildren(...offers.map((a) => offerButton(actor.token, a)));
  if (!offers.length) box.append(el("p", { class: "hint", text: "Nothing to do at the table." }));
}

function renderSeats(judge, data) {
  const sw = $("seat-switch");
  sw.replaceChildren();
  if (!judge) return;
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

function renderSide() {
  const judge = app.judge;
  document.body.classList.toggle("judge", !!judge);
  const main = keyPanel();
  if (!main || !main.data) return;
  const data = judge || main.data;
  const rs = data.ruleset;
  $("table-title").textContent = data.title || `${rs.title || rs.name}`;
  // The owner and zone lists follow the table's ruleset and players (a GA table opened
  // after a FaB one with as many players must not keep FaB's zones).
  const owner = $("card-owner");
  const setupKey = `${rs.name}|${data.players.join(",")}`;
  if (owner.dataset.key !== setupKey) {
    owner.dataset.key = setupKey;
    owner.replaceChildren(...data.players.map((p) => option(p)));
    $("card-zone").replaceChildren(...rs.zones.map((z) => option(z, z, z === rs.play_zone)));
  }
  renderTableActions(main);
  renderSeats(judge, data);
}

// --- following the table -------------------------------------------------------------------

function logQuery(panel) {
  const n = panel.log.length;
  return n ? `?since=${n}&after=${encodeURIComponent(panel.log[n - 1].key)}` : "";
}

async function fetchPanel(panel) {
  const out = await api("GET", `/api/t/${panel.token}${logQuery(panel)}`);
  panel.log = out.log_from ? panel.log.slice(0, out.log_from).concat(out.log) : out.log;
  panel.data = out;
  const legal = await api("GET", `/api/tables/${panel.token}/legal`);
  panel.offers = legal.actions || [];
  return out;
}

async function refreshAll() {
  // One refresh at a time; a change arriving meanwhile runs one more afterwards.
  if (app.busy) { app.again = true; return; }
  app.busy = true;
  try {
    do {
      app.again = false;
      await refreshOnce();
    } while (app.again);
  } finally {
    app.busy = false;
  }
}

function panelFor(token) {
  if (!app.cache.has(token)) app.cache.set(token, { token, data: null, log: [], offers: [], el: null });
  return app.cache.get(token);
}

async function refreshOnce() {
  const { key, shown } = readHash();
  if (!key) return;
  if (app.key !== key) { app.key = key; app.judge = null; }
  const tokens = shown.length ? shown : [key];
  if (app.panels.map((p) => p.token).join() !== tokens.join()) {
    for (const p of app.panels) if (p.el) { p.el.remove(); p.el = null; }
    app.panels = tokens.map(panelFor);
  }
  try {
    // The key seat first: it says whether this page is the judge's.
    const keyState = await fetchPanel(panelFor(key));
    app.keyVersion = keyState.version;
    app.judge = keyState.seat === "judge" ? keyState : null;
    const container = $("panels");
    for (const panel of app.panels) {
      if (panel.token !== key) await fetchPanel(panel);
      const node = renderPanel(panel);
      if (!node.isConnected) container.append(node);
    }
    renderTabs();
    renderSide();
    renderInspector();
  } catch (err) {
    notify(err.message, "err");
  }
}

function listen(key) {
  if (app.source) app.source.close();
  app.source = null;
  if (!key || typeof EventSource === "undefined") return;
  const source = new EventSource(`/api/tables/${key}/events`);
  source.addEventListener("change", (ev) => {
    let version = null;
    try { version = JSON.parse(ev.data).version; } catch (err) { version = null; }
    if (version === null || version !== app.keyVersion) refreshAll();
  });
  source.addEventListener("gone", () => {
    source.close();
    notify("This table or seat no longer exists.", "err");
  });
  app.source = source;
}

// --- wiring ---------------------------------------------------------------------------------

function showHome(on) {
  $("home").hidden = !on;
  $("table").hidden = on;
}

function wireHome() {
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const out = await api("POST", "/api/tables", { ruleset: $("new-ruleset").value,
        title: $("new-title").value });
      setHash(out.seats.judge, null);
    } catch (err) { notify(err.message, "err"); }
  });
  $("open-scenario").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const file = $("scenario-file").files[0];
    if (!file) { notify("Choose a scenario file first.", "err"); return; }
    try {
      const out = await api("POST", "/api/tables/import", { scenario: await file.text() });
      setHash(out.seats.judge, null);
    } catch (err) { notify(err.message, "err"); }
  });
}

function wireTable() {
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
      notify("exported", "ok");
    } catch (err) { notify(err.message, "err"); }
  });
  $("btn-undo").addEventListener("click", async () => {
    try {
      await api("POST", `/api/t/${app.key}/undo`, {});
      notify("undone", "ok");
      await refreshAll();
    } catch (err) { notify(err.message, "err"); }
  });
  let suggestTimer = null;
  $("card-name").addEventListener("input", () => {
    clearTimeout(suggestTimer);
    suggestTimer = setTimeout(async () => {
      if (!app.judge) return;
      const q = encodeURIComponent($("card-name").value);
      try {
        const out = await api("GET", `/api/cards?ruleset=${encodeURIComponent(app.judge.ruleset.name)}&q=${q}`);
        $("card-names").replaceChildren(...out.names.map((n) => option(n)));
      } catch (err) { notify(err.message, "err"); }
    }, 120);
  });
  $("add-card").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    notify("adding…", "busy");
    try {
      const out = await api("POST", `/api/t/${app.key}/setup`, {
        card: $("card-name").value, owner: $("card-owner").value, zone: $("card-zone").value,
        face: $("card-face").value || null, face_down: $("card-facedown").checked,
        token: $("card-token").checked });
      notify(`added ${out.label}`, "ok");
      $("card-name").value = "";
      await refreshAll();
    } catch (err) { notify(err.message, "err"); }
  });
  $("notice-close").addEventListener("click", () => notify(null));
}

async function start() {
  try {
    app.rulesets = await api("GET", "/api/rulesets");
  } catch (err) {
    notify(err.message, "err");
  }
  $("new-ruleset").replaceChildren(...app.rulesets.map((r) =>
    option(r.name, `${r.name} — ${r.title}`)));
  wireHome();
  wireTable();
  window.addEventListener("hashchange", route);
  route();
}

function route() {
  const { key } = readHash();
  if (!key) {
    listen(null);
    showHome(true);
    return;
  }
  showHome(false);
  app.selected = null;
  refreshAll();
  listen(key);
}

document.addEventListener("DOMContentLoaded", start);
