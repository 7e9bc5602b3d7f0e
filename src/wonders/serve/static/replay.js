// The replay page (/replay/ID?at=N&seat=K): a table's game step by step, drawn by the live
// table's own drawing (table.js's drawState) from the states the server replays
// (GET /api/tables/ID/replay/N?seat=K).  A scrubber, previous/next and the arrow keys move
// through the steps; the view is the public one or, once the game is over, a seat's; the
// address always names the step and view shown, so it is the link to share.
"use strict";

const REPLAY = {
  id: location.pathname.split("/").filter(Boolean).pop(),
  steps: 0, over: false, views: ["public"], catalogue: null,
  at: 0, seat: null, asked: 0, csrf: "",
};

function replayError(text) { document.getElementById("refused").textContent = text; }

async function getJSON(path) {
  const answer = await fetch(path, {credentials: "same-origin"});
  let body = {};
  try { body = await answer.json(); } catch (e) { body = {error: `HTTP ${answer.status}`}; }
  return [answer, body];
}

function viewName(view) { return view === "public" ? "public (spectators')" : `seat ${view}`; }

function fillSelect(select, values, label, chosen) {
  select.replaceChildren(...values.map((v) => el("option", {value: v, textContent: label(v)})));
  select.value = chosen;
}

async function loadInfo() {
  const [answer, body] = await getJSON(`/api/tables/${encodeURIComponent(REPLAY.id)}/replay`);
  if (!answer.ok) {
    replayError(body.error || `HTTP ${answer.status}`);
    document.getElementById("connection").textContent = "no replay";
    return false;
  }
  REPLAY.steps = body.steps;
  REPLAY.over = body.over;
  REPLAY.views = body.views;
  REPLAY.catalogue = body.catalogue;
  document.getElementById("title").textContent = `${body.catalogue.title} — replay`;
  document.getElementById("connection").textContent = body.over ? "a finished game" :
    "a game still going on: the public view only";
  const step = document.getElementById("step");
  step.max = String(body.steps);
  const log = document.getElementById("log");
  log.hidden = !body.over;
  log.href = `/api/tables/${encodeURIComponent(REPLAY.id)}/log`;
  document.getElementById("back-to-table").href = `/table/${encodeURIComponent(REPLAY.id)}`;
  const chosen = REPLAY.seat === null ? "public" : String(REPLAY.seat);
  fillSelect(document.getElementById("view"), body.views, viewName,
             body.views.includes(chosen) ? chosen : "public");
  const seats = body.table.seats.map((_, n) => String(n));
  fillSelect(document.getElementById("play-seat"), [...seats, "bots"],
             (v) => v === "bots" ? "nobody: bots in every seat" : `seat ${v} (bots in the others)`,
             REPLAY.seat === null ? "0" : String(REPLAY.seat));
  document.querySelector(".play-on").hidden = !body.over;
  return true;
}

function address(at, seat) {
  const query = new URLSearchParams({at: String(at)});
  if (seat !== null) query.set("seat", String(seat));
  return `/replay/${encodeURIComponent(REPLAY.id)}?${query}`;
}

async function show(at, seat) {
  const asked = ++REPLAY.asked;   // a slower answer to an older request is dropped
  const query = seat === null ? "" : `?seat=${seat}`;
  const [answer, body] = await getJSON(
    `/api/tables/${encodeURIComponent(REPLAY.id)}/replay/${at}${query}`);
  if (asked !== REPLAY.asked) return false;
  if (!answer.ok) {
    replayError(body.error || `HTTP ${answer.status}`);
    return false;
  }
  replayError("");
  REPLAY.at = at;
  REPLAY.seat = seat;
  if (body.steps !== REPLAY.steps) {   // a running game played on meanwhile
    REPLAY.steps = body.steps;
    document.getElementById("step").max = String(body.steps);
  }
  drawState(REPLAY.catalogue, body);
  if (SCRUB.wanted === null) document.getElementById("step").value = String(at);   // not mid-drag
  document.getElementById("step-label").textContent =
    `step ${at} of ${REPLAY.steps}${at === 0 ? " (as dealt)" : ""}`;
  document.getElementById("previous").disabled = at === 0;
  document.getElementById("next").disabled = at >= REPLAY.steps && REPLAY.over;
  const link = address(at, seat);
  history.replaceState(null, "", link);
  document.getElementById("share").href = link;
  document.body.dataset.step = String(at);
  document.body.dataset.view = seat === null ? "public" : String(seat);
  document.body.dataset.decision = String(at);
  document.body.dataset.over = body.over ? "yes" : "no";
  return true;
}

// The scrubber asks for one step at a time: while an answer is awaited, only the last step
// the scrubber passed is remembered, and asked for next (a drag is not a request per step).
const SCRUB = {wanted: null, busy: false, target: 0};   // target: the step last asked for

async function scrubTo(at) {
  SCRUB.wanted = SCRUB.target = at;
  if (SCRUB.busy) return;
  SCRUB.busy = true;
  try {
    while (SCRUB.wanted !== null) {
      const next = SCRUB.wanted;
      SCRUB.wanted = null;
      await show(next, REPLAY.seat);
    }
  } finally {
    SCRUB.busy = false;
    SCRUB.target = REPLAY.at;   // (a refused step leaves the one shown)
  }
}

// The previous and next buttons and the arrow keys: from the step last asked for, so keys
// pressed faster than the answers come still move one step each.
async function step(by) {
  const from = SCRUB.busy ? SCRUB.target : REPLAY.at;
  if (!REPLAY.over && from + by > REPLAY.steps) await loadInfo();   // new steps?
  const at = Math.max(0, Math.min(REPLAY.steps, from + by));
  if (at !== from) await scrubTo(at);
}

async function playOn() {
  if (!REPLAY.csrf) {
    const [, session] = await getJSON("/api/session");
    REPLAY.csrf = session.csrf || "";
  }
  const chosen = document.getElementById("play-seat").value;
  const answer = await fetch(`/api/tables/${encodeURIComponent(REPLAY.id)}/play-on`, {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": REPLAY.csrf},
    body: JSON.stringify({at: REPLAY.at, seat: chosen === "bots" ? null : Number(chosen)})});
  let body = {};
  try { body = await answer.json(); } catch (e) { body = {error: `HTTP ${answer.status}`}; }
  if (!answer.ok) {
    replayError(body.error || `HTTP ${answer.status}`);
    return;
  }
  const mine = body.seats.find((s) => s.link);
  location.assign(mine ? mine.link : body.spectate);
}

async function startReplay() {
  const query = new URLSearchParams(location.search);
  const seat = query.get("seat");
  REPLAY.seat = seat === null || seat === "" || seat === "public" ? null : Number(seat);
  if (!(await loadInfo())) return;
  const at = query.get("at");
  document.getElementById("step").addEventListener("input", (event) => scrubTo(Number(event.target.value)));
  document.getElementById("previous").addEventListener("click", () => step(-1));
  document.getElementById("next").addEventListener("click", () => step(1));
  document.getElementById("view").addEventListener("change", (event) =>
    show(REPLAY.at, event.target.value === "public" ? null : Number(event.target.value)));
  document.getElementById("play-on").addEventListener("click", () => playOn());
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;   // they use the arrows
    if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
  });
  // an address naming a step or a view that does not exist is refused by the server: its
  // reason is shown, with the last step of the public view
  const wanted = at === null || at === "" ? REPLAY.steps : Number(at);
  if (!(await show(wanted, REPLAY.seat))) {
    const reason = document.getElementById("refused").textContent;
    await show(REPLAY.steps, null);
    replayError(`refused: ${reason}`);
  }
}

startReplay();
