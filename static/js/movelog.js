// The move log of the current deal: every move, the passes, the clock's and the
// stand-in's moves named as theirs ("the clock played K♣ for you"), takeovers
// and departures. In view on a wide window (the side column), one tap away on a
// phone (the "Log" tab). Each state adds its `view.last`; when the states alone
// cannot say what happened (on connect, a version missed, the clock moving, a
// seat changing hands, a new phase) the page reads the log the server built for
// this seat (GET /api/tables/{id}/log/, docs/protocol.md), which shows a
// passed card only to the seats that may see it.

import { api } from "./client.js";
import { cardShort } from "./cards.js";
import { h, seatName } from "./layout.js";

const log = { deal: null, entries: [], version: -1, prev: null, fetching: false, again: false, ctx: null, tableId: null };

/** What a move did, in words ("played K♣", "passed 3 cards"), from the game's layout; `said`
 * is the words the move was offered with, where the server kept them (the log's `said`). */
export function moveWords(ctx, move, said = null) {
  const text = ctx.game.describe ? ctx.game.describe(move, ctx, said) : null;
  if (text) return text;
  if (typeof move.play === "string") return `played ${cardShort(move.play)}`;
  if (!Object.keys(move).length) return "moved";
  return ctx.game.moveLabel ? ctx.game.moveLabel(move, ctx).replace(/^./, (c) => c.toLowerCase()) : "moved";
}

/** One log entry as a sentence: "Bot 2 played Q♠", "The clock played K♣ for you", "Ana left the game". */
export function entryText(ctx, entry) {
  if (entry.kind === "left") return `${entry.name} left the game: a bot plays the seat`;
  if (entry.kind === "takeover") return entry.back ? `${entry.name} took back their seat` : `${entry.name} took over ${entry.left}'s seat`;
  // A bot's move stays the bot's when a player takes the seat later (after someone left it).
  const who = entry.by === "bot" ? `Bot ${entry.seat + 1}` : seatName(ctx, entry.seat);
  const whom = who === "You" ? "you" : who;
  const words = moveWords(ctx, entry.move || {}, entry.said || null);
  if (entry.by === "timeout") return `Time ran out: the clock ${words} for ${whom}`;
  if (entry.by === "stand_in") return `A stand-in bot ${words} for ${whom}`;
  if (entry.by === "admin") return `Staff ${words} for ${whom}`;
  return `${who} ${words}`;
}

/** Who made a move, as far as a state says: a bot, the stand-in of an away player, or the player. */
function byFromState(msg, seat) {
  const info = msg.table.seats[seat] || {};
  if (info.kind === "bot") return "bot";
  return info.stand_in ? "stand_in" : "human";
}

function seatsKey(msg) {
  return JSON.stringify(msg.table.seats.map((s) => [s.kind, s.name, s.left, s.stand_in]));
}

/** Whether the states alone cannot tell what happened between `prev` and `msg`. */
function cannotFollow(prev, msg) {
  if (!prev || msg.version > prev.version + 1) return true;
  if (JSON.stringify(prev.table.last_timeout || []) !== JSON.stringify(msg.table.last_timeout || []) && (msg.table.last_timeout || []).length) return true;
  if (seatsKey(prev) !== seatsKey(msg)) return true;
  return !!(prev.view && msg.view && prev.view.phase !== msg.view.phase);
}

async function fetchLog() {
  if (log.fetching) {
    log.again = true;
    return;
  }
  log.fetching = true;
  try {
    const body = await api(`/api/tables/${encodeURIComponent(log.tableId)}/log/`);
    // A newer state may have come meanwhile: keep what the states added after the log's version.
    if (body.version >= log.version || log.entries.length === 0) {
      const later = log.entries.filter((e) => e.version > body.version);
      log.entries = [...body.entries, ...later];
      log.version = Math.max(body.version, log.version);
    }
  } catch (error) {
    // No log this time: the states keep adding to it, and the next fetch tries again.
  } finally {
    log.fetching = false;
  }
  if (log.again) {
    log.again = false;
    fetchLog();
  } else draw();
}

/** Take a state (table.js calls this for each): add its move, or read the whole log again. */
export function onState(ctx, msg, tableId) {
  log.ctx = ctx;
  log.tableId = tableId;
  const prev = log.prev;
  log.prev = msg;
  const view = msg.view;
  if (!view || msg.table.status === "waiting") {
    log.deal = null;
    log.entries = [];
    draw();
    return;
  }
  const deal = `${msg.table.game_number}:${view.deal_number ?? 1}`;
  if (deal !== log.deal) {
    const followed = log.deal !== null && prev && msg.version === prev.version + 1;
    log.deal = deal;
    log.entries = [];
    log.version = msg.version;
    // A deal that began with the move we just saw starts empty; otherwise ask.
    if (!followed) fetchLog();
    draw();
    return;
  }
  if (cannotFollow(prev, msg)) fetchLog();
  else if (view.last && msg.version > log.version) {
    log.entries.push({ kind: "move", seat: view.last.seat, move: view.last.move, by: byFromState(msg, view.last.seat), version: msg.version });
    log.version = msg.version;
  }
  draw();
}

/** The entries now, for tests and the page (`window.cardtable`). */
export function entries() {
  return log.entries.slice();
}

function draw() {
  const list = document.getElementById("move-log");
  const ctx = log.ctx;
  if (!list || !ctx) return;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(
    ...log.entries.map((entry) =>
      h("li", { class: `log-${entry.kind} by-${entry.by || "seat"}`, "data-version": entry.version ?? "" }, entryText(ctx, entry)),
    ),
  );
  if (!log.entries.length) list.append(h("li", { class: "hint", text: ctx.view ? "No move yet in this deal." : "The game has not started." }));
  const title = document.getElementById("log-title");
  if (title) title.textContent = ctx.view && ctx.view.deal_number ? `Deal ${ctx.view.deal_number}: the moves` : "The moves";
  if (atEnd) list.scrollTop = list.scrollHeight;
}
