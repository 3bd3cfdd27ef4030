// Playing cards drawn in SVG, and their spoken names. No rules here: a card is
// just the protocol's two characters, rank then suit ("QS", "TD"), or a card of
// another deck whose face the game's view gives (`setFaces`: its value, drawn
// large, its colour, its name); any other name is drawn as its words on a card.

const SVG = "http://www.w3.org/2000/svg";
const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RED = new Set(["D", "H"]);

// Suit shapes in a 100 x 100 box, drawn once into a hidden <svg> and reused.
const SUIT_PATHS = {
  H: "M50 90C22 68 4 50 4 30 4 14 16 4 30 4c10 0 17 6 20 14 3-8 10-14 20-14 14 0 26 10 26 26 0 20-18 38-46 60z",
  D: "M50 2Q68 28 90 50 68 72 50 98 32 72 10 50 32 28 50 2z",
  S: "M50 4C78 30 96 44 96 62c0 14-11 23-23 23-9 0-16-4-20-11 1 10 5 17 13 23H34c8-6 12-13 13-23-4 7-11 11-20 11C15 85 4 76 4 62 4 44 22 30 50 4z",
  C: "M50 8a21 21 0 0 1 17 33 21 21 0 1 1-13 33c1 9 5 15 13 22H33c8-7 12-13 13-22a21 21 0 1 1-13-33A21 21 0 0 1 50 8z",
};

// Pip centres (x, y) on a 100 x 140 card; a pip below the middle is drawn upside down.
const L = 31, C = 50, R = 69;
const PIPS = {
  2: [[C, 28], [C, 112]],
  3: [[C, 28], [C, 70], [C, 112]],
  4: [[L, 28], [R, 28], [L, 112], [R, 112]],
  5: [[L, 28], [R, 28], [C, 70], [L, 112], [R, 112]],
  6: [[L, 28], [R, 28], [L, 70], [R, 70], [L, 112], [R, 112]],
  7: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [L, 112], [R, 112]],
  8: [[L, 28], [R, 28], [C, 49], [L, 70], [R, 70], [C, 91], [L, 112], [R, 112]],
  9: [[L, 28], [R, 28], [L, 56], [R, 56], [C, 70], [L, 84], [R, 84], [L, 112], [R, 112]],
  T: [[L, 28], [R, 28], [C, 42], [L, 56], [R, 56], [L, 84], [R, 84], [C, 98], [L, 112], [R, 112]],
};

const FRENCH = /^[2-9TJQKA][CDHS]$/;
// Faces of the cards that are not French cards, by name (a RECYCLE game's view: `faces`).
const faces = new Map();

/** Take the faces of the cards of another deck ({name: {value, corner, suit, colour, name}}). */
export function setFaces(given) {
  for (const [card, face] of Object.entries(given || {})) faces.set(card, face);
}

/** A card that is not a French card: its face as given, else its name in words. */
function otherFace(card) {
  if (faces.has(card)) return faces.get(card);
  // A card the view has not described yet: its program name as words ("FIVE-CUPS": "Five cups").
  const spaced = String(card).replace(/[-_]+/g, " ").toLowerCase();
  const words = spaced.charAt(0).toUpperCase() + spaced.slice(1);
  return { value: words, corner: words.slice(0, 3), suit: "", colour: null, name: words };
}

/** Whether a card is a French card (drawn with pips and courts). */
export function isFrench(card) {
  return typeof card === "string" && FRENCH.test(card);
}

/** The card's name as a person says it: "Queen of spades", "10 of hearts". */
export function cardName(card) {
  if (!isFrench(card)) return otherFace(card).name;
  const rank = card[0];
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[card[1]]}`;
}

/** A card's value as its corner shows it ("13", "Q"): for text where a card's full name is too long. */
export function cardCorner(card) {
  return isFrench(card) ? cardShort(card) : String(otherFace(card).corner);
}

/** A short label for text: "Q♠", "10♥". */
export function cardShort(card) {
  if (!isFrench(card)) return otherFace(card).name;
  const rank = card[0] === "T" ? "10" : card[0];
  return rank + SUIT_SYMBOLS[card[1]];
}

/** Names of several cards joined for a sentence. */
export function cardList(cards) {
  return cards.map(cardName).join(", ");
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/** Put the suit symbols into the page once, so every card can <use> them. */
export function installSuitSymbols() {
  if (document.getElementById("suit-S")) return;
  const sprite = el("svg", { width: 0, height: 0, "aria-hidden": "true" });
  sprite.style.position = "absolute"; // through the CSSOM: the CSP refuses style attributes
  const defs = el("defs", {}, sprite);
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    const symbol = el("symbol", { id: `suit-${suit}`, viewBox: "0 0 100 100" }, defs);
    el("path", { d }, symbol);
  }
  const pattern = el("pattern", { id: "back-weave", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  el("rect", { width: 10, height: 10, fill: "#8e1b2b" }, pattern);
  el("path", { d: "M0 5h10M5 0v10", stroke: "#b8323f", "stroke-width": 2.2 }, pattern);
  document.body.prepend(sprite);
}

function pip(svg, suit, x, y, size, flip = false) {
  const attrs = { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size };
  if (flip) attrs.transform = `rotate(180 ${x} ${y})`;
  el("use", attrs, svg);
}

function corner(svg, rank, suit, flip) {
  const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {}, svg);
  // "10" is two figures in the width of one: a narrower face at a smaller size,
  // not one squeezed (textLength) into a blot that reads like a "D".
  const ten = rank === "T";
  const text = el("text", { x: ten ? 14 : 13, y: 27, "text-anchor": "middle", class: ten ? "card-rank ten" : "card-rank" }, g);
  text.textContent = ten ? "10" : rank;
  pip(g, suit, 13, 39, 15);
}

function face(svg, rank, suit) {
  el("rect", { x: 23, y: 19, width: 54, height: 102, rx: 5, class: "card-frame" }, svg);
  pip(svg, suit, 36, 33, 14);
  pip(svg, suit, 64, 107, 14, true);
  const letter = el("text", { x: 50, y: 84, "text-anchor": "middle", class: "card-face" }, svg);
  letter.textContent = rank;
  // A small crown for kings and queens, a feather-like bar for jacks.
  const crown = rank === "J" ? "M38 48h24l-3 5H41z" : "M36 52l4-12 6 8 4-11 4 11 6-8 4 12z";
  el("path", { d: crown, class: "card-crown" }, svg);
}

/** A value as large as fits the card's width: a figure or two large, a word smaller. */
function valueText(svg, text, x, y, size, cls) {
  const node = el("text", { x, y, "text-anchor": "middle", class: cls, "font-size": size }, svg);
  node.textContent = text;
  return node;
}

/** A card of another deck: its value in the corners and large in the middle, its suit or colour in words. */
function wordSvg(card) {
  const face = otherFace(card);
  const colour = face.colour ? ` colour-${face.colour}` : "";
  const svg = el("svg", { viewBox: "0 0 100 140", class: `card-svg word-card${colour}`, "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-paper" }, svg);
  el("rect", { x: 6, y: 6, width: 88, height: 128, rx: 5, class: "word-frame" }, svg);
  const corner = String(face.corner);
  // The corners: the value on one line, and its characters one under the other for a hand
  // fanned so tight that a narrow strip of each card shows (CSS shows one: .hand.tight).
  const cornerSize = corner.length === 1 ? 26 : corner.length === 2 ? 21 : 17;
  for (const flip of [false, true]) {
    const g = flip ? el("g", { transform: "rotate(180 50 70)" }, svg) : svg;
    valueText(g, corner, 8, 30, cornerSize, "word-corner wide").setAttribute("text-anchor", "start");
    const stacked = el("text", { x: 4, y: 22, class: "word-corner stacked", "font-size": 15 }, g);
    [...corner].forEach((ch, i) => {
      const line = el("tspan", { x: 4, dy: i ? 14 : 0 }, stacked);
      line.textContent = ch;
    });
  }
  const value = String(face.value);
  // Figures are narrow; letters ("HS", "Llama") need more room each.
  const figures = /^\d+$/.test(value);
  const big = figures && value.length <= 2 ? 50 : value.length <= 2 ? 36 : value.length <= 3 ? 30 : Math.max(12, Math.floor(118 / value.length));
  const middle = valueText(svg, value, 50, 70 + big * 0.35, big, "word-value");
  if (value.length > 7) middle.setAttribute("textLength", 80);
  if (face.suit) {
    const suit = valueText(svg, face.suit, 50, 112, face.suit.length > 9 ? 10 : 13, "word-suit");
    if (face.suit.length > 12) suit.setAttribute("textLength", 76);
  }
  return svg;
}

/** A face-up card as an <svg> (decorative: the button or label around it names it). */
export function cardSvg(card) {
  if (!isFrench(card)) return wordSvg(card);
  const [rank, suit] = card;
  const svg = el("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg ${RED.has(suit) ? "red" : "black"}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-paper" }, svg);
  corner(svg, rank, suit, false);
  corner(svg, rank, suit, true);
  if (rank === "A") pip(svg, suit, 50, 70, 46);
  else if (PIPS[rank]) for (const [x, y] of PIPS[rank]) pip(svg, suit, x, y, 19, y > 70);
  else face(svg, rank, suit);
  return svg;
}

/** A card's back as an <svg>. */
export function backSvg() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg back", "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fdfaf2", stroke: "#00000033" }, svg);
  el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#back-weave)" }, svg);
  el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "none", stroke: "#f5d98b", "stroke-width": 1.5 }, svg);
  el("circle", { cx: 50, cy: 70, r: 14, fill: "#8e1b2b", stroke: "#f5d98b", "stroke-width": 1.5 }, svg);
  pip(svg, "S", 50, 70, 12);
  return svg;
}

/** A face-up card on the table, labelled for screen readers. */
export function tableCard(card, extraClass = "") {
  const div = document.createElement("div");
  div.className = `card ${extraClass}`.trim();
  div.setAttribute("role", "img");
  div.setAttribute("aria-label", cardName(card));
  div.dataset.card = card;
  div.appendChild(cardSvg(card));
  return div;
}

/** A face-down card on the table. */
export function tableBack(label = "", extraClass = "") {
  const div = document.createElement("div");
  div.className = `card back ${extraClass}`.trim();
  if (label) {
    div.setAttribute("role", "img");
    div.setAttribute("aria-label", label);
  }
  div.appendChild(backSvg());
  return div;
}

/** A playable card in the hand: a button named like "Queen of spades". */
export function handButton(card) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card in-hand";
  button.dataset.card = card;
  button.setAttribute("aria-label", cardName(card));
  button.appendChild(cardSvg(card));
  return button;
}
