// The player's hand: fanned card buttons, marked legal, selectable for
// multi-card moves. Which cards are legal comes from `legal_moves` only.

import { handButton } from "./cards.js";

/**
 * Sort the legal moves into card plays, cards with several places to go, multi-card choices
 * and other buttons. `cardOf(move)`, when given, names the hand card another kind of move
 * takes (a RECYCLE choice of one card, with or without a place): such a move is played from
 * the hand when no other move names that card; a card several moves name (its colour's
 * expedition or the discard) is tapped, then one of its `places` (card to its moves) chosen.
 */
export function classify(legal, cardOf = null) {
  const plays = new Map();
  const places = new Map();
  const multi = { key: null, moves: [], cards: new Set() };
  const others = [];
  const named = new Map();
  if (cardOf) for (const move of legal) {
    const card = cardOf(move);
    if (card) named.set(card, [...(named.get(card) || []), move]);
  }
  for (const move of legal) {
    const [key] = Object.keys(move);
    const value = move[key];
    const card = cardOf ? cardOf(move) : null;
    const naming = card ? named.get(card) : [];
    if (card && naming.length === 1) plays.set(card, move);
    else if (card) places.set(card, naming);
    else if (key === "play" && typeof value === "string") plays.set(value, move);
    else if (Array.isArray(value) && value.every((c) => typeof c === "string")) {
      multi.key = key;
      multi.moves.push(move);
      value.forEach((c) => multi.cards.add(c));
    } else others.push(move);
  }
  return { plays, places, multi, others };
}

/** The legal multi-card move made of exactly the selected cards, or null. */
export function chosenMove(hand, multi, selected) {
  if (!multi.key) return null;
  // The same cards, whatever the order: a hand of another deck is held by colour and value,
  // its moves list cards in the deck's order.
  const wanted = JSON.stringify(hand.filter((c) => selected.has(c)).sort());
  return multi.moves.find((m) => JSON.stringify([...m[multi.key]].sort()) === wanted) || null;
}

/**
 * Draw `hand` into `root`. Buttons are reused by card so keyboard focus survives
 * updates; `onCard(card)` runs on click, tap or Enter.
 */
export function renderHand(root, hand, moves, selected, pending, onCard, marks = null) {
  const { plays, multi } = moves;
  const places = moves.places || new Map();
  const focused = [...root.children].indexOf(document.activeElement);
  // Buttons by card; a deck may hold several cards of one name (LAMA's eight of each).
  const existing = new Map();
  for (const b of root.children) existing.set(b.dataset.card, [...(existing.get(b.dataset.card) || []), b]);
  let cursor = root.firstChild;
  hand.forEach((card, i) => {
    let button = (existing.get(card) || []).shift();
    if (!button) {
      button = handButton(card);
      button.addEventListener("click", () => onCard(card));
    }
    if (button === cursor) cursor = cursor.nextSibling;
    else root.insertBefore(button, cursor);
    const playable = !pending && (plays.has(card) || places.has(card) || multi.cards.has(card));
    button.classList.toggle("legal", playable);
    button.classList.toggle("dim", !playable && (plays.size > 0 || places.size > 0 || multi.key !== null));
    button.classList.toggle("selected", selected.has(card));
    // Marked cards (passed to you, the hint, what a play would do): a ribbon, and
    // words for screen readers. `marks` maps a card to {short, label, kind}.
    const mark = marks ? marks.get(card) : null;
    button.classList.toggle("marked", !!mark);
    for (const kind of ["received", "hint", "danger", "effect"]) button.classList.toggle(`mark-${kind}`, !!mark && mark.kind === kind);
    if (mark) {
      button.dataset.mark = mark.short || mark.label;
      button.setAttribute("aria-description", mark.label);
    } else {
      delete button.dataset.mark;
      button.removeAttribute("aria-description");
    }
    button.setAttribute("aria-disabled", playable ? "false" : "true");
    if (multi.cards.has(card)) button.setAttribute("aria-pressed", selected.has(card) ? "true" : "false");
    else button.removeAttribute("aria-pressed");
    button.style.setProperty("--i", i);
  });
  for (const stale of existing.values()) stale.forEach((b) => b.remove());
  // A keyboard player whose card just left the hand keeps the focus in the hand.
  if (focused >= 0 && !root.contains(document.activeElement) && root.childElementCount) {
    root.children[Math.min(focused, root.childElementCount - 1)].focus();
  }
  root.style.setProperty("--n", hand.length);
  const mid = (hand.length - 1) / 2;
  root.style.setProperty("--mid", mid);
  // A hand of more than 13 cards (25 in some games) fans no wider nor lower than 13 do:
  // its outer cards stay in the window.
  root.style.setProperty("--tilt", `${Math.min(1, 6 / Math.max(mid, 1))}deg`);
  root.style.setProperty("--drop", `${Math.min(0.25, 9 / Math.max(mid * mid, 1))}px`);
  fitHand(root);
}

/** Overlap the hand's cards so the whole hand, fanned, fits the width. */
export function fitHand(root) {
  const n = root.childElementCount;
  if (!n) return;
  const style = getComputedStyle(root);
  const inner = root.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // The card's own size: a bounding box would include its tilt in the fan (and
  // change when the first card is selected and stands upright), overlapping the
  // cards more than needed and shifting the hand on every selection.
  const first = root.firstElementChild;
  const card = first.offsetWidth || 80;
  // The fan tilts each card 1deg per place from the middle (felt.css), so the
  // outer cards' top corners lean out past their boxes by about height * sin(angle).
  const lean = (first.offsetHeight || card * 1.4) * Math.sin((Math.min((n - 1) / 2, 6) * Math.PI) / 180);
  const width = inner - 2 * lean;
  const step = n > 1 ? Math.min(card * 0.72, (width - card) / (n - 1)) : card;
  root.style.setProperty("--overlap", `${Math.min(0, step - card)}px`);
  // Too narrow a strip of each card for a value of two figures on a line: cards that can
  // (of other decks, cards.js) write it one figure under the other.
  root.classList.toggle("tight", step < card * 0.45);
}
