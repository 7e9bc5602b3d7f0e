// A decks game on the table page (a flow game whose view has "decks" and "seats", such as
// the cards taken from the decks between neighbours): drawn from the view's shape and the
// catalogue's "components" (card kinds, Wonders in pieces, progress tokens, in words).
// Nothing here names a game, a card, a Wonder or a token.  table.js calls drawDecksGame()
// from render(); it draws the decision, the table round the seat and the recap, and says
// whether it did (false: not a decks game, the usual drawing goes on).
"use strict";

let decksDrawnDecision = null;   // what the decision panel was last drawn from

function decksParts() {
  const found = (catalogue && catalogue.components) || {};
  return {kinds: found.kinds || {}, wonders: found.wonders || {}, progress: found.progress || {}};
}

function isDecksView(view) {
  return Boolean(view) && Array.isArray(view.decks) && Array.isArray(view.seats);
}

function drawDecksGame() {
  if (!state || !isDecksView(state.view)) return false;
  document.body.classList.add("decks-game");
  const view = state.view;
  const shown = JSON.stringify([state.decision, state.actions || null, state.chosen || null,
                                view.looking || null, state.table.hints, state.over]);
  if (shown !== decksDrawnDecision) {   // a state sent again must not replace the buttons
    decksDrawnDecision = shown;
    drawDecksDecision();
  }
  drawDecksTable();
  drawDecksRecap();
  document.getElementById("cities").replaceChildren();
  return true;
}

// Seats sit clockwise in seat order: the left neighbour of seat i is i + 1, the right one
// i - 1 (src/wonders/engine/table.py); each seat's Wonder deck lies on its left.
function decksSeating(view) {
  const count = view.seats.length;
  const me = state.seat === null || state.seat === undefined ? 0 : state.seat;
  return {count, me, left: (me + 1) % count, right: (me - 1 + count) % count};
}

function kindChip(name, count) {
  const kind = decksParts().kinds[name];
  const colour = kind ? kind.colour : "none";
  return el("span", {class: `kind chip colour-${colour}`, "data-kind": name,
                     "data-count": String(count === undefined ? 1 : count),
                     title: kind ? kind.words : name},
    name, count === undefined ? "" : el("b", {class: "kind-count"}, ` ×${count}`));
}

function kindCard(name) {
  const kind = decksParts().kinds[name];
  return el("div", {class: `kind-card colour-${kind ? kind.colour : "none"}`, "data-card": name},
    el("div", {class: "kind-name"}, name),
    kind && kind.words !== name ? el("div", {class: "kind-words"}, kind.words) : null);
}

function tokenWords(name) {
  const token = decksParts().progress[name];
  return token ? token.words : name;
}

// --- the decision ------------------------------------------------------------------------

function drawDecksDecision() {
  const box = document.getElementById("decide");
  box.replaceChildren();
  const described = state.actions;
  const pending = state.pending;
  if (state.over) return;
  if (!described) {
    const waiting = pending.seats.filter((s) => !pending.chosen.includes(s));
    if (waiting.length) {
      box.append(el("p", {class: "waiting", id: "waiting"},
        `${waiting.map(seatName).join(", ")}: ${pending.wording}…`));
    }
    return;
  }
  box.append(el("h2", {}, `Your move: ${pending.wording}`));
  const looking = state.view.looking;
  if (looking && looking.length) {
    const counted = {};
    for (const name of looking) counted[name] = (counted[name] || 0) + 1;
    box.append(el("p", {class: "looking", id: "looking"}, "You look at: ",
      ...Object.entries(counted).map(([name, count]) => kindChip(name, count))));
  }
  const list = el("div", {class: "choices decks-moves", id: "choices"});
  for (const entry of described.actions) {
    const attrs = {class: `action action-${entry.kind}`, "data-action-index": String(entry.index),
                   "data-kind": entry.kind, "data-move": entry.words.length ? `${entry.kind} ${entry.words.join(" ")}` : entry.kind,
                   onclick: () => act(entry)};
    if (entry.deck !== undefined) attrs["data-deck"] = String(entry.deck);
    if (entry.piece !== undefined) attrs["data-piece"] = String(entry.piece);
    const spend = entry.spend && entry.spend.length ? el("span", {class: "spend"},
      ...entry.spend.map((name) => kindChip(name))) : null;
    list.append(el("button", attrs, el("span", {class: "move-text"}, entry.text), spend));
  }
  box.append(list);
  if (state.table.hints) {
    box.append(el("button", {class: "hint-button", onclick: () => send({type: "hint"})}, "Hint"),
               el("div", {id: "hint"}));
  }
}

// --- the table round the seat ------------------------------------------------------------

function drawDecksTable() {
  const box = document.getElementById("board");
  const view = state.view;
  const {count, me, left, right} = decksSeating(view);
  box.replaceChildren();
  const grid = el("div", {class: `decks-table${count === 2 ? " two" : ""}`, id: "decks-table"});
  const far = el("div", {class: "far", id: "far-seats"});
  if (count === 2) far.append(seatPanel(left, "left and right neighbour"));
  for (let seat = (left + 1) % count; count > 3 && seat !== right; seat = (seat + 1) % count) {
    far.append(seatPanel(seat, "across the table"));
  }
  if (far.childElementCount) grid.append(far);
  if (count > 2) {
    const leftPanel = seatPanel(left, "your left neighbour");
    leftPanel.classList.add("nb-left");
    grid.append(leftPanel);
  }
  grid.append(drawCentre(view, me, right));
  if (count > 2) {
    const rightPanel = seatPanel(right, "your right neighbour");
    rightPanel.classList.add("nb-right");
    grid.append(rightPanel);
  }
  const mine = seatPanel(me, state.seat === null || state.seat === undefined ? "seen from here" : "you");
  mine.classList.add("me");
  grid.append(mine);
  box.append(grid);
}

function takesByDeck() {
  const found = {};
  for (const entry of (state.actions ? state.actions.actions : [])) {
    if (entry.deck !== undefined && !(entry.deck in found)) found[entry.deck] = entry;
  }
  return found;
}

function drawCentre(view, me, right) {
  const takes = takesByDeck();
  const index = (test) => view.decks.findIndex(test);
  const mineLeft = index((d) => d.owner === me);
  const central = index((d) => d.owner === null);
  const theirs = index((d) => d.owner === right);
  const row = el("div", {class: "deck-row", id: "deck-row"});
  if (mineLeft >= 0) row.append(deckTile(view, mineLeft, "left", takes));
  if (central >= 0) row.append(deckTile(view, central, "central", takes));
  if (theirs >= 0 && theirs !== mineLeft) row.append(deckTile(view, theirs, "right", takes));
  const centre = el("div", {class: "centre panel", id: "centre"}, row);
  const progress = view.progress || {};
  if (progress.face_up) {
    centre.append(el("div", {class: "progress-row", id: "progress-tokens"},
      ...progress.face_up.map((name) => el("div", {class: "token-card", "data-token": name},
        el("div", {class: "token-name"}, name), el("div", {class: "token-words"}, tokenWords(name)))),
      el("div", {class: "token-card stack", "data-stack": String(progress.stack)},
        el("div", {class: "token-name"}, "stack"), el("div", {class: "token-words"}, `${progress.stack} face down`))));
  }
  if (view.conflict) centre.append(drawConflict(view.conflict));
  if (Array.isArray(view.discard)) {
    centre.append(el("div", {class: "small discard-count", id: "discard"}, `Discard pile: ${view.discard.length} card${view.discard.length === 1 ? "" : "s"}`));
  }
  const kinds = Object.entries(decksParts().kinds);
  if (kinds.length) {
    centre.append(el("details", {class: "legend", id: "legend"}, el("summary", {}, "What the cards show"),
      el("ul", {}, ...kinds.map(([name, kind]) => el("li", {}, kindChip(name), ` ${kind.words}`)))));
  }
  return centre;
}

function deckTile(view, index, where, takes) {
  const deck = view.decks[index];
  const take = takes[index];
  const top = deck.top === undefined ? null : deck.top;
  const node = el("div", {class: `deck deck-${where}${deck.face_up ? "" : " face-down-deck"}`,
                          "data-deck": String(index), "data-where": where, "data-cards": String(deck.cards),
                          "data-top": top || "", "data-face": deck.face_up ? "up" : "down"},
    el("div", {class: "deck-where"}, where === "central" ? "central deck" : `${where} deck`),
    where === "central" ? null : el("div", {class: "deck-name"}, deck.name));
  if (top) node.append(kindCard(top));
  else if (deck.cards) node.append(el("div", {class: "card-back face-down"}, "?"));
  else node.append(el("div", {class: "card-back empty"}, "empty"));
  node.append(el("div", {class: "deck-size"}, `${deck.cards} card${deck.cards === 1 ? "" : "s"}`));
  if (!deck.face_up && top) node.append(el("div", {class: "small peek"}, "you see its top"));
  if (take) {
    node.classList.add("playable");
    node.setAttribute("role", "button");
    node.title = take.text;
    node.addEventListener("click", () => act(take));
  }
  return node;
}

function drawConflict(conflict) {
  const tokens = [];
  for (let i = 0; i < conflict.battle; i++) tokens.push(el("span", {class: "conflict-token battle", "data-side": "battle"}, "battle"));
  for (let i = 0; i < conflict.peace; i++) tokens.push(el("span", {class: "conflict-token peace", "data-side": "peace"}, "peace"));
  return el("div", {class: "conflict", id: "conflict", "data-peace": String(conflict.peace), "data-battle": String(conflict.battle)},
    el("span", {class: "conflict-label"}, "Conflict: "), ...tokens,
    el("span", {class: "small conflict-note"}, conflict.peace
      ? `a battle when the last peace token turns (${conflict.peace} left)` : "a battle at the end of this turn"));
}

function seatPanel(seat, place) {
  const view = state.view;
  const info = view.seats[seat];
  const mine = place === "you" || place === "seen from here";
  const wonder = decksParts().wonders[info.wonder] || {pieces: []};
  const deciding = state.pending.seats.includes(seat);
  const player = state.score_sheet ? state.score_sheet.players.find((p) => p.seat === seat) : null;
  const built = info.built.filter(Boolean).length;
  const node = el("div", {class: `seat-panel panel${mine ? " mine" : ""}`, "data-seat-panel": String(seat),
                          "data-place": place},
    el("h3", {}, seatName(seat), ` — ${info.wonder}`,
       info.cat ? el("span", {class: "badge cat", "data-cat": "yes", title: "holds the cat pawn"}, "cat pawn") : null,
       deciding ? el("span", {class: "badge"}, "to move") : null),
    el("div", {class: "small place"}, place));
  node.append(el("div", {class: "city-stats"},
    el("span", {class: "shields", "data-shields": String(info.shields)}, `${info.shields} shield${info.shields === 1 ? "" : "s"}`),
    el("span", {class: "victories", "data-victories": String(info.victories)}, `${info.victories} victory token${info.victories === 1 ? "" : "s"}`),
    el("span", {class: "pieces-built"}, `pieces ${built}/${info.built.length}`),
    player ? el("span", {class: "points", "data-points": String(player.total)}, `${player.total} points`) : null));
  node.append(mine ? pieceTiles(info, wonder) : pieceBoxes(info, wonder));
  const kinds = Object.keys(decksParts().kinds);
  const held = Object.entries(info.cards).sort((a, b) => kinds.indexOf(a[0]) - kinds.indexOf(b[0]));
  node.append(el("div", {class: "held", "data-held": String(seat)},
    held.length ? "" : el("span", {class: "small"}, "no cards yet"),
    ...held.map(([name, count]) => kindChip(name, count))));
  if (info.progress.length) {
    node.append(el("div", {class: "seat-tokens"}, "Progress: ", ...info.progress.map((name) =>
      el("span", {class: "token", "data-token": name, title: tokenWords(name)}, name,
         mine ? el("span", {class: "small"}, ` — ${tokenWords(name)}`) : ""))));
  }
  // a deck not drawn in the middle (one between two other seats): in its owner's panel
  const {me, right} = decksSeating(view);
  const own = view.decks.findIndex((d) => d.owner === seat);
  if (own >= 0 && seat !== me && seat !== right) {
    const deck = view.decks[own];
    node.append(el("div", {class: "small own-deck", "data-deck": String(own), "data-top": deck.top || ""},
      `Its deck (${deck.name}, on its left): ${deck.cards} card${deck.cards === 1 ? "" : "s"}`,
      deck.top ? " · top " : "", deck.top ? kindChip(deck.top) : ""));
  }
  return node;
}

function pieceTiles(info, wonder) {
  const row = el("div", {class: "pieces", "data-pieces": "full"});
  info.built.forEach((done, i) => {
    const piece = wonder.pieces[i] || {cost: "", points: 0, rests_on: [], effect: ""};
    const open = !done && piece.rests_on.every((j) => info.built[j]);
    row.append(el("div", {class: `piece${done ? " built" : open ? " open" : " blocked"}`, "data-piece": String(i),
                          "data-built": done ? "yes" : "no", title: piece.words || ""},
      el("div", {class: "piece-head"}, `${i + 1}`, el("span", {class: "piece-points"}, ` ${piece.points} pts`),
         done ? el("span", {class: "piece-done"}, " ✔") : ""),
      el("div", {class: "piece-cost"}, piece.cost),
      el("div", {class: "piece-on small"}, piece.rests_on.length ? `on ${piece.rests_on.map((j) => j + 1).join(" & ")}` : "on the ground"),
      piece.effect ? el("div", {class: "piece-effect small"}, piece.effect) : null));
  });
  return row;
}

function pieceBoxes(info, wonder) {
  return el("div", {class: "pieces compact", "data-pieces": "compact"}, ...info.built.map((done, i) =>
    el("span", {class: `piece-box${done ? " built" : ""}`, "data-piece": String(i), "data-built": done ? "yes" : "no",
                title: wonder.pieces[i] ? wonder.pieces[i].words : ""}, done ? `${i + 1}✔` : String(i + 1))));
}

// --- what happened -------------------------------------------------------------------------

function drawDecksRecap() {
  const box = document.getElementById("recap");
  const recap = state.recap;
  box.replaceChildren();
  if (!recap) return;
  // a seat's page tells first what the others did since its own last move (the events'
  // lines, each "seat N …"), when that is more than the last move
  const seat = state.seat;
  if (seat !== null && seat !== undefined && !state.over) {
    const lines = state.events;
    let last = -1;
    lines.forEach((line, i) => { if (line.startsWith(`seat ${seat} `)) last = i; });
    const since = last >= 0 ? lines.slice(last + 1) : [];
    if (since.length > recap.moves.length + recap.battles.length + recap.table.length) {
      box.append(el("h2", {}, "Since your last move"),
        el("ul", {class: "recap-since", id: "recap-since"}, ...since.map((line) => el("li", {}, line))));
      return;
    }
  }
  box.append(el("h2", {}, recap.turn !== undefined && recap.turn !== null ? `Last move (turn ${recap.turn})` : "Last move"),
    el("ul", {class: "recap-moves", id: "recap-moves"}, ...recap.moves.map((move) =>
      el("li", {"data-seat": String(move.seat), "data-kind": move.kind || ""}, `${seatName(move.seat)}: ${move.text}`))));
  if (recap.battles.length) {
    box.append(el("h3", {}, "Battle"),
      el("ul", {class: "recap-battles", id: "recap-battles"}, ...recap.battles.map((line) => el("li", {}, line))));
  }
  if (recap.table.length) {
    box.append(el("ul", {class: "recap-table", id: "recap-table"}, ...recap.table.map((line) => el("li", {}, line))));
  }
}
