// Symbols for the table page: resources, coins, shields, victory points and science
// symbols as small inline SVG drawings built with DOM calls (the page's policy forbids
// inline styles, not SVG attributes).  A name without a drawing gets a lettered disc, so
// a new game's vocabulary still shows.  Every symbol carries data-symbol and data-count
// so a test (or a person with a screen reader: its title) reads what it shows.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  return node;
}

// Each drawing on a 20×20 grid: a list of [tag, attributes].
const SYMBOL_DRAWINGS = {
  coin: [["circle", {cx: 10, cy: 10, r: 8, fill: "#e6b422", stroke: "#8a6a00", "stroke-width": 1.5}],
         ["circle", {cx: 10, cy: 10, r: 4.5, fill: "none", stroke: "#8a6a00", "stroke-width": 1}]],
  shield: [["path", {d: "M10 2 L17 4.5 V10 C17 14 14 16.8 10 18.5 C6 16.8 3 14 3 10 V4.5 Z",
                     fill: "#c62828", stroke: "#6d1010", "stroke-width": 1}],
           ["path", {d: "M10 5 V15.5 M6 9 H14", stroke: "#fff", "stroke-width": 1.6}]],
  points: [["circle", {cx: 10, cy: 10, r: 8, fill: "#2e7d32", stroke: "#174d1a", "stroke-width": 1}],
           ["path", {d: "M10 4.5 L11.6 8.4 L15.6 8.6 L12.5 11.2 L13.5 15.2 L10 13 L6.5 15.2 L7.5 11.2 L4.4 8.6 L8.4 8.4 Z",
                     fill: "#f6e27a"}]],
  wood: [["rect", {x: 2, y: 6, width: 16, height: 8, rx: 4, fill: "#8b5a2b", stroke: "#4e2f12", "stroke-width": 1}],
         ["circle", {cx: 14, cy: 10, r: 2.6, fill: "#d9a86c", stroke: "#4e2f12", "stroke-width": 0.8}]],
  stone: [["path", {d: "M3 15 L5 7 L10 4 L16 6 L18 13 L13 17 Z", fill: "#9e9e9e", stroke: "#4a4a4a", "stroke-width": 1}],
          ["path", {d: "M5 7 L11 9 L16 6 M11 9 L13 17", stroke: "#5e5e5e", "stroke-width": 0.8, fill: "none"}]],
  clay: [["rect", {x: 2, y: 5, width: 16, height: 10, rx: 1.5, fill: "#c0562b", stroke: "#6e2a10", "stroke-width": 1}],
         ["path", {d: "M2 10 H18 M8 5 V10 M13 10 V15", stroke: "#6e2a10", "stroke-width": 0.9}]],
  ore: [["path", {d: "M2 14 L6 5 L12 3 L18 9 L15 17 L6 17 Z", fill: "#55566a", stroke: "#22232e", "stroke-width": 1}],
        ["path", {d: "M7 8 L9 7 M12 11 L14 10 M8 13 L10 13", stroke: "#c9cbe0", "stroke-width": 1.2}]],
  glass: [["path", {d: "M7 2 H13 V6 L16 10 V18 H4 V10 L7 6 Z", fill: "#8fd3ec", stroke: "#1e6f8f", "stroke-width": 1}],
          ["path", {d: "M7 11 V16", stroke: "#fff", "stroke-width": 1.3}]],
  loom: [["rect", {x: 3, y: 3, width: 14, height: 14, rx: 2, fill: "#8a4fb3", stroke: "#45205e", "stroke-width": 1}],
         ["path", {d: "M3 7 H17 M3 11 H17 M3 15 H17 M7 3 V17 M13 3 V17", stroke: "#d8b8ee", "stroke-width": 0.8}]],
  papyrus: [["rect", {x: 4, y: 3, width: 12, height: 14, fill: "#efe2b4", stroke: "#8f7a3a", "stroke-width": 1}],
            ["rect", {x: 2.5, y: 2, width: 15, height: 3, rx: 1.5, fill: "#d8c382", stroke: "#8f7a3a", "stroke-width": 0.8}],
            ["rect", {x: 2.5, y: 15, width: 15, height: 3, rx: 1.5, fill: "#d8c382", stroke: "#8f7a3a", "stroke-width": 0.8}],
            ["path", {d: "M6.5 8 H13.5 M6.5 11 H13.5", stroke: "#8f7a3a", "stroke-width": 0.8}]],
  compass: [["circle", {cx: 10, cy: 10, r: 8, fill: "#e8f3e8", stroke: "#2e7d32", "stroke-width": 1.3}],
            ["path", {d: "M10 3.5 L12 10 L10 16.5 L8 10 Z", fill: "#2e7d32"}]],
  wheel: [["circle", {cx: 10, cy: 10, r: 7.5, fill: "none", stroke: "#2e7d32", "stroke-width": 2}],
          ["circle", {cx: 10, cy: 10, r: 1.8, fill: "#2e7d32"}],
          ["path", {d: "M10 2.5 V17.5 M2.5 10 H17.5 M4.7 4.7 L15.3 15.3 M15.3 4.7 L4.7 15.3", stroke: "#2e7d32", "stroke-width": 1.1}]],
  tablet: [["rect", {x: 4, y: 2, width: 12, height: 16, rx: 2, fill: "#e8f3e8", stroke: "#2e7d32", "stroke-width": 1.3}],
           ["path", {d: "M7 6 H13 M7 9 H13 M7 12 H13 M7 15 H11", stroke: "#2e7d32", "stroke-width": 1}]],
};
SYMBOL_DRAWINGS.gear = SYMBOL_DRAWINGS.wheel;
const SCIENCE_DISC = ["circle", {cx: 10, cy: 10, r: 8.5, fill: "#e8f3e8", stroke: "#2e7d32", "stroke-width": 1.2}];
SYMBOL_DRAWINGS.globe = [SCIENCE_DISC, ["circle", {cx: 10, cy: 10, r: 5.5, fill: "none", stroke: "#2e7d32", "stroke-width": 1.1}],
                         ["path", {d: "M4.5 10 H15.5 M10 4.5 C7 7.5 7 12.5 10 15.5 C13 12.5 13 7.5 10 4.5", fill: "none", stroke: "#2e7d32", "stroke-width": 1}]];
SYMBOL_DRAWINGS.mortar = [SCIENCE_DISC, ["path", {d: "M5 9 H15 C15 13 13 15 10 15 C7 15 5 13 5 9 Z", fill: "#2e7d32"}],
                          ["path", {d: "M11 9 L14.5 4", stroke: "#2e7d32", "stroke-width": 1.6}]];
SYMBOL_DRAWINGS.plumb_line = [SCIENCE_DISC, ["path", {d: "M10 3.5 V11", stroke: "#2e7d32", "stroke-width": 1.1}],
                              ["path", {d: "M7.5 11 H12.5 L10 16 Z", fill: "#2e7d32"}]];
SYMBOL_DRAWINGS.quill = [SCIENCE_DISC, ["path", {d: "M6 15 C8 10 11 6 15 4.5 C14 8.5 11 12 7 14 Z", fill: "#2e7d32"}],
                         ["path", {d: "M5 16 L8 12.5", stroke: "#2e7d32", "stroke-width": 1.1}]];
SYMBOL_DRAWINGS.sundial = [SCIENCE_DISC, ["path", {d: "M4.5 13 H15.5", stroke: "#2e7d32", "stroke-width": 1.3}],
                           ["path", {d: "M7 13 L13 6 V13 Z", fill: "#2e7d32"}]];
SYMBOL_DRAWINGS.sword = [["path", {d: "M15.5 2.5 L17.5 4.5 L8 14 L6 12 Z", fill: "#b0b7c3", stroke: "#3c4350", "stroke-width": 1}],
                         ["path", {d: "M4 10 L10 16 M5.5 14.5 L3 17", stroke: "#6b4a1e", "stroke-width": 2}]];
SYMBOL_DRAWINGS.axe = [["path", {d: "M5 17 L13 5", stroke: "#6b4a1e", "stroke-width": 2}],
                       ["path", {d: "M11 2.5 C15 2.5 18 5.5 17.5 9 L12 6.5 Z", fill: "#b0b7c3", stroke: "#3c4350", "stroke-width": 1}]];

const SYMBOL_WORDS = {coin: ["coin", "coins"], shield: ["shield", "shields"], points: ["victory point", "victory points"]};

function symbolWords(name, count) {
  const words = SYMBOL_WORDS[name] || [String(name).replace(/_/g, " "), String(name).replace(/_/g, " ")];
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
  for (const [tag, attrs] of SYMBOL_DRAWINGS[name] || fallbackDrawing(name)) {
    const {_text, ...rest} = attrs;
    const node = svgNode(tag, rest);
    if (_text) node.textContent = _text;
    svg.append(node);
  }
  return svg;
}

// One symbol with its count: `symbol("stone", 2)` draws a stone and "2"; a count of
// undefined draws the symbol alone.  `names` as a list: one of several ("wood/stone").
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
