// Builds static/games/cards.svg: one <symbol id="card-4C"> per card of the truco deck (ranks 4 5 6 7 Q J K A 2 3,
// suits C H S D) and <symbol id="card-back">, from Adrian Kennard's public-domain (CC0) SVG playing cards as the
// npm package @letele/playing-cards ships them (React components). See docs/cards.md.
//
//   cd devtools/cards && npm ci && node build_sprite.mjs        (node_modules/ is not committed)
//
// What it changes in the art, so the cards read on a phone (a hand card is ~64 px wide):
// - the corner indices are larger (the rank letter about twice the source's, with a thicker stroke) and the
//   rest of the face is drawn at 74 % around the centre to make room for them;
// - colours come from CSS custom properties (--card-paper, --card-edge, --suit-C/H/S/D, --court-paper),
//   so a face style is a few CSS lines on the page, not another sprite;
// - the suit pips and rank letters are shared by every card, not repeated per card;
// - the ace of spades loses its QR code and web address (the maker's, printed in the art);
// - coordinates are rounded (svgo) and everything but the 40 cards and the back is left out.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { optimize } from "svgo";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const SOURCE = path.join(HERE, "node_modules/@letele/playing-cards/dist/index.esm.js");
const OUT = path.join(ROOT, "static/games/cards.svg");

// The engine's codes (games/engine/cards.py): rank + suit letter.
const RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"];
const SUITS = ["C", "H", "S", "D"];
const COURTS = new Set(["Q", "J", "K"]);
// Default inks; a face style overrides them with --suit-C etc. (shop/static/shop/decks.css).
const INK = { C: "#1d1d1b", H: "#c8102e", S: "#1d1d1b", D: "#c8102e" };

// Layout of a face in the source's card box (-120 -168 240 336).
const BODY_SCALE = 0.74; // pips and court pictures, around the centre
const RANK_SIZE = 62; // the rank letter's box (the source's: 32)
const RANK_STROKE = 120; // in the letter's 1000-unit box (the source's: 80)
const PIP_SIZE = 40; // the index's suit (the source's: 26.8)
const INDEX_X = -124; // the rank box's left edge: the letter sits in the middle 57 % of its box
const INDEX_Y = -161;

// The package's component for a card: suit letter + rank (a 2-10 j q k).
const componentName = (rank, suit) => suit + (/[AJQK]/.test(rank) ? rank.toLowerCase() : rank);

/** The package's React components, each called once: trees of {type, props, children}. */
function loadDeck(file) {
  let source = fs.readFileSync(file, "utf8");
  const exported = source.match(/export \{([^}]*)\};?/);
  if (!exported) throw new Error(`no export list in ${file}`);
  source = source.replace(/^import .*$/gm, "").replace(exported[0], "");
  const names = exported[1].split(",").map((pair) => pair.trim().split(/\s+as\s+/));
  const React = {
    createElement: (type, props, ...children) => ({
      type,
      props: { ...(props || {}) },
      children: children.flat().filter((c) => c !== null && c !== undefined && c !== false),
    }),
  };
  const context = { React, _extends: Object.assign };
  vm.createContext(context);
  vm.runInContext(`${source}\nthis.__deck = {${names.map(([local, name]) => `${JSON.stringify(name)}: ${local}`).join(",")}};`, context);
  return Object.fromEntries(Object.entries(context.__deck).map(([name, component]) => [name, component({})]));
}

const ATTRIBUTE = { className: "class", xlinkHref: "href", xmlnsXlink: "xmlns:xlink" };
const KEEP_CASE = new Set(["viewBox", "preserveAspectRatio", "patternUnits"]);
const attributeName = (prop) =>
  ATTRIBUTE[prop] || (KEEP_CASE.has(prop) ? prop : prop.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
const escape = (value) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function serialise(node) {
  if (typeof node === "string" || typeof node === "number") return escape(node);
  const attributes = Object.entries(node.props)
    .filter(([prop, value]) => value !== undefined && value !== null && !prop.startsWith("aria") && prop !== "title")
    .map(([prop, value]) => ` ${attributeName(prop)}="${escape(value)}"`)
    .join("");
  const inner = node.children.map(serialise).join("");
  return inner ? `<${node.type}${attributes}>${inner}</${node.type}>` : `<${node.type}${attributes}/>`;
}

const el = (type, props = {}, ...children) => ({ type, props, children });

/** The shared symbols (suit pips, rank letters) and each card's own, checked to be the same art everywhere. */
const shared = new Map();
function share(id, symbol) {
  const text = serialise(symbol);
  if (shared.has(id) && serialise(shared.get(id)) !== text) throw new Error(`${id} differs between cards`);
  shared.set(id, symbol);
}

function face(tree, rank, suit) {
  const code = rank + suit;
  const defs = tree.children.find((c) => c.type === "defs");
  const ids = {}; // the source's id -> the sprite's
  const own = []; // this card's own symbols (court pictures)
  for (const symbol of defs.children) {
    const id = symbol.props.id;
    const viewBox = symbol.props.viewBox;
    if (viewBox === "-600 -600 1200 1200") {
      // A suit pip: one path, drawn in the card's ink.
      ids[id] = `s${suit}`;
      const pip = symbol.children[0];
      delete pip.props.fill;
      share(ids[id], el("symbol", { id: ids[id], viewBox }, el("path", { ...pip.props, fill: "currentColor" })));
    } else if (viewBox === "-500 -500 1000 1000") {
      // A rank letter: one stroked path.
      ids[id] = `r${rank}`;
      const letter = symbol.children[0];
      share(
        ids[id],
        el(
          "symbol",
          { id: ids[id], viewBox },
          el("path", { ...letter.props, stroke: "currentColor", strokeWidth: RANK_STROKE }),
        ),
      );
    } else {
      ids[id] = `${code}${String.fromCharCode(97 + own.length)}`;
      own.push(symbol);
    }
  }
  const rename = (node) => {
    if (typeof node !== "object") return node;
    const props = { ...node.props };
    if (props.id) props.id = ids[props.id];
    const reference = props.xlinkHref || props.href;
    if (reference) {
      const target = ids[reference.replace(/^#/, "")];
      if (!target) throw new Error(`${code}: unknown reference ${reference}`);
      delete props.xlinkHref;
      props.href = `#${target}`;
    }
    return { ...node, props, children: node.children.map(rename) };
  };
  for (const symbol of own) shared.set(ids[symbol.props.id], rename(symbol));

  // The face itself: the paper, the body (pips or the court picture, frame and pip), the two corner indices.
  const body = [];
  let courtFrame = null;
  const isIndex = (node) =>
    node.type === "use" && (Number(node.props.height) === 32 || Number(node.props.height) === 26.769);
  for (const node of tree.children) {
    if (node.type === "defs" || node.type === "title") continue;
    if (node.type === "rect") continue; // the paper: ours is shared
    if (node.type === "text" || (node.type === "path" && node.props.fill === "#fff")) {
      // A♠'s QR code and the maker's web address
      if (code !== "AS") throw new Error(`${code}: unexpected text or white path`);
      continue;
    }
    if (node.type === "g") {
      const rest = node.children.filter((c) => !isIndex(c));
      if (rest.length) body.push(rename({ ...node, children: rest }));
      continue;
    }
    if (isIndex(node)) continue;
    if (node.type === "use" && node.props.width === 164.8 && node.props.height === 260.8) courtFrame = node.props;
    body.push(rename(node));
  }
  if (COURTS.has(rank) !== Boolean(courtFrame)) throw new Error(`${code}: court art expected only on Q J K`);
  const index = [
    el("use", { href: `#r${rank}`, x: INDEX_X, y: INDEX_Y, width: RANK_SIZE, height: RANK_SIZE }),
    el("use", {
      href: `#s${suit}`,
      x: INDEX_X + (RANK_SIZE - PIP_SIZE) / 2,
      y: INDEX_Y + RANK_SIZE + 2,
      width: PIP_SIZE,
      height: PIP_SIZE,
    }),
  ];
  const picture = courtFrame
    ? [
        // The court picture stays on light paper whatever the face style's paper (--court-paper).
        el("rect", {
          x: courtFrame.x,
          y: courtFrame.y,
          width: courtFrame.width,
          height: courtFrame.height,
          style: "fill:var(--court-paper,#fff)",
        }),
      ]
    : [];
  return el(
    "symbol",
    { id: `card-${code}`, viewBox: "-120 -168 240 336" },
    el(
      "g",
      { style: `color:var(--suit-${suit},${INK[suit]})` },
      el("use", { href: "#paper" }),
      el("g", { transform: `scale(${BODY_SCALE})` }, ...picture, ...body),
      ...index,
      el("g", { transform: "rotate(180)" }, ...index),
    ),
  );
}

/** Lines of a lattice (slopes ±k) clipped to a rectangle, as one path: no clipPath or pattern needed. */
function lattice(x0, y0, x1, y1, step, k) {
  const parts = [];
  const round = (n) => Math.round(n * 10) / 10;
  for (const sign of [1, -1]) {
    // y = sign * k * x + c, for c across the rectangle
    const cs = [y0 - sign * k * x0, y0 - sign * k * x1, y1 - sign * k * x0, y1 - sign * k * x1];
    for (let c = Math.min(...cs) + step / 2; c < Math.max(...cs); c += step) {
      const points = [];
      for (const x of [x0, x1]) {
        const y = sign * k * x + c;
        if (y >= y0 && y <= y1) points.push([x, y]);
      }
      for (const y of [y0, y1]) {
        const x = (y - c) / (sign * k);
        if (x > x0 && x < x1) points.push([x, y]);
      }
      if (points.length >= 2) parts.push(`M${round(points[0][0])} ${round(points[0][1])}L${round(points[1][0])} ${round(points[1][1])}`);
    }
  }
  return parts.join("");
}

/** The back drawn under the deck's own back image: a white border, a red lattice, a medallion with the four suits. */
function back() {
  const pip = (suit, x, y, size) =>
    el("use", { href: `#s${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size, style: `color:${INK[suit]}` });
  return el(
    "symbol",
    { id: "card-back", viewBox: "-120 -168 240 336" },
    el("use", { href: "#paper" }),
    el("rect", { x: -106, y: -154, width: 212, height: 308, rx: 8, style: "fill:var(--back-ink,#9b2226)" }),
    el("path", { d: lattice(-106, -154, 106, 154, 22, 1.5), stroke: "#fff", strokeOpacity: 0.35, strokeWidth: 3, fill: "none" }),
    el("rect", { x: -96, y: -144, width: 192, height: 288, rx: 5, fill: "none", stroke: "#fff", strokeWidth: 3 }),
    el("ellipse", { rx: 52, ry: 66, fill: "#fff", stroke: "var(--back-ink,#9b2226)", strokeWidth: 4 }),
    pip("S", 0, -30, 34),
    pip("H", -24, 0, 34),
    pip("D", 24, 0, 34),
    pip("C", 0, 30, 34),
  );
}

const deck = loadDeck(SOURCE);
const cards = [];
for (const suit of SUITS) {
  for (const rank of RANKS) {
    const tree = deck[componentName(rank, suit)];
    if (!tree) throw new Error(`no ${componentName(rank, suit)} in the package`);
    cards.push(face(tree, rank, suit));
  }
}
const paper = el("rect", {
  id: "paper",
  width: 239,
  height: 335,
  x: -119.5,
  y: -167.5,
  rx: 12,
  style:
    "fill:var(--card-paper,#fff);stroke:var(--card-edge,#555);stroke-width:var(--card-edge-width,1.5);stroke-dasharray:var(--card-edge-dash,none)",
});
const sprite =
  `<svg xmlns="http://www.w3.org/2000/svg">` +
  `<!-- Playing cards by Adrian Kennard (www.me.uk/cards), public domain (CC0 1.0); see cards.LICENSE.txt. -->` +
  `<defs>${serialise(paper)}${[...shared.values()].map(serialise).join("")}</defs>` +
  `${cards.map(serialise).join("")}${serialise(back())}</svg>`;

const { data } = optimize(sprite, {
  multipass: true,
  plugins: [
    "removeComments",
    "removeMetadata",
    "removeEmptyAttrs",
    "removeEmptyContainers",
    { name: "cleanupNumericValues", params: { floatPrecision: 1 } },
    { name: "convertPathData", params: { floatPrecision: 0, transformPrecision: 4 } },
    { name: "convertTransform", params: { floatPrecision: 2, transformPrecision: 4 } },
    "collapseGroups",
  ],
});
// The licence line stays: svgo removed the comment above with the others.
const out = data.replace(
  /^<svg([^>]*)>/,
  `<svg$1><!-- Playing cards by Adrian Kennard (www.me.uk/cards), public domain (CC0 1.0); built by devtools/cards/build_sprite.mjs; see docs/cards.md. -->`,
);
fs.writeFileSync(OUT, `${out}\n`);
const gzipped = execFileSync("gzip", ["-9c", OUT]).length;
console.log(`${path.relative(ROOT, OUT)}: ${cards.length} cards + back, ${(out.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
