// Symbols for the table page: resources, coins, shields, victory points and science
// symbols as small inline SVG drawings built with DOM calls (the page's policy forbids
// inline styles, not SVG attributes), from the drawings the catalogue sends.  A name
// without a drawing gets a lettered disc, so a new game's vocabulary still shows.  Every
// symbol carries data-symbol and data-count so a test (or a person with a screen reader:
// its title) reads what it shows.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  return node;
}

// The drawings come with the catalogue (src/wonders/serve/symbols.json): names of the
// games' vocabulary stay in the data, none in the page.
function symbolDrawing(name) {
  const found = (typeof catalogue !== "undefined" && catalogue && catalogue.symbols) || {};
  const drawings = found.drawings || {};
  const alias = (found.aliases || {})[name];
  return drawings[name] || (alias ? drawings[alias] : null);
}

// a symbol's name in words (the catalogue's, where it is not the name itself)
function symbolWords(name, count) {
  const found = (typeof catalogue !== "undefined" && catalogue && catalogue.symbols && catalogue.symbols.words) || {};
  const words = found[name] || [String(name).replace(/_/g, " "), String(name).replace(/_/g, " ")];
  return count === undefined || count === null ? words[0] : `${count} ${count === 1 ? words[0] : words[1]}`;
}

// A lettered disc for a name without a drawing, in a colour taken from the name.
function fallbackDrawing(name) {
  let hash = 0;
  for (const ch of String(name)) hash = (hash * 31 + ch.charCodeAt(0)) % 360;
  const letter = String(name).replace(/_/g, " ").trim().charAt(0).toUpperCase() || "?";
  return [["circle", {cx: 10, cy: 10, r: 8, fill: `hsl(${hash}, 45%, 80%)`, stroke: `hsl(${hash}, 45%, 35%)`, "stroke-width": 1.2}],
          ["text", {x: 10, y: 14, "text-anchor": "middle", "font-size": 11, "font-weight": "bold",
                    fill: `hsl(${hash}, 45%, 25%)`, _text: letter}]];
}

function symbolSvg(name) {
  const svg = svgNode("svg", {viewBox: "0 0 20 20", width: "1.25em", height: "1.25em", class: "sym-svg",
                              "aria-hidden": "true", focusable: "false"});
  const drawing = symbolDrawing(name);
  if (!drawing) svg.dataset.drawn = "letter";   // (a test finds the names still undrawn)
  for (const [tag, attrs] of drawing || fallbackDrawing(name)) {
    const {_text, ...rest} = attrs;
    const node = svgNode(tag, rest);
    if (_text) node.textContent = _text;
    svg.append(node);
  }
  return svg;
}

// One symbol with its count: `symbol(name, 2)` draws the name's drawing and "2"; a count
// of undefined draws the symbol alone.  `names` as a list: one of several (drawn a/b).
function symbol(names, count, what) {
  const list = Array.isArray(names) ? names : [names];
  const words = list.map((n) => symbolWords(n)).join(" or ");
  const node = document.createElement("span");
  node.className = `sym${list.length > 1 ? " sym-choice" : ""}`;
  node.dataset.symbol = list.join("/");
  if (count !== undefined && count !== null) node.dataset.count = String(count);
  if (what) node.dataset.what = what;
  node.setAttribute("role", "img");
  node.title = count === undefined || count === null ? words
    : (list.length > 1 ? `${count} × one of ${words}` : symbolWords(list[0], count));
  node.setAttribute("aria-label", node.title);
  list.forEach((name, i) => {
    if (i) node.append(document.createTextNode("/"));
    node.append(symbolSvg(name));
  });
  if (count !== undefined && count !== null) {
    const number = document.createElement("b");
    number.className = "sym-count";
    number.textContent = String(count);
    node.append(number);
  }
  return node;
}
