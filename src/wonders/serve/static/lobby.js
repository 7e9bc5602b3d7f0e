// The lobby: create a table (game, players, a kind for each seat, sides, hints), list tables.
"use strict";

let GAMES = [];
let KINDS = [];
let CSRF = "";

// Every request that changes something carries the page's CSRF token (GET /api/session).
async function post(path, body) {
  const answer = await fetch(path, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF},
    body: JSON.stringify(body)});
  let parsed = {};
  try { parsed = await answer.json(); } catch (e) { parsed = {error: `HTTP ${answer.status}`}; }
  return [answer, parsed];
}

function showAccount(account) {
  const who = document.getElementById("who");
  const signedIn = Boolean(account);
  document.getElementById("sign-in").hidden = signedIn;
  document.getElementById("sign-out").hidden = !signedIn;
  const seats = document.getElementById("my-seats");
  seats.replaceChildren();
  if (!signedIn) {
    who.textContent = "Playing as a guest (guests' games count for no rating).";
    return;
  }
  who.replaceChildren("Signed in as ", el("a", {href: `/player/${encodeURIComponent(account.name)}`,
                                               textContent: account.name, id: "me"}));
  for (const seat of account.seats || []) {
    const url = new URL(seat.link, location.href).href;
    seats.append(el("li", {}, `${seat.game}, seat ${seat.seat}: `,
                    el("a", {href: url, textContent: "play", class: "my-seat"})));
  }
}

async function loadSession() {
  const answer = await fetch("/api/session", {credentials: "same-origin"});
  const body = await answer.json();
  CSRF = body.csrf;
  showAccount(body.account);
}

async function account(path) {
  const error = document.getElementById("account-error");
  error.textContent = "";
  const [answer, body] = await post(path, {name: document.getElementById("account-name").value,
                                           password: document.getElementById("account-password").value});
  if (!answer.ok) {
    error.textContent = body.error;
    return;
  }
  document.getElementById("account-password").value = "";
  await loadSession();
}

async function signOut() {
  await post("/api/signout", {});
  await loadSession();
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function currentGame() {
  const name = document.getElementById("game").value;
  return GAMES.find((g) => g.game === name);
}

function drawSeats() {
  const game = currentGame();
  const players = document.getElementById("players");
  players.min = game.min_players;
  players.max = game.max_players;
  let count = Number(players.value);
  if (!(count >= game.min_players)) count = game.min_players;
  if (count > game.max_players) count = game.max_players;
  players.value = count;
  document.getElementById("sides").disabled = !game.sides;
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const select = el("select", {name: `seat${seat}`, id: `seat${seat}`});
    for (const kind of KINDS) select.append(el("option", {value: kind, textContent: kind}));
    select.value = old[seat] || (seat === 0 ? "human" : "greedy");
    box.append(el("label", {}, `Seat ${seat} `, select));
  }
}

async function listTables() {
  const answer = await fetch("/api/tables");
  const body = await answer.json();
  const rows = document.querySelector("#tables tbody");
  rows.replaceChildren();
  for (const t of body.tables) {
    rows.append(el("tr", {},
      el("td", {textContent: t.title}),
      el("td", {textContent: t.seats.join(", ")}),
      el("td", {textContent: t.over ? "over" : String(t.decision)}),
      el("td", {}, el("a", {href: t.spectate, textContent: "watch"}), " · ",
         el("a", {href: `/replay/${encodeURIComponent(t.id)}`, textContent: "replay", class: "replay"}))));
  }
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const request = {
    game: document.getElementById("game").value,
    players: Number(document.getElementById("players").value),
    seats: [...document.querySelectorAll("#seats select")].map((s) => s.value),
    sides: document.getElementById("sides").value,
    hints: document.getElementById("hints").checked,
    mode: document.getElementById("mode").value,
    speed: document.getElementById("speed").value,
  };
  if (request.speed === "turn-based") request.hours = Number(document.getElementById("hours").value);
  const [answer, body] = await post("/api/tables", request);
  if (!answer.ok) {
    error.textContent = body.error;
    return;
  }
  const links = document.getElementById("links");
  const list = el("ul", {id: "join-links"});
  for (const seat of body.seats) {
    if (seat.link) {
      const url = new URL(seat.link, location.href).href;
      list.append(el("li", {}, `Seat ${seat.seat} (human): `,
                     el("a", {href: url, textContent: url, "data-seat": String(seat.seat), class: "join"})));
    } else {
      list.append(el("li", {textContent: `Seat ${seat.seat}: ${seat.kind} bot`}));
    }
  }
  const watch = new URL(body.spectate, location.href).href;
  list.append(el("li", {}, "Spectators: ", el("a", {href: watch, textContent: watch, class: "spectate"})));
  links.replaceChildren(el("h3", {textContent: "Send each player their own link (it holds their seat's secret)"}), list);
  listTables();
}

async function start() {
  document.getElementById("sign-in").addEventListener("submit", (event) => {
    event.preventDefault();
    account("/api/signin");
  });
  document.getElementById("sign-up-button").addEventListener("click", () => account("/api/signup"));
  document.getElementById("sign-out").addEventListener("click", signOut);
  await loadSession();
  const answer = await fetch("/api/games");
  const body = await answer.json();
  GAMES = body.games;
  KINDS = body.seat_kinds;
  const select = document.getElementById("game");
  for (const game of GAMES) select.append(el("option", {value: game.game, textContent: game.title}));
  select.addEventListener("change", drawSeats);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("new-table").addEventListener("submit", create);
  drawSeats();
  listTables();
}

start();
