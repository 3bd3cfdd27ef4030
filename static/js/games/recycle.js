// A game described in RECYCLE (docs/recycle.md), drawn from its view alone. Each
// place carries its owner, how it shows to this seat (`hidden`: a face-down pile
// with a count, `visible`: face up, `memory`: remembered copies) and its name in
// words (`label`). A seat's places sit beside its seat as compact piles (a card
// back with a count, or the top few cards fanned, with a small label); the game's
// and the teams' places sit in the middle. Your hand is your own hidden place
// (`view.hand`). The headline says the deal, the trick and the game's words
// (trumps, the suit to follow). Moves are the legal moves: `{"play": CARD}` from
// the hand, `{"choice": [branch, ...items]}` as buttons, labelled by the view's
// `choice_words` (what each branch does) and `choice_items` (what each item is: a
// number is a number, a seat a seat). Cards of other decks are drawn from the
// view's `faces` (cards.js).

import { cardName, cardShort, isFrench, setFaces, tableBack, tableCard } from "../cards.js";
import { h, seatName } from "../layout.js";
import { isPicked, pickers } from "../picker.js";

const FANNED = 3;
// RECYCLE's rank names as a player reads them on a card.
const RANKS = { A: "A", TWO: "2", THREE: "3", FOUR: "4", FIVE: "5", SIX: "6", SEVEN: "7", EIGHT: "8", NINE: "9", TEN: "10", J: "J", Q: "Q", K: "K" }; // face-up cards drawn in a pile: its top few

/** A card on the felt: a French card, or a card of another deck by the face the view gives. */
function feltCard(card) {
  return tableCard(card);
}

/** Take the faces of this view's cards (cards.js draws them), and the words of its last move. */
function knowFaces(ctx) {
  if (ctx && ctx.view && ctx.view.faces) setFaces(ctx.view.faces);
  rememberSaid(ctx);
}

/** A word of the program ("HEARTS", "TWO") as a person reads it: "Hearts", "Two". */
function word(value) {
  const text = String(value).replace(/_/g, " ").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function cardsWord(count) {
  return `${count} card${count === 1 ? "" : "s"}`;
}

/** One place as a compact pile: a back with its count, or its top few cards fanned; a small label under it. */
function pile(place, label) {
  const shown = place.show !== "hidden" && Array.isArray(place.cards);
  const box = h("div", {
    class: `rpile ${shown ? "face-up" : "face-down"}${place.show === "memory" ? " memory" : ""}`,
    role: "group",
    "aria-label": `${label}: ${shown && place.count ? cardList(place.cards) : cardsWord(place.count)}`,
    "data-location": label,
    "data-show": place.show,
  });
  const cards = h("div", { class: "rpile-cards" });
  if (shown) place.cards.slice(-FANNED).forEach((card, i) => cards.append(withIndex(feltCard(card), i)));
  else if (place.count) cards.append(withIndex(tableBack("", "stacked"), 0));
  if (!place.count) cards.append(h("div", { class: "rpile-empty", "aria-hidden": "true" }));
  if (place.count > (shown ? FANNED : 1)) cards.append(h("span", { class: "rpile-count", "aria-hidden": "true", text: String(place.count) }));
  box.append(cards, h("span", { class: "rpile-label", "aria-hidden": "true", text: label }));
  return box;
}

function cardList(cards) {
  return cards.map(cardName).join(", ");
}

function withIndex(node, i) {
  node.style.setProperty("--i", i);
  return node;
}

/** The team (0-based) `seat` plays in, or -1 without partners. */
function teamOf(view, seat) {
  return (view.teams || []).findIndex((team) => team.includes(seat));
}

/** A team's name: its members' names ("You & Bot 3"). */
function teamName(ctx, index) {
  const team = (ctx.view.teams || [])[index] || [];
  return team.length ? team.map((s) => seatName(ctx, s)).join(" & ") : `Team ${index + 1}`;
}

/** A team's short name: "your side" for the seat's own team, else "team 2" (as its plates' tags say). */
function teamShort(ctx, index) {
  const mine = ctx.seated && teamOf(ctx.view, ctx.me) === index;
  return mine ? "your side" : `team ${index + 1}`;
}

function placeLabel(ctx, place) {
  const label = place.label || word(place.name);
  const remembered = place.show === "memory" ? " (remembered)" : "";
  if (place.owner.startsWith("team")) return `${label} · ${teamShort(ctx, Number(place.owner.slice(4)))}${remembered}`;
  return label + remembered;
}

// Where the middle's piles go: the felt's middle band, else lower, else higher, else
// smaller, else smaller still, else one above another; the first where they meet no seat's
// plate or pile. Seats sit around an ellipse, and with side seats the middle band is theirs on
// a narrow felt. Where every fixed spot meets a seat, the piles go in the tallest band of the
// felt that no seat crosses (a top seat's row of places can reach down past "high").
const SPOTS = ["mid", "low", "high", "mid tight", "low tight", "high tight", "mid tiny", "low tiny", "high tiny", "mid tiny column"];
const BAND_SPOTS = ["band", "band tight", "band tiny", "band tiny column"];
const SIDE = 0.27; // of the felt's width on each side of the middle's piles (recycle.css's inset)
let placed = null;
let watcher = null;

function seatParts() {
  return [...document.querySelectorAll("#seats .plate, #seats .rpile, #seats .bubble")].map((n) => n.getBoundingClientRect());
}

function clash(box) {
  const seats = seatParts();
  let area = 0;
  for (const node of box.querySelectorAll(".rpile")) {
    const a = node.getBoundingClientRect();
    for (const b of seats) {
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const hgt = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0 && hgt > 0) area += w * hgt;
    }
  }
  return area;
}

// The tallest band of the box's frame (the felt's middle, between its sides) that no seat's
// part crosses: {top, bottom} in pixels from the frame's top, or null.
function freeBand(box) {
  const frame = box.offsetParent && box.offsetParent.getBoundingClientRect();
  if (!frame) return null;
  const left = frame.left + frame.width * SIDE;
  const right = frame.right - frame.width * SIDE;
  const taken = seatParts()
    .filter((r) => r.right > left && r.left < right)
    .map((r) => [r.top - frame.top, r.bottom - frame.top])
    .sort((a, b) => a[0] - b[0]);
  let best = null;
  let at = 0;
  for (const [top, bottom] of [...taken, [frame.height, frame.height]]) {
    if (top - at > (best ? best.bottom - best.top : 0)) best = { top: at, bottom: top, height: frame.height };
    at = Math.max(at, bottom);
  }
  return best;
}

function place(box) {
  if (!box.isConnected) return;
  box.style.inset = "";
  let best = null;
  for (const spot of SPOTS) {
    box.dataset.spot = spot;
    const area = clash(box);
    if (!area) return;
    if (!best || area < best.area) best = { spot, area };
  }
  const band = freeBand(box);
  if (band) {
    const margin = 4;
    const inset = `${band.top + margin}px ${SIDE * 100}% ${band.height - band.bottom + margin}px`;
    for (const spot of BAND_SPOTS) {
      box.dataset.spot = spot;
      box.style.inset = inset;
      const area = clash(box);
      if (!area) return;
      if (area < best.area) best = { spot, area, inset };
    }
  }
  box.dataset.spot = best.spot;
  box.style.inset = best.inset || "";
}

/** Place the middle's piles once drawn (and once more a frame later, when the seats around
 * have their final size), and again whenever the felt changes size. */
function placeSoon(box) {
  placed = box;
  requestAnimationFrame(() => {
    place(box);
    requestAnimationFrame(() => place(box));
  });
  const felt = document.getElementById("felt");
  if (felt && window.ResizeObserver && (!watcher || watcher.felt !== felt)) {
    // A felt drawn anew (a new layout) is the one to watch.
    if (watcher) watcher.disconnect();
    watcher = new ResizeObserver(() => placed && place(placed));
    watcher.felt = felt;
    watcher.observe(felt);
  }
}

/** The seat's own places beside it; your hand (below the felt) is not repeated. */
function seatPlaces(ctx, seat) {
  return (ctx.view.locations || []).filter((l) => {
    if (l.owner !== String(seat) || !l.count) return false;
    if (ctx.hands && l.kind === "iloc") return false; // the replay shows each hand face up on its seat
    return !(ctx.seated && seat === ctx.me && l.kind === "iloc" && l.show === "visible");
  });
}

/** The headline: the deal, the trick, and the game's words that are set (trumps, the suit to follow). */
function headline(view) {
  const parts = [];
  if (view.deal_number > 1 || view.tricks_played !== undefined) parts.push(`Deal ${view.deal_number}`);
  if (view.tricks_played !== undefined && view.phase === "play") parts.push(`Trick ${view.tricks_played + 1}`);
  for (const s of view.strings || []) {
    // Only the words the view marks for the felt (a suit, a colour), as a person says them.
    if (s.owner === "game" && s.felt && s.value) parts.push(`${s.label || word(s.name)}: ${s.said || word(s.value)}`);
  }
  return parts.join(" · ");
}

/** A choice's item as words, by what the view says it is (`kind`): a number, a seat's name,
 * a team, a card's short name, a place's label, or the name given. */
function itemText(item, ctx, kind = null) {
  if (kind === "number") return String(item);
  if (Array.isArray(item)) return item.map((c) => cardShort(c)).join(" ") || "no cards"; // a set of cards
  if (typeof item === "number") return kind === null && ctx ? seatName(ctx, item) : kind === "player" && ctx ? seatName(ctx, item) : String(item);
  if (kind === "card" || (typeof item === "string" && isFrench(item))) return cardShort(item);
  if (typeof item === "string" && /^team\d+$/.test(item)) return `team ${Number(item.slice(4)) + 1}`;
  if (kind === "place") {
    const place = ((ctx && ctx.view && ctx.view.locations) || []).find((l) => l.name === item && l.label);
    return place ? place.label : word(item);
  }
  if (Object.hasOwn(RANKS, item)) return RANKS[item];
  return word(item);
}

/** What each item of a branch's move is ("number", "player", "card"...), from the view. */
function kindsOf(ctx, branch, said = null) {
  return ((said || (ctx && ctx.view) || {}).choice_items || [])[branch] || [];
}

// The words of the choices past moves were made at, by move, as the views' `last` told
// them: the move log names each move as it was offered, not by the choice pending now.
const pastSaid = new Map();

/** Keep the words of the view's last move. */
function rememberSaid(ctx) {
  const last = ctx && ctx.view && ctx.view.last;
  if (last && last.words) pastSaid.set(JSON.stringify(last.move), { choice_words: last.words, choice_items: last.items || [] });
}

/** The words of the choice a move past was made at: as the server kept them with the move
 * (`kept`, the log's `said`), else as this page saw them (null when it never did). */
function saidFor(move, ctx, kept = null) {
  if (kept && kept.words) return { choice_words: kept.words, choice_items: kept.items || [] };
  rememberSaid(ctx);
  return pastSaid.get(JSON.stringify(move)) || null;
}

export default {
  center(ctx) {
    knowFaces(ctx);
    const { view } = ctx;
    const locations = view.locations || [];
    const middle = locations.filter((l) => (l.owner === "game" || l.owner.startsWith("team")) && l.count);
    const box = h("div", { class: "center-stack recycle-table" });
    const news = headline(view);
    if (news) box.append(h("div", { class: "felt-info recycle-headline", text: news }));
    if (view.phase === "over" && view.result && view.result.error) {
      box.append(h("p", { class: "felt-info", role: "alert", text: `The game was stopped: ${view.result.error}` }));
    }
    box.append(h("div", { class: "rpile-row" }, ...middle.map((l) => pile(l, placeLabel(ctx, l)))));
    box.dataset.spot = "mid";
    placeSoon(box);
    return box;
  },
  seatExtra(ctx, seat) {
    knowFaces(ctx);
    const box = h("div", { class: "recycle-seat" });
    for (const place of seatPlaces(ctx, seat)) box.append(pile(place, placeLabel(ctx, place)));
    return box.childElementCount ? box : null;
  },
  plateTag(ctx, seat) {
    // Partners: each seat's team on its plate, "partner" for your own side's other seats.
    const team = teamOf(ctx.view, seat);
    if (team < 0) return null;
    const partner = ctx.seated && seat !== ctx.me && teamOf(ctx.view, ctx.me) === team;
    const text = partner ? "partner" : `team ${team + 1}`;
    return h("span", { class: `team-tag team-${team % 4}`, title: teamName(ctx, team), text });
  },
  scoreColumns(ctx) {
    // Storage a seat or team keeps (bids, points), by its readable name, unless it is the score itself.
    const { view, table } = ctx;
    const columns = new Map();
    for (const s of view.storage || []) {
      if (s.owner === "game") continue;
      const seats = s.owner.startsWith("team") ? (view.teams || [])[Number(s.owner.slice(4))] || [] : [Number(s.owner)];
      const label = s.label || word(s.name);
      if (!columns.has(label)) columns.set(label, table.seats.map(() => ""));
      for (const seat of seats) columns.get(label)[seat] = s.value;
    }
    const same = (values) => values.every((v, seat) => v === "" || v === view.scores[seat]);
    return [...columns].filter(([, values]) => !same(values)).map(([title, values]) => ({ title, values }));
  },
  historyTitle: "After each deal",
  resultNote(ctx) {
    // A game the interpreter stopped (a bound passed) ends without winners: say why.
    const result = ctx.view && ctx.view.result;
    return result && result.error ? h("p", { class: "hint", role: "alert", text: `The game was stopped: ${result.error}` }) : null;
  },
  bubble(move, ctx) {
    knowFaces(ctx);
    if (move.play) return cardShort(move.play);
    return move.choice ? this.moveLabel(move, ctx, saidFor(move, ctx)) : "";
  },
  cardOf(move, view) {
    // A choice of one card of your hand, alone or with where it goes (a colour's pile, a
    // player): tap the card (hand.js's classify: then its place, when it has several).
    if (!Array.isArray(move.choice)) return null;
    const kinds = ((view && view.choice_items) || [])[move.choice[0]] || [];
    const items = move.choice.slice(1);
    if (kinds.length !== items.length || kinds.includes("cards")) return null;
    const at = kinds.indexOf("card");
    if (at < 0 || kinds.indexOf("card", at + 1) >= 0) return null;
    return (view.hand || []).includes(items[at]) ? items[at] : null;
  },
  whereLabel(move, ctx) {
    // Where a tapped card goes: the move's words and items but the card ("Play to your side ·
    // Red", "Play to the discard").
    knowFaces(ctx);
    const [branch, ...items] = move.choice;
    const kinds = kindsOf(ctx, branch);
    const rest = items.map((item, i) => (kinds[i] === "card" ? null : itemText(item, ctx, kinds[i] || null))).filter((t) => t !== null);
    const named = ((ctx && ctx.view && ctx.view.choice_words) || [])[branch];
    return [named, ...rest].filter(Boolean).join(" · ") || `Option ${branch + 1}`;
  },
  moveCards(move, ctx = null) {
    if (typeof move.play === "string") return [move.play];
    const card = ctx ? this.cardOf(move, ctx.view) : null;
    return card ? [card] : [];
  },
  moveLabel(move, ctx = null, said = null) {
    // `said`: the words of the choice the move was made at, for a move past (else the pending choice's).
    knowFaces(ctx);
    if (typeof move.play === "string") return cardName(move.play);
    if (!Array.isArray(move.choice)) return JSON.stringify(move);
    const [branch, ...items] = move.choice;
    const kinds = kindsOf(ctx, branch, said);
    const text = items.map((item, i) => itemText(item, ctx, kinds[i] || null)).join(" · ");
    const named = ((said || (ctx && ctx.view) || {}).choice_words || [])[branch];
    // After the branch's words, "You" is "you" ("Give to you").
    return [named, named ? text.replace(/^You\b/, "you") : text].filter(Boolean).join(" ") || `Option ${branch + 1}`;
  },
  actionButtons(ctx, moves, makeMove, pending) {
    // Choices of two items or more (a player, then a rank) in rows by their first item:
    // "Bot 2: A 3 K". Others are one button each.
    knowFaces(ctx);
    const box = h("div", { class: "recycle-actions" });
    const rows = new Map();
    // A choice of a set of cards: cards to pick and a Confirm (picker.js), not a button per set.
    const picking = pickers(ctx, makeMove, pending);
    if (picking) box.append(picking);
    for (const move of moves) {
      if (picking && isPicked(ctx, move)) continue;
      const items = Array.isArray(move.choice) ? move.choice.slice(1) : [];
      const label = this.moveLabel(move, ctx);
      const button = (text) => h("button", { type: "button", class: "btn primary", disabled: pending, onclick: () => makeMove(move), text, "data-label": label });
      if (items.length < 2) {
        box.append(button(label));
        continue;
      }
      // The row says what the branch does and its first item ("Play to the table · Blue:").
      const kinds = kindsOf(ctx, move.choice[0]);
      const key = JSON.stringify([move.choice[0], items[0]]);
      const named = ((ctx.view && ctx.view.choice_words) || [])[move.choice[0]];
      const head = [named, itemText(items[0], ctx, kinds[0] || null)].filter(Boolean).join(" · ");
      if (!rows.has(key)) rows.set(key, h("div", { class: "choice-row", role: "group", "aria-label": head }, h("span", { class: "choice-head", "aria-hidden": "true", text: `${head}:` })));
      rows.get(key).append(button(items.slice(1).map((item, i) => itemText(item, ctx, kinds[i + 1] || null)).join(" · ")));
    }
    box.append(...rows.values());
    // Two moves that would read the same (two branches doing alike with the same items):
    // numbered, so that no two buttons read alike.
    const seen = new Map();
    for (const b of box.querySelectorAll("button")) {
      // The whole move in words (a row's button says its last items; the row names the rest).
      const label = b.dataset.label;
      const n = (seen.get(label) || 0) + 1;
      seen.set(label, n);
      if (n > 1) {
        b.dataset.label = `${label} (${n})`;
        b.textContent = `${b.textContent} (${n})`;
      }
    }
    return box;
  },
  describe(move, ctx, said = null) {
    knowFaces(ctx);
    if (move.play) return `played ${cardName(move.play)}`;
    if (move.choice) return `chose ${this.moveLabel(move, ctx, saidFor(move, ctx, said))}`;
    return "moved";
  },
  goal() {
    return "An experimental game, played from its RECYCLE description: the buttons and lit cards are your legal moves.";
  },
};
