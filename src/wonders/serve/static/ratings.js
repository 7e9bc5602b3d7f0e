// The leaderboard (/leaderboard) and a player's page (/player/NAME), from the JSON API.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node[key] = value;
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function cells(...values) {
  return el("tr", {}, ...values.map((v) => el("td", {}, v)));
}

async function load(path) {
  const answer = await fetch(path);
  const body = await answer.json();
  if (!answer.ok) document.getElementById("ratings-error").textContent = body.error;
  return answer.ok ? body : null;
}

async function board(game) {
  const body = await load("/api/leaderboard" + (game ? `?game=${encodeURIComponent(game)}` : ""));
  if (!body) return;
  const select = document.getElementById("board-game");
  if (!select.options.length) {
    for (const g of body.games) select.append(el("option", {value: g, textContent: g}));
    select.addEventListener("change", () => board(select.value));
  }
  select.value = body.game;
  const rows = document.querySelector("#leaderboard tbody");
  rows.replaceChildren();
  body.players.forEach((p, i) => rows.append(cells(String(i + 1),
    el("a", {href: `/player/${encodeURIComponent(p.name)}`, textContent: p.name, class: "player"}),
    String(p.rating), String(p.games))));
}

async function player(name) {
  const body = await load(`/api/players/${encodeURIComponent(name)}`);
  if (!body) return;
  document.getElementById("player-name").textContent = body.name;
  document.title = `wonders — ${body.name}`;
  document.getElementById("played").textContent = `${body.played} game(s) played to the end`;
  const ratings = document.querySelector("#player-ratings tbody");
  for (const r of body.ratings) ratings.append(cells(r.game, String(r.rating), String(r.games)));
  const history = document.querySelector("#player-history tbody");
  for (const h of body.history) {
    history.append(cells(h.game, el("a", {href: `/table/${h.table}`, textContent: h.table}),
                         String(h.rank), String(h.before), String(h.after)));
  }
  const tables = document.querySelector("#player-tables tbody");
  for (const t of body.tables) {
    const done = el("span", {});
    if (t.replay) done.append(el("a", {href: t.replay, textContent: "replay", class: "replay"}), " · ");
    if (t.log) done.append(el("a", {href: t.log, textContent: "log"}));
    tables.append(cells(t.game, t.mode, String(t.seat),
      el("a", {href: t.watch, textContent: t.over ? "final state" : "watch"}), done));
  }
}

if (location.pathname.startsWith("/player/")) {
  player(decodeURIComponent(location.pathname.slice("/player/".length)));
} else {
  board(new URLSearchParams(location.search).get("game"));
}
