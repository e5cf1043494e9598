// A seat's page (d4cli serve, /seat/TOKEN): the seat's creature, the action being built with its
// live preview, Roll and Enter my dice, the seat's requests and the table. Every text from the
// server is set with textContent: no markup from the server is ever parsed.
"use strict";

const base = location.pathname.replace(/\/+$/, "");
const $ = (id) => document.getElementById(id);
const form = { aspect: $("aspect"), cost: $("cost"), target: $("target"),
  advantage: $("advantage"), disadvantage: $("disadvantage"), extra: $("extra") };
let state = null;       // the last /view.json
let preview = null;     // the last preview answer
let entering = false;   // the faces fields are shown
let previewTimer = 0;
let loadTimer = 0;
let previewAsked = 0;   // answers to older previews are dropped
let sending = null;     // the request on its way (with its key) until the server answers it
let done = false;       // the last request was answered: Roll waits for a change to the action
let online = true;      // the server answered the last call (else: the banner, and retries)
let source = null;      // the event stream
let retryDelay = 500;   // the next wait before trying the server again (doubles to 5 s)
let retryTimer = 0;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function names(text) {
  return text.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
}


function percent(p) {
  if (p === null || p === undefined) return "";
  const v = 100 * p;
  return (v > 0 && v < 0.1 ? "<0.1" : v.toFixed(1)) + "%";
}

// --- what is being built ---------------------------------------------------------------------

function chosen() {
  const value = form.aspect.value;
  if (!state || !value) return null;
  const [kind, name] = [value.slice(0, 2), value.slice(2)];
  if (kind === "a:") return { aspect: name, action: null };
  const action = state.seat.actions.find((a) => a.name === name);
  return { aspect: name, action: action || null };
}

function body(faces) {
  const pick = chosen();
  const cost = form.cost.value.trim();
  const named = pick && pick.action ? { action: pick.aspect } : { aspect: pick ? pick.aspect : "" };
  return {
    ...named,
    cost: cost === "" ? null : Number(cost),
    advantage: names(form.advantage.value),
    disadvantage: names(form.disadvantage.value),
    extra: names(form.extra.value.replace(/\s+/g, ",")),
    target: form.target.value || null,
    faces: faces === undefined ? null : faces,
    creature: state ? state.seat.name : null,
  };
}

async function post(path, data) {
  const answer = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
    credentials: "same-origin",
  });
  let json = null;
  try { json = await answer.json(); } catch (e) { json = { error: "the server's answer is not JSON" }; }
  return { ok: answer.ok, status: answer.status, json, retryAfter: Number(answer.headers.get("Retry-After")) };
}

// A key for one tap: 16 random bytes, URL-safe base64. Sent again with a retry, the server
// answers with the first request: a double tap or a lost answer never queues two.
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What put the message up: a preview's answer, which may come late, clears only its own
// (never a face just refused on Send).
let errorFrom = null;

function showError(text, field, from = "send") {
  const error = $("error");
  errorFrom = text ? from : null;
  for (const input of Object.values(form)) input.removeAttribute("aria-invalid");
  document.querySelectorAll(".faces input").forEach((i) => i.removeAttribute("aria-invalid"));
  if (!text) { error.hidden = true; error.textContent = ""; return; }
  error.hidden = false;
  error.textContent = text;
  const input = field === "faces" ? null : form[field];
  if (input) input.setAttribute("aria-invalid", "true");
}

// Roll is off while the preview says the rules refuse the action (R2, R18): nothing to roll.
function refused() { return Boolean(preview) && (!preview.allowed || preview.down); }

// Roll and Send are off while the rules refuse, while a request is on its way, once it was
// answered (until the action changes: nothing is sent twice by a second tap), and while the
// server is out of reach.
function updateButtons() {
  const off = refused() || sending !== null || done || !online;
  $("roll").disabled = off;
  $("send").disabled = off;
  $("roll").textContent = sending ? "Sending…" : "Roll";
}

function renderPreview() {
  const box = $("preview");
  box.replaceChildren();
  updateButtons();
  if (!preview) return;
  const head = el("p", null, "pool " + (preview.allowed ? "ok" : "no"));
  if (preview.down) {
    head.textContent = "Down (0 hp): it cannot act (R18)";
  } else if (!preview.allowed) {
    head.textContent = `Refused (R2): headroom ${preview.headroom} < Cost ${preview.cost}, short by ${preview.shortfall}`;
  } else {
    const extra = preview.faces.length - preview.pool_size;
    head.textContent = `Pool ${preview.pool_size}d4` + (extra > 0 ? ` + ${extra} extra` : "") +
      ` · headroom ${preview.headroom} >= Cost ${preview.cost}`;
  }
  box.append(head);
  const odds = preview.odds;
  if (odds) {
    const line = el("p", null, "odds");
    const parts = [`average total ${odds.mean.toFixed(2)}`];
    if (odds.p_any_damage !== undefined) {
      parts.push(`damage ${percent(odds.p_any_damage)} (${odds.p_any_damage_exact})`);
      parts.push(`expected damage ${odds.expected_damage.toFixed(2)}`);
    }
    if (odds.p_success !== undefined) parts.push(`success ${percent(odds.p_success)} (${odds.p_success_exact})`);
    line.textContent = parts.join(" · ");
    box.append(line);
  }
  box.append(stepsList(preview.steps));
}

function stepsList(steps) {
  const list = el("ol", null, "steps");
  for (const step of steps) {
    const row = el("li", null, "step " + step.tone);
    row.append(el("span", step.name, "what"), el("span", step.detail, "detail"), el("span", step.rule, "rule"));
    list.append(row);
  }
  return list;
}

async function askPreview() {
  if (!chosen()) return;
  const asked = ++previewAsked;
  let answer;
  try { answer = await post("/preview", body()); } catch (e) { lost(); return; }
  if (asked !== previewAsked) return;  // a newer preview is on its way
  if (answer.status >= 500) return;    // busy: the preview shown stays until the next one
  if (answer.ok) {
    preview = answer.json;
    if (errorFrom === "preview") showError(null);
  } else {
    preview = null;
    showError(answer.json.error, answer.json.field, "preview");
  }
  renderPreview();
  if (entering) showFaces();
}

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(askPreview, 250);
}

// --- Roll and Enter my dice ------------------------------------------------------------------

function showFaces() {
  const box = $("faces");
  // A new preview of the same dice keeps what the player has typed.
  const typed = [...box.querySelectorAll("input")].map((i) => [i.dataset.sides, i.value]);
  box.replaceChildren();
  if (!preview || !preview.allowed) { box.hidden = true; $("send").hidden = true; return; }
  const same = typed.length === preview.faces.length && typed.every(([sides], i) => sides === String(preview.faces[i]));
  preview.faces.forEach((sides, i) => {
    const label = el("label", `d${sides} #${i + 1}`);
    const input = el("input");
    input.type = "number"; input.inputMode = "numeric"; input.min = "1"; input.max = String(sides);
    input.dataset.sides = String(sides);
    input.setAttribute("aria-label", `die ${i + 1}, a d${sides}`);
    if (same) input.value = typed[i][1];
    label.append(input);
    box.append(label);
  });
  box.hidden = false;
  $("send").hidden = false;
}

function enteredFaces() {
  const faces = [];
  for (const [i, input] of [...document.querySelectorAll(".faces input")].entries()) {
    const sides = Number(input.dataset.sides);
    const text = input.value.trim();
    const face = Number(text);
    if (!/^\d+$/.test(text) || face < 1 || face > sides) {
      input.setAttribute("aria-invalid", "true");
      return { error: `die ${i + 1}: enter a face from 1 to ${sides} (a d${sides})` };
    }
    faces.push(face);
  }
  return { faces };
}

async function act(faces) {
  if (sending) return;
  const data = { ...body(faces), key: newKey() };
  sending = data;
  updateButtons();
  try {
    for (let wait = 500; ; wait = Math.min(2 * wait, 5000)) {
      let answer;
      try {
        answer = await post("/act", data);
      } catch (e) {
        lost();  // no answer: the same key again once the server is back
        await sleep(wait);
        continue;
      }
      if (answer.status === 503 || answer.status === 429) {
        await sleep(answer.retryAfter > 0 ? 1000 * answer.retryAfter : wait);
        continue;
      }
      if (!answer.ok) { showError(answer.json.error, answer.json.field); return; }
      showError(null);
      entering = false;
      $("faces").replaceChildren();
      $("faces").hidden = true; $("send").hidden = true;
      done = true;
      if (answer.json.request) showResult(answer.json.request);
      load();
      return;
    }
  } finally {
    sending = null;
    updateButtons();
  }
}

function outcome(request) {
  const words = { pending: "waits for the GM", approved: "carried out", denied: "denied by the GM",
    undone: "taken back by the GM (undo)" };
  let text = `Request ${request.id}: ${request.act.aspect}` +
    (request.act.target ? ` at ${request.act.target}` : "") + ` — ${words[request.status] || request.status}`;
  if (request.status === "denied" && request.reason) text += `: ${request.reason}`;
  if (request.roll && request.status === "approved") {
    text += ` · total ${request.roll.total}`;
    if (request.roll.outcome_text) text += ` · ${request.roll.outcome_text}`;
    if (request.roll.damage !== null && request.roll.damage !== undefined) text += ` · damage ${request.roll.damage}`;
  }
  return text;
}

// The dice as rolled (or entered): the pool's d4s, then each extra term.
function diceLine(roll) {
  const parts = [`dice ${roll.dice.join(" ")}`];
  for (const term of roll.extra || []) parts.push(`${term.notation}: ${(term.dice || []).join(" ")}`);
  return parts.join(" · ");
}

function showResult(request) {
  const box = $("result");
  box.replaceChildren(el("h2", outcome(request), "status " + request.status));
  if (request.roll) {
    const roll = request.roll;
    box.append(el("p", diceLine(roll), "dice"));
    if (roll.outcome_text) box.append(el("p", roll.outcome_text, "outcome " + roll.outcome));
    box.append(stepsList(roll.steps));
  }
  box.hidden = false;
  box.dataset.number = String(request.id);
  box.dataset.status = request.status;
}

// --- the view --------------------------------------------------------------------------------

function fillSelect(select, options, keep) {
  const before = keep ? select.value : null;
  select.replaceChildren(...options.map(([value, text]) => {
    const option = el("option", text);
    option.value = value;
    return option;
  }));
  if (before !== null && options.some(([value]) => value === before)) select.value = before;
}

function renderSeat(seat) {
  $("me-name").textContent = seat.name;
  document.title = `${seat.name}: your seat`;
  const hp = seat.hp === null ? "" : ` · HP ${seat.hp}` + (seat.max_hp === null ? "" : ` / ${seat.max_hp}`);
  $("me-state").textContent = `Load ${seat.load} · Evasion ${seat.evasion}${hp}` +
    (seat.down ? " · down" : "");
  $("turn").hidden = !seat.current;
  const aspects = $("me-aspects");
  aspects.replaceChildren(...seat.aspects.map((a) => {
    const box = el("span", null, "aspect " + (a.headroom >= 1 ? "ok" : a.headroom === 0 ? "zero" : "no"));
    box.append(el("b", a.headroom_text), el("span", ` (Aspect ${a.value})`));
    return box;
  }));
  const chips = seat.effects.map((e) => el("span",
    `${e.source}${e.on === "against" ? " vs you" : ""} ${e.grant === "advantage" ? "+1d4" : "-1d4"} (${e.left})`,
    "chip " + e.grant));
  $("me-effects").replaceChildren(...chips);
  fillSelect(form.aspect, [
    ...seat.aspects.map((a) => ["a:" + a.name, a.headroom_text]),
    ...seat.actions.map((a) => ["n:" + a.name, `${a.name}: ${a.aspect}, Cost ${a.cost}` +
      (a.extra.length ? ` + ${a.extra.join(" + ")}` : "")]),
  ], true);
}

function renderTable(view) {
  // A fight `next` began without a name is called "Fight N" already: say it once.
  const number = view.fight && view.fight > 1 ? `Fight ${view.fight}` : "";
  const fight = !number ? "" : view.name === number ? `${number} · ` : `${number}: ${view.name} · `;
  $("table-head").textContent = fight + (view.round ? `The table · Round ${view.round}` : "The table · not started");
  const rows = view.creatures.map((c) => {
    const row = el("li", null, "creature" + (c.current ? " current" : "") + (c.down ? " down" : ""));
    row.append(el("span", c.current ? "▶" : c.had_turn ? "✓" : "", "marker"), el("span", c.name, "name"));
    const hp = c.hp !== null ? `${c.hp}` + (c.max_hp !== null ? ` / ${c.max_hp}` : "") : "";
    row.append(el("span", [hp, c.hp_label || ""].filter((s) => s).join(" "), "hp " + (c.hp_label || "").toLowerCase()));
    if (c.evasion !== null) row.append(el("span", `Evasion ${c.evasion}`, "evasion"));
    for (const e of c.effects) row.append(el("span", `${e.source} ${e.grant === "advantage" ? "+" : "-"}1d4`, "chip " + e.grant));
    return row;
  });
  $("table").replaceChildren(...rows);
  const self = state ? state.seat.name : null;
  fillSelect(form.target, [["", "no target"],
    ...view.creatures.filter((c) => c.name !== self).map((c) => [c.name, c.name])], true);
}

function renderRequests(requests) {
  const list = $("requests");
  list.replaceChildren(...requests.slice().reverse().map((r) => {
    const row = el("li", outcome(r), "request " + r.status);
    row.dataset.number = String(r.id);
    row.dataset.status = r.status;
    return row;
  }));
  const shown = $("result").dataset.number;
  const same = requests.find((r) => String(r.id) === shown);
  if (same && same.status !== $("result").dataset.status) showResult(same);
  // A reopened page shows its newest request's full result (dice, steps, hit or miss).
  if (!shown && requests.length) showResult(requests[requests.length - 1]);
}

async function load() {
  let answer;
  try {
    answer = await fetch(base + "/view.json", { credentials: "same-origin" });
  } catch (e) {
    lost();
    return;
  }
  if (!answer.ok) {
    showError(answer.status === 410 ? "This seat has ended: your creature is not in this fight." :
      answer.status === 404 ? "This seat is closed (the GM revoked or reset it)." : "The table is not ready yet.");
    return;
  }
  const before = state;
  state = await answer.json();
  // The table moved on (a new round or turn): Roll is live again for the same action.
  if (before && (before.round !== state.round || before.seat.current !== state.seat.current)) done = false;
  renderSeat(state.seat);
  renderTable(state);
  renderRequests(state.requests);
  document.body.dataset.loaded = String(Number(document.body.dataset.loaded || 0) + 1);
  schedulePreview();
}

// --- the connection: a banner while the server is out of reach, retries with back-off ----------

function setOnline(up) {
  online = up;
  $("offline").hidden = up;
  document.body.classList.toggle("stale", !up);
  document.body.dataset.online = String(up);
  updateButtons();
}

function lost() {
  if (online) setOnline(false);
  if (source) { source.close(); source = null; }
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, retryDelay);
  retryDelay = Math.min(2 * retryDelay, 5000);
}

function connect() {
  source = new EventSource(base + "/events");
  source.onopen = () => {
    retryDelay = 500;
    const was = online;
    setOnline(true);
    if (!was) load();  // catch up on what happened meanwhile
  };
  source.onmessage = scheduleLoad;
  source.addEventListener("seat", scheduleLoad);
  source.onerror = lost;
}

function scheduleLoad() {
  clearTimeout(loadTimer);
  loadTimer = setTimeout(load, 100);
}

// --- wiring ----------------------------------------------------------------------------------

form.aspect.addEventListener("change", () => {
  const pick = chosen();
  form.cost.value = pick && pick.action ? String(pick.action.cost) : "1";
});
function changed() {
  done = false;
  showError(null);  // the action changed: a message about the one before no longer holds
  updateButtons();
  schedulePreview();
}

for (const input of Object.values(form)) {
  input.addEventListener("input", changed);
  input.addEventListener("change", changed);
}
$("roll").addEventListener("click", () => act(undefined));
$("enter").addEventListener("click", () => { entering = true; done = false; showFaces(); updateButtons(); });
$("send").addEventListener("click", () => {
  const entered = enteredFaces();
  if (entered.error) { showError(entered.error, "faces"); return; }
  act(entered.faces);
});

connect();
load();
