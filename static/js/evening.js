// An evening at the table: the turn clock's countdowns, leaving a game (with a
// confirm step) and taking over a left seat, the grace before a stand-in takes a
// dropped player's seat, what the stand-in did while you were away, and tables
// that ended. It draws over what table.js drew for each state, so the page's
// own layout stays where it is.

import { cardName } from "./cards.js";
import { h } from "./layout.js";
import { toast } from "./panels.js";

const WARN_SECONDS = 5;
const $ = (id) => document.getElementById(id);

const evening = {
  msg: null,
  send: null,
  player: null,
  confirming: false,
  timer: null,
  warned: null,
  timeoutKey: null,
  leftSeat: null, // the seat this page's player left, once they have
  barKey: null,
};

/** Seconds left until an ISO time (never below 0). */
function secondsUntil(iso) {
  return Math.max(0, (Date.parse(iso) - Date.now()) / 1000);
}

function clockText(seconds) {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function seatNode(seat) {
  return document.querySelector(`#seats .seat[data-seat="${seat}"]`);
}

function nameOf(msg, seat) {
  if (msg.you && msg.you.seat === seat) return "you";
  const info = msg.table.seats[seat];
  if (info && info.kind === "bot") return `Bot ${seat + 1}`;
  return (info && info.name) || `Seat ${seat + 1}`;
}

/** A move as a person reads it: "played the queen of spades", "passed …". */
export function describeMove(move) {
  if (move.play) return `played ${cardName(move.play)}`;
  if (move.pass) return Array.isArray(move.pass) ? `passed ${move.pass.map(cardName).join(", ")}` : `passed ${move.pass} cards`;
  if (move.discard) return Array.isArray(move.discard) ? `put ${move.discard.map(cardName).join(", ")} in the crib` : `put ${move.discard} cards in the crib`;
  if (move.go) return "said go";
  if (move.next) return "went on to the next deal";
  return `moved (${JSON.stringify(move)})`;
}

/** Redraw the countdowns from the state's times; runs on every state and four times a second. */
function tick() {
  const msg = evening.msg;
  if (!msg) return;
  const table = msg.table;
  const playing = table.status === "playing";
  const mine = msg.you && msg.you.seat !== null && msg.you.seat !== undefined && (msg.legal_moves || []).length > 0;
  const left = playing && table.deadline ? secondsUntil(table.deadline) : null;
  for (const seat of table.seats) {
    const node = seatNode(seat.seat);
    if (!node) continue;
    let clock = node.querySelector(".evening-clock");
    const acting = left !== null && (msg.to_act || []).includes(seat.seat);
    if (acting) {
      if (!clock) node.append((clock = h("span", { class: "evening-clock", role: "timer" })));
      clock.textContent = clockText(left);
      clock.classList.toggle("warn", left <= WARN_SECONDS);
      clock.setAttribute("aria-label", `${Math.ceil(left)} seconds left`);
    } else if (clock) clock.remove();
    let grace = node.querySelector(".evening-grace");
    if (seat.away_until && playing) {
      if (!grace) node.append((grace = h("span", { class: "evening-grace", role: "timer" })));
      grace.textContent = `back in ${clockText(secondsUntil(seat.away_until))} or a bot plays`;
    } else if (grace) grace.remove();
  }
  const banner = $("turn-banner");
  if (banner) {
    let own = $("my-clock");
    if (mine && left !== null) {
      if (!own || own.parentNode !== banner) banner.append((own = h("span", { id: "my-clock", class: "evening-clock mine", role: "timer" })));
      own.textContent = clockText(left);
      const warn = left <= WARN_SECONDS;
      own.classList.toggle("warn", warn);
      banner.classList.toggle("clock-warn", warn);
      // Say it once per deadline: a person who looks away hears the warning.
      if (warn && evening.warned !== table.deadline) {
        evening.warned = table.deadline;
        const box = $("evening-warning");
        if (box) box.textContent = `${Math.ceil(left)} seconds left to move`;
      }
    } else {
      if (own) own.remove();
      banner.classList.remove("clock-warn");
    }
  }
}

function leaveBox(msg) {
  const { table, you } = msg;
  const seated = you && you.seat !== null && you.seat !== undefined;
  if (!seated || table.status !== "playing") return null;
  if (!evening.confirming) {
    return h("button", {
      type: "button",
      class: "btn small ghost",
      id: "leave-game",
      onclick: () => {
        evening.confirming = true;
        draw();
        $("leave-confirm")?.focus();
      },
      text: "Leave game",
    });
  }
  return h(
    "div",
    { class: "evening-confirm", role: "alertdialog", "aria-labelledby": "leave-question" },
    h("p", { id: "leave-question", text: "Leave this game? A bot plays your seat to the end, and the result shows that you left." }),
    h("button", {
      type: "button",
      class: "btn small primary",
      id: "leave-confirm",
      onclick: () => {
        evening.confirming = false;
        evening.leftSeat = evening.msg.you.seat;
        evening.send({ type: "leave" });
      },
      text: "Leave",
    }),
    h("button", {
      type: "button",
      class: "btn small",
      id: "leave-cancel",
      onclick: () => {
        evening.confirming = false;
        draw();
      },
      text: "Stay",
    }),
  );
}

/** The seat this player left (this page saw them leave, or the seat names them), else null. */
function ownLeftSeat(msg) {
  const seated = msg.you && msg.you.seat !== null && msg.you.seat !== undefined;
  if (seated) return null;
  const named = msg.table.seats.find((s) => s.left && evening.player && s.left === evening.player.name);
  if (evening.leftSeat !== null && msg.table.seats[evening.leftSeat]?.left) return evening.leftSeat;
  return named ? named.seat : null;
}

function takeoverButton(seat, text) {
  return h("button", {
    type: "button",
    class: "btn small primary evening-takeover",
    onclick: () => evening.send({ type: "takeover", seat }),
    text,
  });
}

/**
 * After leaving: taking the seat back and the way back to the lobby, side by side in
 * view where the move buttons were (not under the seat's plate, where a button
 * would cover this very message).
 */
function leftBox(msg) {
  const mine = ownLeftSeat(msg);
  if (mine === null) return null;
  const back = msg.table.status === "playing" && evening.player ? takeoverButton(mine, "Take back your seat") : null;
  return h(
    "div",
    { class: "evening-confirm evening-gone" },
    h("p", { text: "You left this game: a bot plays your seat. You can take it back, watch on, or go back to the lobby." }),
    h("div", { class: "row end" }, ...[back, h("a", { class: "btn small primary", id: "back-to-lobby", href: "/", text: "Back to the lobby" })].filter(Boolean)),
  );
}

function takeoverButtons(msg) {
  const { table, you } = msg;
  const seated = you && you.seat !== null && you.seat !== undefined;
  const mine = ownLeftSeat(msg);
  for (const seat of table.seats) {
    const node = seatNode(seat.seat);
    if (!node || !seat.left) continue;
    node.append(h("span", { class: "badge evening-left", text: `${seat.left} left` }));
    // A player who left a seat this game may take back only that seat (the server's rule),
    // offered in the bar below the felt (leftBox); anyone else may take over any seat left.
    if (!seated && table.status === "playing" && evening.player && mine === null) {
      node.append(takeoverButton(seat.seat, "Take over"));
    }
  }
}

function draw() {
  const msg = evening.msg;
  if (!msg) return;
  const bar = $("evening-bar");
  if (bar) {
    const ended = msg.table.ended === "abandoned" ? h("p", { class: "evening-ended", text: "This table has ended: nobody was here for a long while." }) : null;
    // Redrawn only when what it offers changes: a button or link replaced under the
    // pointer at every bot's move would miss the click.
    const seated = msg.you && msg.you.seat !== null && msg.you.seat !== undefined;
    const key = JSON.stringify([seated, msg.table.status, evening.confirming, ownLeftSeat(msg), msg.table.ended, !!evening.player]);
    if (key !== evening.barKey) {
      evening.barKey = key;
      bar.replaceChildren(...[leaveBox(msg), leftBox(msg), ended].filter(Boolean));
    }
  }
  takeoverButtons(msg);
  // Say once, as it happens, which move the clock made: a player who comes back later
  // finds it in the move log, not as an old toast.
  const key = JSON.stringify([msg.table.game_number, msg.table.last_timeout]);
  const timedOut = msg.table.last_timeout || [];
  if (evening.timeoutKey === null) evening.timeoutKey = key;
  else if (timedOut.length && key !== evening.timeoutKey) {
    evening.timeoutKey = key;
    const last = msg.view && msg.view.last;
    const who = timedOut.map((s) => nameOf(msg, s)).join(", ");
    if (last && timedOut.includes(last.seat)) toast(`Time ran out: the clock ${describeMove(last.move)} for ${nameOf(msg, last.seat)}.`);
    else toast(`Time ran out: the clock moved for ${who}.`);
  }
  tick();
}

/** After table.js drew a state: add the clocks, the leave and take-over controls. */
export function onState(msg, send, player) {
  evening.msg = msg;
  evening.send = send;
  evening.player = player;
  if (msg.table.status !== "playing") evening.confirming = false;
  draw();
  if (!evening.timer) evening.timer = setInterval(tick, 250);
}

/** Messages table.js does not know: `stood_in`, what the stand-in did while you were away. */
export function onMessage(msg) {
  if (msg.type !== "stood_in") return;
  const box = $("evening-away");
  if (!box) return;
  const items = msg.moves.map((m) => h("li", { text: `${m.by === "timeout" ? "The clock" : "The stand-in"} ${describeMove(m.move)}` }));
  box.replaceChildren(
    h("h2", { id: "away-title", text: "While you were away" }),
    h("p", { text: `A bot played ${msg.moves.length} move${msg.moves.length === 1 ? "" : "s"} for you:` }),
    h("ol", { class: "evening-moves" }, items),
    h("button", { type: "button", class: "btn small", id: "away-close", onclick: () => (box.hidden = true), text: "Got it" }),
  );
  box.hidden = false;
}
