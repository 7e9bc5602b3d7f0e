// The table page: renders what the server sends (the contract's view plus a generic
// description of the seat's legal actions) and sends back the action a player picks.
// Nothing here knows which game is played: it draws the view's parts when present.
"use strict";

const TABLE = location.pathname.split("/").filter(Boolean).pop();
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("token");
let socket = null;
let catalogue = null;
let state = null;
let openCard = null;     // the card whose actions are shown
let drawnDecision = null; // what the decision panel was last drawn from
let retry = 500;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-") || key === "title" || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

function cardInfo(name, age) {
  if (!catalogue || !name) return null;
  return catalogue.cards[`${name} (${age})`] || catalogue.cards[name] || null;
}

function seatName(seat) {
  if (state && seat === state.seat) return state.replay ? `seat ${seat} (this view)` : `seat ${seat} (you)`;
  const kind = state ? state.table.seats[seat] : "";
  const name = state && state.table.names ? state.table.names[seat] : null;
  if (name) return `seat ${seat} (${name})`;
  return kind && kind !== "human" ? `seat ${seat} (${kind} bot)` : `seat ${seat}`;
}

// --- the players: names, clocks, seats played by a bot ---------------------------------

let clocksAt = 0;   // when the last state's clocks were received (the page counts down)

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawPlayers() {
  const box = document.getElementById("players");
  const table = state.table;
  const away = table.away || [];
  const clocks = state.clocks;
  box.replaceChildren(el("h2", {}, `Players · ${table.mode || "normal"} game · ${table.speed || "untimed"}`));
  const list = el("ul", {class: "players"});
  const waiting = state.pending.seats.filter((s) => !state.pending.chosen.includes(s));
  for (let seat = 0; seat < table.seats.length; seat++) {
    const item = el("li", {class: "player", "data-seat": String(seat)}, seatName(seat));
    if (clocks) {
      const running = clocks.running.includes(seat);
      item.append(" ", el("span", {class: running ? "clock running" : "clock", "data-seat": String(seat),
                                   textContent: clockText(clocks.left[seat])}));
    }
    if (away.includes(seat)) item.append(" ", el("span", {class: "away", textContent: "· played by a bot until they return"}));
    if (seat === state.seat && away.includes(seat)) {
      item.append(" ", el("button", {id: "back", type: "button", textContent: "Take my seat back",
                                     onclick: () => send({type: "back"})}));
    } else if (state.seat !== null && !state.replay && seat !== state.seat && table.seats[seat] === "human" &&
               !away.includes(seat) && waiting.includes(seat) && !state.over) {
      item.append(" ", el("button", {class: "hand-over", type: "button", "data-seat": String(seat),
                                     textContent: "Hand this seat to a bot (left the table)",
                                     onclick: () => send({type: "hand_over", target: seat})}));
    }
    list.append(item);
  }
  box.append(list);
  clocksAt = Date.now();
}

setInterval(() => {   // the running clocks count down between two states
  if (!state || !state.clocks) return;
  const spent = (Date.now() - clocksAt) / 1000;
  for (const seat of state.clocks.running) {
    const node = document.querySelector(`.clock[data-seat="${seat}"]`);
    if (node) node.textContent = clockText(state.clocks.left[seat] - spent);
  }
}, 1000);

// --- connection ------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(TABLE)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    socket.send(JSON.stringify(TOKEN ? {type: "join", token: TOKEN} : {type: "join"}));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    document.body.dataset.connected = "no";
    document.body.dataset.decision = "-1";   // what is shown may be stale until the next state
    if (event.code === 4404) {               // no such table: nothing to reconnect to
      document.getElementById("connection").textContent = "no such table on this server";
      return;
    }
    document.getElementById("connection").textContent = "connection lost — reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else document.getElementById("refused").textContent = "not connected to the table: reconnecting, try again in a moment";
}

function receive(message) {
  if (message.type === "welcome") {
    catalogue = message.catalogue;
    document.body.dataset.connected = "yes";
    document.body.dataset.seat = message.seat === null ? "spectator" : String(message.seat);
    document.getElementById("connection").textContent =
      message.seat === null ? "watching (public information only)" : `playing seat ${message.seat}`;
    document.getElementById("title").textContent = catalogue.title;
  } else if (message.type === "state") {
    state = message;
    document.getElementById("refused").textContent = "";
    render();
    document.body.dataset.decision = String(message.decision);
    document.body.dataset.over = message.over ? "yes" : "no";
    // the replay: of a finished game for everyone, of a running one for spectators
    const replay = document.getElementById("replay-link");
    if (replay) {
      replay.href = `/replay/${encodeURIComponent(TABLE)}?at=${message.decision}`;
      replay.hidden = !(message.over || message.seat === null);
    }
  } else if (message.type === "refused") {
    document.getElementById("refused").textContent = `refused: ${message.reason}`;
  } else if (message.type === "hint") {
    showHint(message);
  } else if (message.type === "handed_over") {
    document.getElementById("refused").textContent = `seat ${message.target} is played by a bot now`;
  }
}

function act(entry) {
  send({type: "act", decision: state.decision, action: entry.json});
  closeTray();
}

// --- drawing ---------------------------------------------------------------------------

function render() {
  const view = state.view;
  const pending = state.pending;
  const age = view.age ? `Age ${view.age}` : (view.age === undefined ? "Game" : "before the first age");
  const passes = catalogue.passes || [];
  const pass = view.hand_sizes && view.age && passes[view.age - 1] ? ` · hands pass ${passes[view.age - 1]}` : "";
  const waiting = pending.seats.filter((s) => !pending.chosen.includes(s));
  const status = state.over ? "the game is over" :
    `${age}, turn ${view.turn}${pass}${view.last_turn ? ` (the last turn is ${view.last_turn})` : ""} · ${pending.wording} · waiting for ${waiting.map(seatName).join(", ") || "—"}` +
    (pending.chosen.length ? ` · chosen: ${pending.chosen.map(seatName).join(", ")}` : "");
  document.getElementById("status").textContent = status;
  // a decision the server's bots could not play (a bug): said, rather than a silent wait
  document.body.dataset.failed = state.table.failed ? "yes" : "no";
  if (state.table.failed) {
    document.getElementById("refused").textContent =
      `the table has stopped: ${state.table.failed}. The server's operator has it in the log.`;
  }
  document.body.classList.toggle("game-over", Boolean(state.over));   // the score sheet first
  drawPlayers();
  // a decks game (decks.js) draws its decision, its table and its recap itself
  if (typeof drawDecksGame === "function" && drawDecksGame()) { drawScores(); drawEvents(); return; }
  drawRecap();
  // the decision panel is redrawn only when what it shows changed: another seat choosing
  // (a state sent to every page) must not replace the buttons a player is about to tap
  const shown = JSON.stringify([state.decision, state.actions || null, state.chosen || null,
                                view.hand || null, state.table.hints]);
  if (shown !== drawnDecision) {
    drawnDecision = shown;
    drawDecision();
  }
  drawBoard();
  drawCities();
  drawScores();
  drawEvents();
}

const MARKS = {cannot: "✗", trade: "✓", own: "✓", chain: "✓", free: "✓"};

function markText(indicator) {
  if (!indicator) return "";
  if (indicator.mark === "trade") return `✓ ${indicator.trade}`;
  if (indicator.mark === "chain") return `✓ chain${indicator.chain ? " from " + indicator.chain : ""}`;
  if (indicator.mark === "free") return indicator.free === "discard" ? "✓ free" : "✓ free (power)";
  if (indicator.mark === "own") return "✓";
  return "✗";
}

function markTitle(indicator) {
  if (!indicator) return "";
  switch (indicator.mark) {
    case "cannot": return "you cannot build it now";
    case "trade": return `you pay ${indicator.trade} coins for resources you buy`;
    case "own": return "your own production suffices" + (indicator.paid ? ` (card costs ${indicator.paid} coins)` : "");
    case "chain": return "free by chain" + (indicator.chain ? ` (you have ${indicator.chain})` : "");
    case "free": return indicator.free === "discard" ? "built for free from the discard pile" : "free with your wonder's power";
  }
  return "";
}

function indicator(indicator, what) {
  if (!indicator) return null;
  const mark = el("span", {class: `mark mark-${indicator.mark}`, title: indicator.why ? `cannot build it: ${indicator.why}` : markTitle(indicator),
                           "data-mark": indicator.mark, "data-trade": String(indicator.trade || 0),
                           "data-what": what}, markText(indicator));
  if (!indicator.why) return mark;
  // why a red cross: the payment search's shortfall in words, beside the mark
  const box = document.createDocumentFragment();
  box.append(mark, el("span", {class: "why-not", "data-why": what}, indicator.why));
  return box;
}

// A card's cost in symbols: its coins, then each resource with its count ("free" when none).
function costSymbols(info) {
  const row = el("div", {class: "card-cost", "data-cost": info.cost});
  if (info.coins) row.append(symbol("coins", info.coins, "cost"));
  for (const [resource, count] of info.resources || []) row.append(symbol(resource, count, "cost"));
  if (!info.coins && !(info.resources || []).length) row.append(el("span", {class: "free-word"}, "free"));
  return row;
}

// What a card gives, in symbols where the catalogue has them, in short words otherwise.
function effectSymbols(info) {
  const row = el("div", {class: "card-effect"});
  const marks = info.symbols || [];
  if (marks.length) {
    row.append(el("span", {class: "effect-symbols"}, ...marks.map(([names, count]) =>
      symbol(names, count !== 1 || names === "points" || names === "coins" ? count : undefined, "effect"))));
  }
  if (!info.all_symbols) row.append(el("span", {class: "effect-words"}, info.effect));
  return row;
}

function cardFace(name, age, extra) {
  const info = cardInfo(name, age);
  const colour = info ? info.colour : "none";
  const node = el("div", {class: `card colour-${colour}`, "data-card": name,
                          title: info ? `${info.cost} — ${info.effect}` : name},
    el("div", {class: "card-name"}, name),
    extra || null,   // the marks: under the name, in the card's flow, so they never cover it
    info ? costSymbols(info) : null,
    info ? effectSymbols(info) : null,
    info && info.chains_from.length ? el("div", {class: "card-chain chain-from"}, `free with ${info.chains_from.join(" or ")}`) : null,
    info && info.chains_to.length ? el("div", {class: "card-chain"}, `→ ${info.chains_to.join(", ")}`) : null);
  return node;
}

function drawDecision() {
  const box = document.getElementById("decide");
  box.replaceChildren();
  const view = state.view;
  const described = state.actions;
  if (state.chosen) {
    box.append(el("p", {class: "chosen", "data-chosen": "yes"}, `You chose: ${state.chosen}. Waiting for the others…`));
  }
  if (described) {
    box.append(el("h2", {}, `Your move: ${state.pending.wording}`));
    if (state.table.hints) {
      box.append(el("button", {class: "hint-button", onclick: () => send({type: "hint"})}, "Hint"),
                 el("div", {id: "hint"}));
    }
  }
  // the hand (a drafting game), or the cards the seat may take (a structure)
  const hand = view.hand || [];
  if (hand.length) {
    const row = el("div", {class: "hand", id: "hand"});
    for (const name of hand) {
      const slot = described ? described.cards[name] : null;
      const age = view.age;
      const extra = el("div", {class: "marks"});
      if (slot) {
        if (slot.indicator) extra.append(indicator(slot.indicator, "build"));
        if (slot.stage && slot.stage.mark !== "cannot") extra.append(el("span", {class: "stage-tag"}, "stage"));
      }
      const face = cardFace(name, slot ? slot.age : age, extra);
      if (slot) {
        face.classList.add("playable");
        face.addEventListener("click", () => { openCard = name; drawDecision(); });
      }
      row.append(face);
    }
    box.append(el("h3", {}, "Your hand"), row);
  }
  if (described && described.stage && hand.length) {
    const stage = described.stage;
    // the stage as the catalogue draws it (cost and effect in symbols), else in words
    const mine = view.cities.find((c) => c.seat === state.seat);
    const sides = mine && catalogue.wonders[mine.wonder];
    const drawn = sides && sides[mine.side] ? sides[mine.side].stages[mine.stages] : null;
    box.append(el("div", {class: "next-stage", id: "next-stage", title: stage.cost ? `${stage.cost} — ${stage.effect}` : ""}, "Next wonder stage: ",
                      drawn && drawn.resources ? costSymbols(drawn) : (stage.cost ? `${stage.cost} — ` : ""),
                      drawn && drawn.resources ? el("span", {class: "stage-gives"}, "→ ", effectSymbols(drawn)) : (stage.cost ? `${stage.effect} ` : ""),
                      indicator(stage, "stage")));
  }
  if (described && described.wonders) {
    const list = el("div", {class: "wonder-marks"});
    for (const [name, mark] of Object.entries(described.wonders)) {
      list.append(el("span", {class: "wonder-mark", "data-wonder": name}, `${name} `, indicator(mark, "wonder")));
    }
    box.append(el("div", {}, "Your wonders to build: ", list));
  }
  if (described) {
    // actions without a card: sides, tokens, starters, wonders of a draft, skip
    const others = described.other.map((i) => described.actions[i]);
    const mine = view.cities.find((c) => c.seat === state.seat);
    if (view.sides && mine && catalogue.wonders[mine.wonder]) {
      // the sides of the board to choose from, each with its stages
      const row = el("div", {class: "wonders-row", id: "sides"});
      for (const side of view.sides) {
        const board = catalogue.wonders[mine.wonder][side];
        if (!board) continue;
        row.append(el("div", {class: "wonder", "data-side": side},
          el("div", {class: "card-name"}, `${mine.wonder} ${side}`),
          el("div", {class: "card-effect"}, board.start ? `Board: ${board.start}` : ""),
          el("ol", {}, ...board.stages.map((st) => el("li", {}, `${st.cost}: ${st.effect}`)))));
      }
      box.append(row);
    }
    if (view.drawn && view.drawn.length) {   // items drawn to place one (a priced row's)
      box.append(el("h3", {}, "You drew"), el("div", {class: "progress-row", id: "drawn"},
        ...view.drawn.map((name) => itemCard(name))),
        el("p", {class: "small"}, "Click an empty space of the row to lay one of them there face down; the other goes back on its stack."));
    }
    const drawnHeld = view.held && Array.isArray(view.held.drawn) ? view.held.drawn : [];
    if (drawnHeld.length) {   // held tokens drawn, one to keep (the other back on the stack)
      const kind = label(view.held.kind || "token");
      const keeps = boardActions((e) => e.kind === "keep" && typeof e.held === "string" ? e.held : null);
      box.append(el("h3", {}, `You drew (${plural(kind)})`), el("div", {class: "progress-row", id: "held-drawn"},
        ...drawnHeld.map((name) => {
          const node = itemCard(name);
          node.classList.add("held-token");
          node.dataset.held = name;
          const entries = keeps[name] || [];
          if (entries.length) {
            node.classList.add("playable");
            node.append(el("div", {class: "marks"}, el("span", {class: "mark mark-own", "data-mark": "keep"}, "✓ keep")));
            node.addEventListener("click", () => showActions(`${name}: what you can do`, entries));
          }
          return node;
        })));
    }
    if (others.length) {
      const list = el("div", {class: "choices", id: "choices"});
      for (const entry of others) list.append(actionButton(entry));
      box.append(el("h3", {}, "Choose"), list);
      // a move that acts on a place of the table is offered there too (outlined)
      const there = others.filter((e) => e.space !== undefined || e.place !== undefined || e.track !== undefined ||
                                         e.military !== undefined || e.chamber !== undefined || e.held !== undefined);
      if (there.length) {
        const row = `the ${view.row_rules && view.row_rules.kind ? label(view.row_rules.kind) + " " : ""}row's spaces`;
        const heldKind = view.held && view.held.kind ? plural(label(view.held.kind)) : "held tokens";
        const where = [...new Set(there.map((e) => e.space !== undefined ? row :
                                                 e.place !== undefined ? "the card structure" :
                                                 e.chamber !== undefined ? "the Senate's chambers" :
                                                 e.held !== undefined ? (e.kind === "keep" ? `the ${heldKind} you drew, above` : `your ${heldKind}, in your city`) :
                                                 "the conflict track"))];
        box.append(el("p", {class: "small board-hint", id: "board-hint"}, `Or click it on the table below: ${where.join(", ")} (outlined).`));
      }
    }
    // cards offered outside a hand (a structure, the discard pile, a city to destroy from)
    const onTable = new Set((view.structure || []).flat().filter((p) => p && p.card).map((p) => p.card));
    const loose = Object.values(described.cards).filter((slot) => !hand.includes(slot.card) && !onTable.has(slot.card));
    if (loose.length) {
      const row = el("div", {class: "hand", id: "offer"});
      for (const slot of loose) {
        const face = cardFace(slot.card, slot.age, el("div", {class: "marks"}, indicator(slot.indicator, "build")));
        face.classList.add("playable");
        face.addEventListener("click", () => { openCard = slot.card; drawDecision(); });
        row.append(face);
      }
      box.append(el("h3", {}, "Cards you may take"), row);
    }
    box.append(el("div", {id: "card-actions"}));
    if (openCard) drawActionsOf(openCard);
    else document.body.classList.remove("tray-open");
  } else {
    document.body.classList.remove("tray-open");
  }
}

function actionButton(entry) {
  let label = entry.text;
  if (entry.kind === "sell" && entry.gain !== undefined) label += ` for ${entry.gain} coin${entry.gain === 1 ? "" : "s"}`;
  if (entry.paid && !/\bpay(ing)?\b|\bfor \d+ coins?\b/.test(label)) label += ` — pay ${entry.paid} coins`;
  if (!entry.paid && entry.payment && entry.mark === "own") label += " — nothing to pay";
  const gives = spaceWords(entry.json || {});
  if (gives) label += ` — gives ${gives}`;
  const named = entry.json && typeof entry.json.token === "string" ? entry.json.token : entry.item;
  const token = typeof named === "string" && catalogue.tokens ? catalogue.tokens[named] : null;
  // what taking a token (activating an item) gives; a placement's items are drawn above it
  const placing = entry.space !== undefined && entry.kind !== "activate";
  if (token && token.effect && !placing) label += ` — ${token.effect}`;
  if (entry.mark === "trade") label += ` — ${entry.trade} coins for trade`;
  const where = typeof entry.space === "number" ? {"data-space": String(entry.space)} : {};
  return el("button", {...where, class: `action action-${entry.kind}`, "data-action-index": String(entry.index),
                       "data-kind": entry.kind, "data-trade": String(entry.trade), "data-paid": String(entry.paid || 0),
                       "data-payment": entry.payment ? JSON.stringify(entry.payment) : "",
                       onclick: () => act(entry)}, label);
}

function drawActionsOf(name) {
  const box = document.getElementById("card-actions");
  if (!box || !state.actions) return;
  const slot = state.actions.cards[name];
  box.replaceChildren();
  document.body.classList.toggle("tray-open", Boolean(slot));
  if (!slot) return;
  const close = el("button", {class: "tray-close", title: "close", onclick: () => closeTray()}, "✕");
  box.append(el("h3", {}, close, `${name}: what you can do`));
  if (slot.indicator && slot.indicator.why) {
    box.append(el("p", {class: "why-not tray-why", "data-why": "tray"}, `You cannot build it: ${slot.indicator.why}.`));
  }
  const list = el("div", {class: "choices", "data-card-actions": name});
  for (const index of slot.actions) list.append(actionButton(state.actions.actions[index]));
  box.append(list);
}

// The tray of a card's actions sits at the bottom of the window (in view wherever the card
// was tapped, a phone's pyramid included) until an action is played or it is closed.
document.addEventListener("keydown", (event) => { if (event.key === "Escape") closeTray(); });

function closeTray() {
  openCard = null;
  const box = document.getElementById("card-actions");
  if (box) box.replaceChildren();
  document.body.classList.remove("tray-open");
}

function showHint(message) {
  const box = document.getElementById("hint");
  if (!box) return;
  box.replaceChildren(el("p", {}, "The greedy bot would play:"),
    el("ol", {}, ...message.ranking.map((r) => el("li", {}, `${r.text} (value ${r.value})`))));
}

function drawBoard() {
  const box = document.getElementById("board");
  const view = state.view;
  box.replaceChildren();
  if (Array.isArray(view.row)) box.append(drawRow(view));
  if (view.chambers && Array.isArray(view.chambers.chambers)) box.append(drawSenate(view));
  if (view.held && Array.isArray(view.held.seats)) box.append(drawHeldStack(view));
  // (a structure whose cards are all taken, at an age's end, is not drawn)
  if (view.structure && view.structure.some((row) => row.some(Boolean))) box.append(drawStructure(view.structure));
  if (Array.isArray(view.forum)) box.append(drawForum(view));
  if (view.conflict !== undefined) box.append(drawTrack(view));
  if (view.wonder_pool && view.wonder_pool.length) {
    const row = el("div", {class: "wonders-row"});
    for (const name of view.wonder_pool) row.append(wonderCard(name));
    box.append(el("h3", {}, "Wonder draft"), row);
  }
  if (view.tokens) {
    for (const [pool, names] of Object.entries(view.tokens)) {
      if (!names.length) continue;
      box.append(el("h3", {}, `Tokens: ${pool}`),
        el("div", {class: "tokens"}, ...names.map((n) => el("span", {class: "token", title: tokenText(n)}, n))));
    }
  }
  if (view.discard_cards && view.discard_cards.length) {
    const row = el("div", {class: "hand small"});
    for (const name of view.discard_cards) row.append(cardFace(name, null));
    box.append(el("details", {class: "discard"}, el("summary", {}, `Discard pile (${view.discard_cards.length})`), row));
  } else if (view.discard_pile !== undefined) {
    box.append(el("p", {}, `Discard pile: ${view.discard_pile} cards (face down)`));
  }
  if (view.hand_sizes) box.append(el("p", {}, `Cards in hand: ${view.hand_sizes.map((n, s) => `${seatName(s)}: ${n}`).join(" · ")}`));
  // whatever else a loop's view holds, shown as it is (a new game gets a usable table)
  const known = new Set(["seat", "age", "turn", "phase", "to_move", "hand", "sides", "hand_sizes", "discard_pile",
    "discard_cards", "cities", "tokens", "structure", "conflict", "military_tokens", "wonder_pool", "trade",
    "forum", "last_turn", "row", "row_rules", "stacks", "drawn", "structure_tokens", "blocker",
    "chambers", "held", "either", "track_tokens"]);
  for (const [key, value] of Object.entries(view)) {
    if (known.has(key) || value === null || (Array.isArray(value) && !value.length)) continue;
    box.append(el("details", {class: "other-view", open: true}, el("summary", {}, key.replace(/_/g, " ")),
                  el("pre", {}, JSON.stringify(value, null, 1))));
  }
}

// The moves of the seat's described actions that act on a place of the table, by a key
// (a row's space, a structure place, a track space …): what a click there offers.
function boardActions(keyOf) {
  const found = {};
  if (!state.actions) return found;
  for (const entry of state.actions.actions) {
    const key = keyOf(entry);
    if (key !== null && key !== undefined) (found[key] = found[key] || []).push(entry);
  }
  return found;
}

function capital(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : text; }

// An item of a priced row (a token of the catalogue) as a small card: its name and effect.
function itemCard(name, extra) {
  const info = catalogue.tokens[name] || {};
  return el("div", {class: "token-card item-card", "data-item": name},
    el("div", {class: "token-name"}, name), extra || null,
    info.effect ? el("div", {class: "small"}, info.effect) : null);
}

// A priced row: each space with its item (face up, face down, or empty), what it costs
// each seat (printed, and now: less lasting discounts), and, for the seat deciding, the
// activations and placements it may make there (a click lists them in the tray).
function drawRow(view) {
  const rules = view.row_rules || {};
  const kind = rules.kind ? label(rules.kind) : "item";
  const me = state.seat === null || state.seat === undefined ? null : state.seat;
  const mine = view.cities.find((c) => c.seat === me);
  const bySpace = boardActions((e) => typeof e.space === "number" && (e.kind === "activate" || e.kind === "place") ? String(e.space) : null);
  const turn = state.actions && state.pending.kind === "turn";
  const early = rules.from_round && view.age < rules.from_round;
  const row = el("div", {class: "row-board", id: "row"});
  for (const space of view.row) {
    const entries = bySpace[String(space.space)] || [];
    const known = typeof space.item === "string";
    const face = space.face_up ? "up" : (space.filled ? "down" : "empty");
    const node = el("div", {class: `row-space ${face === "up" ? "face-up" : face === "down" ? "face-down" : "empty"}${entries.length ? " playable" : ""}`,
                            "data-space": String(space.space), "data-face": face, "data-item": known ? space.item : ""},
      el("div", {class: "space-number"}, `space ${space.space}`));
    if (known) {
      node.append(el("div", {class: "card-name"}, space.item));
      if (!space.face_up) node.append(el("div", {class: "small"}, "face down — you placed it"));
      const info = catalogue.tokens[space.item];
      if (info && info.effect) node.append(el("div", {class: "small item-effect"}, info.effect));
      if ((rules.double || []).includes(space.item)) node.append(el("div", {class: "small"}, "costs twice the space's price"));
    } else if (space.filled) {
      node.append(el("div", {class: "back-mark"}, "?"),
                  el("div", {class: "small"}, space.placed_by !== null && space.placed_by !== undefined ?
                    `face down, placed by ${seatName(space.placed_by)}` : "face down"));
    } else {
      node.append(el("div", {class: "small empty-word"}, "empty"));
    }
    // what it costs each seat: "you" first
    const prices = el("div", {class: "space-prices"});
    const order = me === null ? space.prices.map((_, s) => s) : [me, ...space.prices.map((_, s) => s).filter((s) => s !== me)];
    for (const seat of order) {
      const cost = space.costs ? space.costs[seat] : space.prices[seat];
      prices.append(el("div", {class: `space-price${seat === me ? " mine" : ""}`, "data-seat": String(seat), "data-cost": String(cost)},
        seat === me ? "you: " : `seat ${seat}: `, symbol("coins", cost, "price"),
        cost !== space.prices[seat] ? el("span", {class: "small"}, ` (printed ${space.prices[seat]})`) : null));
    }
    node.append(prices);
    const marks = el("div", {class: "marks"});
    const activations = entries.filter((e) => e.kind === "activate");
    if (activations.length) {
      const least = Math.min(...activations.map((e) => e.paid || 0));
      marks.append(el("span", {class: "mark mark-own", "data-mark": "activate", title: `you may activate it (${least} coins at least)`}, `✓ activate for ${least}`));
    } else if (entries.length) {
      marks.append(el("span", {class: "mark mark-own", "data-mark": "place", title: "you may place a drawn item here"}, "✓ place here"));
    } else if (turn && known && space.face_up && mine && !early) {
      const cost = space.costs ? space.costs[me] : space.prices[me];
      marks.append(el("span", {class: "mark mark-cannot", "data-mark": "cannot", title: "you cannot activate it now"}, "✗"),
                   el("span", {class: "why-not"}, `needs ${cost} coins; you have ${mine.coins}`));
    }
    if (marks.children.length) node.append(marks);
    if (entries.length) {
      node.addEventListener("click", () => showActions(`space ${space.space}${known ? `: ${space.item}` : ""}`, entries));
    }
    row.append(node);
  }
  const box = el("div", {class: "row-part"}, el("h3", {}, `The ${kind} row`), row);
  const notes = [];
  if (early) notes.push(`${capital(kind)} spaces may be activated instead of taking a card from age ${rules.from_round} on.`);
  else if (turn) notes.push(`Instead of taking a card, you may activate a face-up ${kind}: click its space.`);
  const stacks = Object.entries(view.stacks || {});
  if (stacks.length) notes.push(`Stacks (face down): ${stacks.map(([name, size]) => `${label(name)} ${size}`).join(" · ")}`);
  for (const note of notes) box.append(el("p", {class: "small row-note"}, note));
  return box;
}

// An English plural for a kind's name ("conspiracy" → "conspiracies").
function plural(word) {
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + "ies";
  return /(s|x|ch|sh)$/.test(word) ? word + "es" : word + "s";
}

// A board of chambers (the view's "chambers"): each section's chambers side by side, each
// with every seat's cubes, who controls it, its tokens (a decree: what it does, or face
// down), the points it scores at the end, and, for the seat deciding, the influence moves
// it may make there (a click lists them in the tray); the cubes each seat has left.
function drawSenate(view) {
  const board = view.chambers;
  const kind = label(board.kind || "token");
  const me = state.seat === null || state.seat === undefined ? null : state.seat;
  const seats = board.supply.map((_, s) => s);
  const order = me === null ? seats : [me, ...seats.filter((s) => s !== me)];
  const byChamber = boardActions((e) => typeof e.chamber === "number" ? String(e.chamber) : null);
  const into = boardActions((e) => typeof e.to === "number" && e.kind === "move" ? String(e.to) : null);
  const chamberNode = (number) => {
    const chamber = board.chambers[number - 1];
    const entries = byChamber[String(number)] || [];
    const control = chamber.control;
    const node = el("div", {class: `chamber${entries.length ? " playable" : ""}${control === me && me !== null ? " mine" : ""}` +
                                   `${control >= 0 ? ` control-${control === me ? "mine" : "other"}` : ""}`,
                            "data-chamber": String(number), "data-control": String(control),
                            "data-face": chamber.face_up ? "up" : "down"},
      el("div", {class: "space-number"}, `chamber ${number}`,
         board.points && board.points[number - 1] ? el("span", {class: "chamber-points", title: "points to its controller at the end"},
           ` · ${board.points[number - 1]} VP`) : null));
    const cubes = el("div", {class: "chamber-cubes"});
    for (const seat of order) {
      const count = chamber.cubes[seat];
      cubes.append(el("div", {class: `cubes seat-${seat === me ? "mine" : "other"}`, "data-seat": String(seat), "data-cubes": String(count),
                              title: `${seatName(seat)}: ${count} cube${count === 1 ? "" : "s"}`},
        el("span", {class: "cubes-who"}, seat === me ? "you" : `seat ${seat}`),
        el("span", {class: "cube-marks"}, "■".repeat(Math.min(count, 6)) + (count > 6 ? "…" : "")),
        el("b", {}, String(count))));
    }
    node.append(cubes);
    node.append(el("div", {class: "chamber-control", "data-control": String(control)},
      control < 0 ? (chamber.cubes.some((n) => n > 0) ? "controlled by nobody (a tie)" : "controlled by nobody") :
      `controlled by ${control === me ? "you" : seatName(control)}`));
    if (!chamber.face_up) {
      node.append(el("div", {class: "chamber-token token-face-down", "data-token": ""}, `${capital(kind)} face down`,
        el("div", {class: "small"}, "turns face up at the first cube placed here")));
    } else {
      for (const name of chamber.decrees || []) {
        node.append(el("div", {class: "chamber-token", "data-token": name}, el("b", {}, name),
          el("div", {class: "small token-effect"}, tokenText(name))));
      }
      if (!(chamber.decrees || []).length) node.append(el("div", {class: "small empty-word"}, `no ${kind}`));
    }
    const marks = el("div", {class: "marks"});
    const verbs = [...new Set(entries.map((e) => e.kind))];
    if (verbs.length) {
      const words = {place: "place a cube", remove: "remove a cube", move: "move a cube from here", decree: `move its ${kind}`};
      marks.append(el("span", {class: "mark mark-own", "data-mark": verbs.join(" ")}, `✓ ${verbs.map((v) => words[v] || v).join(" · ")}`));
    } else if ((into[String(number)] || []).length) {
      marks.append(el("span", {class: "small", "data-mark": "into"}, "a cube may move here"));
    }
    if (marks.children.length) node.append(marks);
    if (entries.length) node.addEventListener("click", () => showActions(`chamber ${number}`, entries));
    return node;
  };
  const senate = el("div", {class: "senate", id: "senate"});
  const placed = new Set();
  for (const [name, numbers] of Object.entries(board.sections || {})) {
    const section = el("div", {class: "senate-section", "data-section": name},
      el("div", {class: "section-name"}, capital(label(name))));
    const row = el("div", {class: "section-chambers"});
    for (const number of numbers) { row.append(chamberNode(number)); placed.add(number); }
    section.append(row);
    senate.append(section);
  }
  const rest = board.chambers.map((_, i) => i + 1).filter((n) => !placed.has(n));
  if (rest.length) senate.append(el("div", {class: "senate-section"}, el("div", {class: "section-chambers"}, ...rest.map(chamberNode))));
  const box = el("div", {class: "senate-part"}, el("h3", {}, "The Senate"), senate);
  box.append(el("p", {class: "small", id: "cubes-left"}, "Cubes left: ",
    ...order.map((seat, i) => el("span", {"data-seat": String(seat), "data-left": String(board.supply[seat])},
      `${i ? " · " : ""}${seat === me ? "you" : seatName(seat)} ${board.supply[seat]}`))));
  box.append(el("p", {class: "small row-note"},
    `The seat with more cubes in a chamber controls it (a tie: nobody) and its ${kind} works for it; controlling every chamber wins at once.`));
  return box;
}

// The stack of held tokens (the view's "held") and tokens drawn by another seat.
function drawHeldStack(view) {
  const held = view.held;
  const kind = label(held.kind || "token");
  const drawn = typeof held.drawn === "number" && held.drawn ? ` · ${held.drawn} drawn, being chosen from` : "";
  return el("p", {class: "small", id: "held-stack", "data-stack": String(held.stack)},
            `${capital(plural(kind))}: ${held.stack} in the face-down stack${drawn}`);
}

// A seat's held tokens in its city panel: the player's own by name (what each does,
// prepared or not, triggered), clickable where a move acts on one (trigger, prepare with
// a card); another seat's as a count, those it triggered by name.
function heldOf(view, seat) {
  const held = view.held;
  if (!held || !Array.isArray(held.seats) || !held.seats[seat] || !held.seats[seat].length) return null;
  const kind = label(held.kind || "token");
  const tokens = held.seats[seat];
  const moves = boardActions((e) => typeof e.held === "string" && e.kind !== "keep" ? e.held : null);
  const box = el("div", {class: "held-tokens", "data-held-seat": String(seat), "data-count": String(tokens.length)});
  const hidden = tokens.filter((t) => t.name === null);
  const prepared = hidden.filter((t) => t.prepared).length;
  box.append(el("div", {class: "small"}, `${capital(plural(kind))}: ${tokens.length}` +
    (hidden.length ? ` (${hidden.length} face down${prepared ? `, ${prepared} prepared` : ""})` : "")));
  const row = el("div", {class: "progress-row"});
  for (const token of tokens) {
    if (token.name === null) continue;
    const status = token.triggered ? "triggered" : token.prepared ? "prepared" : "waiting";
    const words = token.triggered ? "triggered (used)" : token.prepared ? "prepared: may be triggered as a turn starts" :
      "not prepared: tuck a card you take under it";
    const node = itemCard(token.name, el("div", {class: `small held-state held-${status}`}, words));
    node.classList.add("held-token");
    node.dataset.held = token.name;
    node.dataset.state = status;
    const entries = seat === state.seat ? (moves[token.name] || []) : [];
    if (entries.length) {
      const verbs = [...new Set(entries.map((e) => e.kind))];
      node.classList.add("playable");
      node.append(el("div", {class: "marks"}, el("span", {class: "mark mark-own", "data-mark": verbs.join(" ")},
        `✓ ${verbs.join(" · ")}${verbs.includes("prepare") ? ` (${entries.length} card${entries.length === 1 ? "" : "s"})` : ""}`)));
      node.addEventListener("click", () => showActions(`${token.name}: what you can do`, entries));
    }
    row.append(node);
  }
  if (row.children.length) box.append(row);
  return box;
}

function tokenText(name) {
  const token = catalogue.tokens[name];
  return token ? token.effect : name;
}

function wonderCard(name) {
  const sides = catalogue.wonders[name] || {};
  const stages = Object.values(sides)[0];
  return el("div", {class: "wonder", "data-wonder": name}, el("div", {class: "card-name"}, name),
    stages ? el("div", {class: "card-effect"}, stages.stages.map((s) => `${s.cost}: ${s.effect}`).join(" · ")) : null);
}

// The half-card columns every structure of the game spans: from the catalogue's layouts
// (so every age's rows share one grid and stay centred as cards are taken), else from the
// cards still laid out.  A card at column c lies on half-columns c-1 and c+1 of the row
// below, so it covers half of each of the two cards under it.
function structureColumns(rows) {
  const columns = [];
  for (const layout of Object.values((catalogue && catalogue.layouts) || {})) {
    for (const row of layout) columns.push(...row);
  }
  if (!columns.length) for (const row of rows) for (const place of row) if (place) columns.push(place.column);
  return {low: Math.min(...columns), high: Math.max(...columns)};
}

function drawStructure(rows) {
  const grid = el("div", {class: "structure", id: "structure"});
  const {low, high} = structureColumns(rows);
  // CSSOM properties, not a style attribute: the page's Content-Security-Policy allows these
  grid.style.setProperty("--halves", String(high - low + 2));
  const described = state.actions;
  // the tokens lying on cards (a priced row's), and the places a move names (a card to
  // discard), by "row:card" (1-based, as a move names a place)
  const tokens = {};
  for (const token of state.view.structure_tokens || []) {
    if (token.row !== undefined) tokens[`${token.row}:${token.card}`] = token.token;
  }
  const picks = boardActions((e) => Array.isArray(e.place) ? e.place.join(":") : null);
  rows.forEach((row, r) => {
    const line = el("div", {class: "structure-row", "data-row": String(r)});
    row.forEach((place, c) => {
      if (!place) return;   // a card taken already
      const where = `${r + 1}:${c + 1}`;
      let node;
      if (place.card === null) {
        node = el("div", {class: "card face-down", "data-face": "down"}, el("span", {class: "back-mark"}, "?"));
      } else {
        const slot = described ? described.cards[place.card] : null;
        const extra = slot ? el("div", {class: "marks"}, indicator(slot.indicator, "build")) : null;
        node = cardFace(place.card, state.view.age, extra);
        if (place.accessible) node.classList.add("accessible");
        if (slot) {
          node.classList.add("playable");
          node.addEventListener("click", () => { openCard = place.card; drawDecision(); });
        }
      }
      node.dataset.column = String(place.column);
      node.dataset.place = where;
      node.style.gridColumn = `${place.column - low + 1} / span 2`;
      if (tokens[where]) {
        node.append(el("span", {class: "slot-token", "data-token": tokens[where],
                                title: `${tokens[where]}: taken by whoever turns this card face up — ${tokenText(tokens[where])}`},
                       tokens[where]));
      }
      const entries = picks[where] || [];
      if (entries.length) {
        node.classList.add("playable", "pickable");
        node.addEventListener("click", (event) => {
          event.stopPropagation();
          showActions(`${place.card || "the face-down card"} (row ${r + 1}, card ${c + 1})`, entries);
        });
      }
      line.append(node);
    });
    grid.append(line);
  });
  return el("div", {}, el("h3", {}, "The card structure"), grid);
}

function drawTrack(view) {
  const military = catalogue.military || {};
  const end = military.supremacy || 9;
  const zones = military.zones || [];
  const track = el("div", {class: "track", id: "track", "data-conflict": String(view.conflict)});
  if (view.blocker !== undefined && view.blocker !== null) track.dataset.blocker = String(view.blocker);
  const spaces = boardActions((e) => typeof e.track === "number" ? String(e.track) : null);
  const picks = boardActions((e) => Array.isArray(e.military) ? e.military.join(":") : null);
  // the military tokens still on the track: [zone, seat] (the seat that loses the coins),
  // each at its zone's first space on that seat's half
  const onTrack = {};
  for (const [index, side] of view.military_tokens || []) {
    const zone = zones[index];
    if (zone) onTrack[(side === 0 ? -1 : 1) * zone.from] = {zone, side};
  }
  for (let at = -end; at <= end; at++) {
    const distance = Math.abs(at);
    const reached = zones.filter((z) => distance >= z.from);
    const zone = reached[reached.length - 1];
    const blocked = view.blocker === at;
    const entries = spaces[String(at)] || [];
    const cell = el("span", {class: `cell${at === view.conflict ? " pawn" : ""}${zone ? ` zone zone-${reached.length}` : ""}` +
                                    `${blocked ? " blocker" : ""}${entries.length ? " pickable" : ""}`,
                             "data-at": String(at),
                             title: (zone ? `${zone.points} points${zone.lose ? `, loses ${zone.lose} coins` : ""}` : "") +
                                    (blocked ? " — blocked: the pawn stops before this space, once" : "")},
                    el("span", {class: "cell-mark"}, at === view.conflict ? "◆" : (blocked ? "▮" : (distance === end ? "★" : String(distance)))));
    const token = onTrack[at];
    if (token) {
      const key = `${token.zone.from}:${token.side}`;
      const chosen = picks[key] || [];
      const chip = el("span", {class: `track-token${chosen.length ? " pickable" : ""}`, "data-zone": String(token.zone.from),
                               "data-side": String(token.side),
                               title: `a military token: ${seatName(token.side)} loses ${token.zone.lose} coins when the pawn reaches it`},
                      `−${token.zone.lose}`);
      if (chosen.length) {
        chip.addEventListener("click", (event) => { event.stopPropagation(); showActions(`the military token on ${seatName(token.side)}'s side`, chosen); });
      }
      cell.append(chip);
    }
    if (entries.length) cell.addEventListener("click", () => showActions(`space ${at} of the conflict track`, entries));
    track.append(cell);
  }
  // tokens with effects on the track (taken by the seat whose shields push the pawn in)
  const laid = [];
  for (const [index, side, name] of view.track_tokens || []) {
    const zone = zones[index];
    if (!zone) continue;
    const at = (side === 0 ? -1 : 1) * zone.from;
    const cell = track.querySelector(`.cell[data-at="${at}"]`);
    if (cell) cell.append(el("span", {class: "track-token effect-token", "data-token": name, title: `${name}: ${tokenText(name)}`}, "◈"));
    laid.push(el("li", {"data-token": name}, el("b", {}, `${name}`), ` (space ${zone.from} on ${seatName(side)}'s side): ${tokenText(name)}`));
  }
  const left = el("span", {class: "track-end"}, seatName(0));
  const right = el("span", {class: "track-end"}, seatName(1));
  const legend = view.blocker !== undefined && view.blocker !== null ?
    el("p", {class: "small", id: "blocker"}, `▮ blocks space ${view.blocker}: the pawn stops before it, once`) : null;
  const tokens = laid.length ? el("details", {class: "small track-tokens", id: "track-tokens"},
    el("summary", {}, `◈ Tokens on the track (${laid.length}): taken by whoever moves the pawn onto them`), el("ul", {}, ...laid)) : null;
  return el("div", {}, el("h3", {}, "Conflict track"), el("div", {class: "track-line"}, left, track, right), legend, tokens);
}

// Where the seats sit round the table as this page sees it: its own city at the bottom,
// the left and right neighbours (the markets of the view's "trade" name them; else seat
// order: the left neighbour of seat i is i + 1) on the left and right, the others across
// the top in the order they sit; with two seats, the other one across.
function seating(view) {
  const count = view.cities.length;
  const me = state.seat === null || state.seat === undefined ? 0 : state.seat;
  let left = (me + 1) % count;
  let right = (me - 1 + count) % count;
  for (const [where, market] of Object.entries(view.trade || {})) {
    if (market && market.seat !== undefined && where === "left") left = market.seat;
    if (market && market.seat !== undefined && where === "right") right = market.seat;
  }
  if (count < 3) return {me, left: null, right: null, far: count === 2 ? [(me + 1) % 2] : []};
  const far = [];
  for (let seat = (left + 1) % count; seat !== right && seat !== me; seat = (seat + 1) % count) far.push(seat);
  return {me, left, right, far};
}

function drawCities() {
  const box = document.getElementById("cities");
  const view = state.view;
  const bySeat = {};
  for (const city of view.cities) bySeat[city.seat] = city;
  const spots = seating(view);
  const sheet = view.cities.some((c) => c.crossed !== undefined) && sheets();
  const grid = el("div", {class: `seating${spots.left === null ? " two" : ""}${sheet ? " sheets" : ""}`, id: "seating"});
  const panel = (seat, place, where) => {
    const city = bySeat[seat];
    if (!city) return null;
    const node = city.crossed !== undefined && sheets() ? drawSheet(city) : cityPanel(city);
    node.classList.add(where);
    node.dataset.place = place;
    node.querySelector("h3").append(el("span", {class: "place small"}, place));
    return node;
  };
  const mine = state.seat === null || state.seat === undefined ? "seen from here" : "you";
  if (spots.far.length) {
    const across = el("div", {class: "far", id: "far-cities"});
    for (const seat of spots.far) across.append(panel(seat, spots.left === null ? "your opponent" : "across the table", "across"));
    grid.append(across);
  }
  if (spots.left !== null) grid.append(panel(spots.left, "your left neighbour", "nb-left"));
  // the table's middle (the structure, the forum, the discard pile) between the seats
  const middle = document.getElementById("board");
  if (middle) grid.append(middle);
  if (spots.right !== null) grid.append(panel(spots.right, "your right neighbour", "nb-right"));
  grid.append(panel(spots.me, mine, "me"));
  box.replaceChildren(grid);
}

// The counted symbols of a city: coins, shields, what it produces, its science symbols.
function citySymbols(city) {
  const found = (state.symbols || [])[city.seat] || {};
  const row = el("span", {class: "city-symbols", "data-symbols": String(city.seat)},
    symbol("coins", city.coins, "coins"), symbol("shields", city.shields, "shields"));
  if (city.aside) {   // coins laid on a source, out of the treasury ("coins N aside")
    row.append(el("span", {class: "aside-coins", "data-aside": String(city.aside),
                           title: "coins laid aside: spent after the treasury's, safe from losses"},
                  `+${city.aside} aside`));
  }
  const produces = found.produces;
  if (produces) {
    const items = [...Object.entries(produces.fixed).map(([r, n]) => symbol(r, n, "produces")),
                   ...produces.choices.map((c) => symbol(c, 1, "produces"))];
    if (items.length) row.append(el("span", {class: "sym-group", title: "what the city produces each turn"}, ...items));
  }
  const science = found.science;
  if (science) {
    const items = [...Object.entries(science.fixed).map(([r, n]) => symbol(r, n, "science")),
                   ...science.choices.map((c) => symbol(c, 1, "science"))];
    if (items.length) row.append(el("span", {class: "sym-group science", title: "science symbols"}, ...items));
  }
  return row;
}

function cityPanel(city) {
    const seat = city.seat;
    const chosen = state.pending.chosen.includes(seat);
    const deciding = state.pending.seats.includes(seat);
    const title = el("h3", {}, seatName(seat), city.wonder ? ` — ${city.wonder}${city.side ? " " + city.side : ""}` : "",
                     deciding ? el("span", {class: chosen ? "badge done" : "badge"}, chosen ? " chosen" : " choosing…") : null);
    const view = state.view;
    const info = el("div", {class: "city-stats"}, citySymbols(city));
    const board = city.wonder && city.side && catalogue.wonders[city.wonder] ? catalogue.wonders[city.wonder][city.side] : null;
    if (board) info.append(el("span", {}, `wonder stages ${city.stages}/${board.stages.length}`));
    const node = el("div", {class: `city panel${seat === state.seat ? " mine" : ""}`, "data-city": String(seat)}, title, info);
    const production = state.production[seat] || [];
    if (production.length) {
      node.append(el("details", {class: "production"}, el("summary", {}, "Production in words"), production.join(" · ")));
    }
    if (board && board.start) node.append(el("div", {class: "small"}, `Board: ${board.start}`));
    const byColour = {};
    for (const name of city.built || []) {
      const info = cardInfo(name, null);
      const colour = info ? info.colour : "none";
      (byColour[colour] = byColour[colour] || []).push(name);
    }
    const built = el("div", {class: "built"});
    for (const [colour, names] of Object.entries(byColour)) {
      built.append(el("div", {class: "colour-group"}, ...names.map((n) => el("span", {class: `chip colour-${colour}`, title: (cardInfo(n, null) || {}).effect || ""}, n))));
    }
    node.append(built);
    // the wonders built (marked so) and those still to build: a built one stays in the city
    const builtWonders = city.built_wonders || [];
    const allWonders = [...builtWonders, ...(city.wonders || []).filter((w) => !builtWonders.includes(w))];
    if (allWonders.length) {
      node.append(el("div", {class: "city-wonders"}, "Wonders: ", ...allWonders.map((w) => {
        const built = builtWonders.includes(w);
        return el("span", {class: built ? "chip built-wonder" : "chip", "data-wonder": w,
                           "data-built": built ? "yes" : "no", title: wonderText(w)}, w + (built ? " ✔ built" : ""));
      })));
    }
    const trade = tradeOf(view, seat);
    if (trade) node.append(trade);
    const tokens = city.tokens || [];
    if (tokens.length) {
      const sum = tokens.reduce((total, t) => total + Number(t[1] || 0), 0);
      node.append(el("div", {class: "small military-tokens", "data-tokens": String(tokens.length), "data-sum": String(sum)},
        "Military: ", ...tokens.map((t) => el("span", {class: `conflict-token ${Number(t[1]) < 0 ? "battle" : "peace"}`,
                                                  title: t.join(" ")}, `${Number(t[1]) > 0 ? "+" : ""}${t[1]}`)),
        ` = ${sum > 0 ? "+" : ""}${sum} points`));
    }
    const held = heldOf(view, seat);
    if (held) node.append(held);
    if (city.owned_tokens && city.owned_tokens.length) {
      // by kind (the catalogue's): progress tokens, and a priced row's items and tokens
      const byKind = {};
      for (const name of city.owned_tokens) {
        const kind = (catalogue.tokens[name] || {}).kind || "token";
        (byKind[kind] = byKind[kind] || []).push(name);
      }
      for (const [kind, names] of Object.entries(byKind)) {
        node.append(el("div", {class: "owned-tokens", "data-kind": kind}, `${capital(label(kind))}: `,
          ...names.map((t) => el("span", {class: `token token-${kind}`, "data-token": t, title: tokenText(t)}, t))));
      }
    }
    return node;
}

// What the seat playing here may buy and at what price (the view's "trade"): a market
// that names a seat (a neighbour) shows in that seat's panel, one that names none (the
// bank) in the player's own.  Spectators have no seat, so no prices of theirs.
function tradeOf(view, seat) {
  if (!view.trade || state.seat === null || state.seat === undefined) return null;
  const lines = [];
  for (const [where, market] of Object.entries(view.trade)) {
    if (!market || !market.prices) continue;
    const here = market.seat === undefined ? seat === state.seat : market.seat === seat;
    if (!here) continue;
    const who = market.seat === undefined ? `from the ${where.replace(/_/g, " ")}` : `from this city (your ${where.replace(/_/g, " ")})`;
    const prices = Object.entries(market.prices).map(([resource, price]) =>
      el("span", {class: "price", "data-resource": resource, "data-price": String(price),
                  title: `one ${resource} costs you ${price} coin${price === 1 ? "" : "s"}`},
         symbol(resource), "→", symbol("coins", price)));
    const line = el("div", {class: "trade", "data-trade": where, "data-trade-seat": String(seat)},
                    `You buy ${who}: `, ...prices);
    if (market.offers) {
      line.append(el("div", {class: "offers small", "data-offers": String(market.offers.length)}, "For sale: ",
        ...(market.offers.length ? market.offers.map((unit) => symbol(unit, undefined, "offer")) : ["nothing"])));
    }
    lines.push(line);
  }
  return lines.length ? el("div", {class: "trades"}, ...lines) : null;
}

// --- a dice-forum game: the shared forum of dice and each player's sheet ---------------
// Drawn from the view's shape (a "forum" of dice, cities with "crossed" spaces) and the
// catalogue's "sheets" (the buildings, spaces, bonuses and boards the view names by key).

function sheets() { return catalogue && catalogue.sheets ? catalogue.sheets : null; }

function buildingOf(key) {
  const found = sheets() ? sheets().buildings.find((b) => b.key === key) : null;
  return found || {key, name: key, colour: "none", spaces: []};
}

function label(text) { return String(text).replace(/_/g, " "); }

// The data's words for what a view names by key: a die ("grey die 2"), a bonus (its effect).
function dieLabel(name) {
  const die = sheets() ? sheets().dice.find((d) => d.name === name) : null;
  return die && die.label ? die.label : label(name);
}

function bonusLabel(name) {
  const bonus = sheets() ? sheets().bonuses.find((b) => b.name === name) : null;
  return bonus && bonus.label ? bonus.label : label(name);
}

function drawForum(view) {
  const row = el("div", {class: "forum", id: "forum"});
  for (const die of view.forum) {
    const building = buildingOf(die.building);
    const face = die.symbol === null ? "any next space" : label(die.symbol);
    const gate = die.compare ? el("div", {class: "small gate"}, `only if your ${buildingOf(die.compare).name} matches your neighbours'`) : null;
    row.append(el("div", {class: `die colour-${die.colour}`, "data-die": die.die, "data-price": String(die.price),
                          "data-quadrant": String(die.quadrant),
                          title: `${dieLabel(die.die)}: crosses ${building.name} (${face}); costs ${die.price} coins to take`},
      el("div", {class: "card-name"}, dieLabel(die.die)),
      el("div", {}, `${building.name}: `, die.symbol === null ? face : symbol(die.symbol, undefined, "die"), die.symbol === null ? "" : ` ${face}`),
      gate,
      special(die.die),
      el("div", {class: "die-price"}, `quadrant ${die.quadrant + 1} · price ${die.price}`)));
  }
  const box = el("div", {}, el("h3", {}, "The forum: dice shaken this turn"), row);
  const inForum = new Set(view.forum.map((d) => d.die));
  const waiting = sheets() ? sheets().dice.filter((d) => !inForum.has(d.name) && !d.start) : [];
  if (waiting.length) {
    box.append(el("p", {class: "small", id: "waiting-dice"}, "Locked dice (a space unlocks them): " +
      waiting.map((d) => `${dieLabel(d.name)}${d.replaces ? ` (replaces a ${d.replaces} die)` : ""}`).join(", ")));
  }
  if (sheets() && sheets().pass) box.append(el("p", {class: "small"}, `Passing: ${sheets().pass}`));
  return box;
}

// A die that is not in the forum from the start (a space unlocked it) is marked special.
function special(name) {
  const die = sheets() ? sheets().dice.find((d) => d.name === name) : null;
  if (!die || die.start) return null;
  return el("div", {class: "small special", "data-special": "yes"},
            `special die${die.replaces ? ` (in place of a ${die.replaces} die)` : ""}`);
}

// The spaces the seat may cross now (from its described actions), by "building:space".
function crossable() {
  const found = {};
  if (!state.actions) return found;
  for (const entry of state.actions.actions) {
    const json = entry.json || {};
    if (json.building === undefined || json.space === undefined) continue;
    (found[`${json.building}:${json.space}`] = found[`${json.building}:${json.space}`] || []).push(entry);
  }
  return found;
}

function showActions(title, entries) {
  const box = document.getElementById("card-actions");
  if (!box) return;
  const close = el("button", {class: "tray-close", title: "close", onclick: () => closeTray()}, "✕");
  box.replaceChildren(el("h3", {}, close, title),
    el("div", {class: "choices", "data-space-actions": title}, ...entries.map(actionButton)));
  document.body.classList.add("tray-open");
}

// What a dice sheet's space gives, in the data's words (an action naming building and space).
function spaceWords(json) {
  if (!sheets() || json.building === undefined || json.space === undefined) return "";
  const space = (buildingOf(json.building).spaces || [])[json.space];
  if (!space) return "";
  return [space.effect, space.attack ? `attack ${space.attack}` : "", space.defence ? "defence" : "",
          space.unlock ? `unlocks the ${space.unlock} die` : "",
          space.die_discount ? `dice cost ${space.die_discount} less` : ""].filter(Boolean).join("; ");
}

function drawSheet(city) {
  const seat = city.seat;
  const info = sheets();
  const mine = seat === state.seat;
  const chosen = state.pending.chosen.includes(seat);
  const deciding = state.pending.seats.includes(seat);
  const player = state.score_sheet ? state.score_sheet.players.find((p) => p.seat === seat) : null;
  const board = info.boards[city.board] || [];
  const node = el("div", {class: `city panel sheet${mine ? " mine" : ""}`, "data-city": String(seat)},
    el("h3", {}, seatName(seat), city.board ? ` — ${city.board}` : "",
       deciding ? el("span", {class: chosen ? "badge done" : "badge"}, chosen ? " chosen" : " choosing…") : null));
  const stats = el("div", {class: "city-stats"},
    el("span", {class: "coins", "data-coins": String(city.coins)}, `${city.coins}/${info.reserve} coins`),
    el("span", {}, `wonder stages ${city.stages}/${board.length}`),
    player ? el("span", {class: "points", "data-points": String(player.total)}, `${player.total} points`) : null);
  node.append(stats);
  const extras = [];
  if (city.resources && city.resources.length) extras.push(`resources: ${city.resources.map(label).join(", ")}`);
  if (city.die_discount) extras.push(`dice cost ${city.die_discount} less`);
  if (city.attacks && Object.keys(city.attacks).length) {
    extras.push("attacks: " + Object.entries(city.attacks).map(([k, v]) => `${label(k)} ${v}`).join(", "));
  }
  if (city.unlocked && city.unlocked.length) extras.push(`unlocked dice: ${city.unlocked.map(dieLabel).join(", ")}`);
  if (extras.length) node.append(el("div", {class: "production"}, extras.join(" · ")));
  const open = mine ? crossable() : {};
  const table = el("div", {class: "buildings"});
  for (const building of info.buildings) {
    const crossed = new Set((city.crossed || {})[building.key] || []);
    const line = el("div", {class: "building", "data-building": building.key},
      el("span", {class: `building-name chip colour-${building.colour}`,
                  title: building.first ? `${building.first} points to the first to complete it` : ""},
         `${building.name}${building.side ? ` (${building.side})` : ""}`));
    building.spaces.forEach((space, index) => {
      const isCrossed = crossed.has(index);
      const entries = open[`${building.key}:${index}`] || [];
      const words = [space.effect, space.attack ? `attack ${space.attack}` : "", space.defence ? "defence" : "",
                     space.unlock ? `unlocks the ${space.unlock} die` : "",
                     space.die_discount ? `dice cost ${space.die_discount} less` : ""].filter(Boolean).join("; ");
      const cell = el("span", {class: `space${isCrossed ? " crossed" : ""}${entries.length ? " crossable" : ""}`,
                               "data-space": String(index), "data-crossed": isCrossed ? "yes" : "no",
                               title: `${label(space.symbol)}, needs ${space.cost} resource type${space.cost === 1 ? "" : "s"}: ${words}`},
        isCrossed ? el("span", {class: "cross-mark"}, "✗") : null,
        space.symbol ? symbol(space.symbol, undefined, "space") : "·", el("sub", {}, String(space.cost)));
      if (entries.length) {
        cell.addEventListener("click", () => {
          if (entries.length === 1) act(entries[0]);
          else showActions(`${building.name}, space ${index + 1}`, entries);
        });
      }
      line.append(cell);
    });
    table.append(line);
  }
  node.append(table);
  if (mine) {   // the own sheet's spaces in words, one tap away (a phone has no hover)
    node.append(el("details", {class: "sheet-words small", id: "sheet-words"}, el("summary", {}, "What each space gives"),
      el("ul", {}, ...info.buildings.map((building) => el("li", {"data-building": building.key}, el("b", {}, `${building.name}: `),
        building.spaces.map((space, i) => `${i + 1}. ${label(space.symbol) || "any"} (${space.cost} type${space.cost === 1 ? "" : "s"}): ${spaceWords({building: building.key, space: i}) || "nothing"}`).join(" · "))))));
  }
  if (board.length) {
    node.append(el("div", {class: "small stages"}, "Wonder: ", ...board.map((stage, i) =>
      el("span", {class: `chip${i < city.stages ? " built-wonder" : ""}`, "data-stage": String(i)},
         `${i + 1}. needs ${stage.cost} resource type${stage.cost === 1 ? "" : "s"}: ${stage.effect}${i < city.stages ? " ✔" : ""}`))));
  }
  if (info.bonuses.length) {
    const taken = new Set(city.bonuses || []);
    node.append(el("div", {class: "small bonuses"}, "Bonuses: ", ...info.bonuses.map((bonus) =>
      el("span", {class: `chip${taken.has(bonus.name) ? " built-wonder" : ""}`, "data-bonus": bonus.name,
                  title: bonus.effect || (bonus.cross.length ? `cross a space of ${bonus.cross.map((k) => buildingOf(k).name).join(" or ")}` : "")},
         bonusLabel(bonus.name) + (taken.has(bonus.name) ? " ✔" : "")))));
  }
  return node;
}

function wonderText(name) {
  const sides = catalogue.wonders[name] || {};
  const board = Object.values(sides)[0];
  return board ? board.stages.map((s) => `${s.cost}: ${s.effect}`).join(" · ") : name;
}

function drawScores() {
  const box = document.getElementById("scores");
  const sheet = state.score_sheet;
  box.replaceChildren();
  if (!sheet) return;
  const head = el("tr", {}, el("th", {}, ""), ...sheet.players.map((p) => el("th", {}, seatName(p.seat))));
  const rows = sheet.order.map((line) => el("tr", {}, el("th", {}, line),
    ...sheet.players.map((p) => el("td", {}, String(p.lines[line])))));
  const total = el("tr", {class: "total"}, el("th", {}, "total"), ...sheet.players.map((p) => el("td", {}, String(p.total))));
  const table = el("table", {class: "score-sheet", id: "score-sheet"}, head, ...rows, total);
  const heading = state.over ? "Final score sheet" : "Score so far";
  box.append(el("h2", {}, heading), table);
  const copies = sheet.players.filter((p) => p.copied && p.copied.length);
  if (copies.length) {
    box.append(el("p", {}, "Copied: " + copies.map((p) => `${seatName(p.seat)} copies ${p.copied.join(", ")}`).join(" · ")));
  }
  if (state.over) {
    box.append(el("p", {class: "winner", id: "winner"},
      `Winner: ${sheet.winners.map(seatName).join(", ")}` +
      // the kind of victory only where the rules have more than one (a supremacy)
      (sheet.victory && (catalogue.victories || []).length > 1 ? ` (${sheet.victory} victory)` : "") +
      (sheet.winners.length > 1 ? " — a shared victory" : "")));
    if (state.seat !== null && state.seat !== undefined) {
      box.append(el("button", {type: "button", id: "rematch", class: "rematch", onclick: () => rematch()}, "Rematch: a new table, the same seats"),
                 el("div", {id: "rematch-links"}));
    }
  }
}

// A new table like this one (the game, its seats' kinds, sides, hints, mode and speed),
// made as the lobby makes one; this page then opens its own seat there, after showing the
// other human seats' links when there are any (each link holds its seat's secret).
async function rematch() {
  const links = document.getElementById("rematch-links");
  const table = state.table;
  const session = await fetch("/api/session", {credentials: "same-origin"}).then((r) => r.json()).catch(() => ({}));
  const request = {game: table.game, players: table.players, seats: table.seats, hints: Boolean(table.hints),
                   mode: table.mode || "normal", speed: table.speed || "untimed"};
  if (table.sides) request.sides = table.sides;
  let answer = null;
  let body = {};
  try {
    answer = await fetch("/api/tables", {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": session.csrf || ""}, body: JSON.stringify(request)});
    body = await answer.json();
  } catch (error) {
    body = {error: "the server did not answer"};
  }
  if (!answer || !answer.ok) {
    links.replaceChildren(el("p", {class: "error"}, `no rematch: ${body.error || "refused"}`));
    return;
  }
  const mine = body.seats.find((s) => s.seat === state.seat);
  const others = body.seats.filter((s) => s.link && s.seat !== state.seat);
  const open = mine && mine.link ? new URL(mine.link, location.href).href : new URL(body.spectate, location.href).href;
  if (!others.length) { location.assign(open); return; }
  links.replaceChildren(el("p", {}, "Send each other player their link, then open yours:"),
    el("ul", {id: "rematch-seats"}, ...others.map((s) => {
      const url = new URL(s.link, location.href).href;
      return el("li", {}, `seat ${s.seat}: `, el("a", {href: url, "data-seat": String(s.seat), class: "join"}, url));
    })),
    el("a", {href: open, id: "rematch-open", class: "rematch-open"}, "Open my seat at the new table"));
}

// What the last decision did (the server's recap, as this seat may see it): each seat's
// move with the coins it paid and to whom, the coins that changed hands, the end-of-age
// battles apart from the builds (a tie shown as a tie), and what happened to the table.
function drawRecap() {
  const box = document.getElementById("recap");
  const recap = state.recap;
  box.replaceChildren();
  if (!recap) return;
  const when = recap.age ? `age ${recap.age}` : "before the first age";
  box.append(el("h2", {}, `Last decision (${when})`),
    el("ul", {class: "recap-moves", id: "recap-moves"}, ...recap.moves.map((move) =>
      el("li", {"data-seat": String(move.seat), "data-kind": move.kind || ""}, `${seatName(move.seat)} ${move.text}`))));
  if (recap.coins.length) {
    box.append(el("p", {class: "recap-coins small", id: "recap-coins"}, "Coins: " +
      recap.coins.map((c) => `${seatName(c.seat)} ${c.from} → ${c.to}`).join(" · ")));
  }
  if (recap.battles.length) {
    box.append(el("h3", {}, `Battles at the end of age ${recap.age}`));
    const lines = el("ul", {class: "recap-battles", id: "recap-battles"}, ...recap.battles.map((line) => el("li", {}, line)));
    // with the summary drawn, the same battles in words are one tap away
    box.append(...(recap.military ? [militarySummary(recap.military), el("details", {class: "battle-words"}, el("summary", {}, "in words"), lines)] : [lines]));
  }
  if (recap.table.length) {
    box.append(el("ul", {class: "recap-table", id: "recap-table"}, ...recap.table.map((line) => el("li", {}, line))));
  }
}

// The age's battles at a glance: each pair of neighbours with the shields compared (the
// winner's side marked), then the tokens each seat won, as chips with their points.
function militarySummary(military) {
  const box = el("div", {class: "military-summary", id: "military-summary"});
  for (const pair of military.pairs) {
    const [a, b] = pair.seats;
    const side = (seat, count) => el("span", {class: `battle-side${pair.winner === seat ? " won" : ""}${pair.winner !== null && pair.winner !== seat ? " lost" : ""}`,
                                              "data-seat": String(seat)}, seatName(seat), " ", symbol("shields", count, "battle"));
    box.append(el("div", {class: "battle-pair", "data-seats": `${a} ${b}`, "data-winner": pair.winner === null ? "tie" : String(pair.winner)},
      side(a, pair.shields[0]), el("span", {class: "versus"}, pair.winner === null ? " ties " : pair.winner === a ? " beats " : " loses to "),
      side(b, pair.shields[1])));
  }
  const won = el("div", {class: "battle-tokens"});
  military.tokens.forEach((tokens, seat) => {
    if (!tokens.length) return;
    const sum = tokens.reduce((total, t) => total + Number(t[1]), 0);
    won.append(el("span", {class: "battle-won", "data-seat": String(seat), "data-sum": String(sum)}, `${seatName(seat)}: `,
      ...tokens.map((t) => el("span", {class: `conflict-token ${Number(t[1]) < 0 ? "battle" : "peace"}`, title: t.join(" ")},
                              `${Number(t[1]) > 0 ? "+" : ""}${t[1]}`)), ` (${sum > 0 ? "+" : ""}${sum})`));
  });
  box.append(won);
  return box;
}

function drawEvents() {
  const box = document.getElementById("events");
  box.replaceChildren(el("h2", {}, "What happened"), el("ul", {}, ...state.events.slice().reverse().map((e) => el("li", {}, e))));
}

// The replay page (replay.js) feeds states it fetched to the same drawing: no socket there.
function drawState(gameCatalogue, message) {
  catalogue = gameCatalogue;
  state = message;
  render();
}

if (document.body.dataset.page !== "replay") connect();
