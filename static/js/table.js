// The table page: takes each state from the server and draws it; its controls
// (controls.js) turn a person's clicks into one of the moves the server listed
// in `legal_moves`.

import { TableClient, api } from "./client.js";
import { cardList, cardName, installSuitSymbols } from "./cards.js";
import { classify, fitHand } from "./hand.js";
import { h, seatName } from "./layout.js";
import { ensurePlayer } from "./name.js";
import { renderRules, renderScores, setupDrawer, showResult, toast } from "./panels.js";
import { chatLines, chatOpened, onChat, onChatHidden, setupChat } from "./chat.js";
import { forgetHint, onHint } from "./hints.js";
import { renderSeats } from "./seats.js";
import { animationTime, setupSettings, sound } from "./settings.js";
import { onMessage as eveningMessage, onState as eveningState } from "./evening.js";
import { entries as logEntries, onState as logState } from "./movelog.js";
import { onState as tipState } from "./tips.js";
import { after as animateAfter, before as animateBefore, counts as animations } from "./animate.js";
import { showSummary } from "./sheet.js";
import { layoutFor, layoutName } from "./games/index.js";
import { drawHand, openSheet, renderActions, renderTools, setupControls, showHint } from "./controls.js";

const GAMES = Object.fromEntries(JSON.parse(document.getElementById("games-data").textContent).map((g) => [g.id, g]));

const $ = (id) => document.getElementById(id);
const room = $("room");
const tableId = room.dataset.table;
const page = {
  msg: null,
  ctx: null,
  player: null,
  selected: new Set(),
  pending: false,
  chatLines, // chat.js's lines by key, read by the tests
  lastKey: null,
  announced: "",
  summaryKey: null,
  summaryClosed: null,
  resultClosed: null,
};

const client = new TableClient(room.dataset.ws, {
  onState: (msg) => render(msg),
  onChat: (msg) => onChat(msg, !!page.msg),
  onHint: (msg) => onHint(msg, page.ctx, () => showHint(page.ctx)),
  onOther: (msg) => eveningMessage(msg),
  onChatHidden: (msg) => onChatHidden(msg),
  onError: (msg) => {
    page.pending = false;
    forgetHint(true);
    toast(msg.message || msg.code);
    if (page.msg) render(page.msg);
  },
  onStatus: (status) => {
    $("lost-banner").hidden = status !== "lost";
    $("conn").textContent = status === "open" ? "Connected" : "Reconnecting…";
    $("conn").className = `conn ${status}`;
    document.body.dataset.connection = status;
    if (status === "lost" && !page.msg) checkTableExists();
  },
});

/** A socket that never opened may mean a wrong link: say so rather than retry forever. */
async function checkTableExists() {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/`);
  } catch (error) {
    if (error.code !== "not_found") return;
    client.closed = true;
    $("lost-banner").hidden = true;
    $("conn").textContent = "";
    $("center").replaceChildren(
      h("div", { class: "welcome" }, h("p", { class: "welcome-title", text: "No such table" }), h("p", {}, "This link leads nowhere. ", h("a", { href: "/", text: "Back to the lobby" }))),
    );
  }
}

function send(msg) {
  if (!client.send(msg)) toast("Not connected yet: trying again in a moment.");
}

function turnText(ctx) {
  const { table, view, legal, toAct } = ctx;
  if (table.status === "waiting") return table.seats.some((s) => s.kind === "empty") ? "Waiting for players" : "Ready to start";
  if (table.status === "finished") return "Game over";
  if (legal.length) {
    const { plays, multi, others } = ctx.moves;
    if (multi.key) return ctx.game.chooseHint ? ctx.game.chooseHint(multi, ctx) : "Your turn: choose your cards";
    if (!plays.size && others.length === 1) return `Your turn: ${ctx.game.moveLabel ? ctx.game.moveLabel(others[0], ctx) : "move"}`;
    if (!plays.size && others.length) return "Your turn: choose a move";
    return "Your turn: play a card";
  }
  const others = toAct.filter((s) => s !== ctx.me || !ctx.seated);
  const special = others.length === 1 && ctx.game.waitText ? ctx.game.waitText(ctx, others[0]) : null;
  if (special) return special;
  if (view && view.turn !== null && view.turn !== undefined) return `${seatName(ctx, view.turn)} to play`;
  return others.length ? `Waiting for ${others.map((s) => seatName(ctx, s)).join(", ")}` : "";
}

function describeLast(ctx) {
  const last = ctx.view && ctx.view.last;
  if (!last) return "";
  const who = seatName(ctx, last.seat);
  const text = ctx.game.describe ? ctx.game.describe(last.move, ctx) : null;
  if (text) return `${who} ${text}.`;
  if (last.move.play) return `${who} played ${cardName(last.move.play)}.`;
  return `${who} moved.`;
}

/** Slide the last played card in from its player's seat. */
function animateLast(ctx) {
  const last = ctx.view && ctx.view.last;
  if (!last || !ctx.freshLast || !last.move.play) return;
  const target = $("felt").querySelector(`.card[data-card="${last.move.play}"]`);
  const seat = $("seats").querySelector(`.seat[data-seat="${last.seat}"]`);
  const origin = ctx.seated && last.seat === ctx.me ? $("hand") : seat;
  if (!target || !origin || !target.animate) return;
  target.classList.add("just-played");
  sound("card");
  // Script animations ignore the stylesheet's reduced-motion rule: ask the same question
  // here, and run at the speed the player chose (none when "off").
  const duration = animationTime(420);
  if (!duration) return;
  const a = origin.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  // A card is an <svg> in its box (a card of any deck is drawn so); the box itself else.
  (target.firstElementChild || target).animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration, easing: "cubic-bezier(.2,.8,.2,1)" },
  );
}

function render(msg) {
  const first = !page.msg;
  const prev = page.ctx;
  page.msg = msg;
  page.pending = false;
  const table = msg.table;
  const you = msg.you || { seat: null, host: false };
  const game = layoutFor(table.game);
  const view = msg.view;
  const lastKey = view && view.last ? JSON.stringify([view.deal_number, view.last, view.hand_counts]) : null;
  const legal = msg.legal_moves || [];
  const ctx = {
    table,
    you,
    view,
    game,
    legal,
    toAct: msg.to_act || [],
    me: you.seat ?? 0,
    seated: you.seat !== null && you.seat !== undefined,
    players: table.seats.length,
    player: page.player,
    info: GAMES[table.game] || null,
    prev: prev ? prev.view : null,
    version: msg.version,
    moves: classify(legal, game.cardOf && view ? (move) => game.cardOf(move, view) : null),
    freshLast: !first && lastKey !== null && lastKey !== page.lastKey,
  };
  page.lastKey = lastKey;
  page.ctx = ctx;
  for (const card of [...page.selected]) if (!ctx.moves.multi.cards.has(card)) page.selected.delete(card);

  const info = GAMES[table.game];
  $("table-title").textContent = `${info ? info.name : table.game} · table ${table.id}`;
  // A player in another tab sees from the tab's title that it is their turn.
  document.title = `${legal.length ? "● Your turn · " : ""}${info ? info.name : table.game} · The Card Table`;
  document.body.dataset.status = table.status;
  document.body.dataset.game = table.game;
  document.body.dataset.layout = layoutName(table.game);
  document.body.dataset.myTurn = legal.length ? "yes" : "no";
  document.body.dataset.version = msg.version;
  if (legal.length && !(prev && prev.legal.length)) sound("turn");
  room.classList.toggle("my-turn", legal.length > 0);

  const leaving = animateBefore(); // the trick on the felt, in case this state takes it away
  renderSeats($("seats"), ctx, send, game);
  const center = $("center");
  center.replaceChildren();
  $("below").replaceChildren(...(view && game.below ? [game.below(ctx)] : []));
  if (view) center.append(game.center(ctx));
  else center.append(h("div", { class: "welcome" }, h("p", { class: "welcome-title", text: info ? info.name : "" }), h("p", { class: "hint", text: "Take a seat. The host fills empty seats with bots and starts the game." })));
  // The deal's headline reads above the felt, where no seat covers it.
  const headline = center.querySelector(".felt-info");
  $("felt-info").replaceChildren(...(headline ? [headline] : []));
  drawHand(ctx);
  renderActions(ctx);
  renderScores($("scores"), ctx);
  const rulesKey = JSON.stringify([table.game, table.options]);
  if (page.rulesKey !== rulesKey) {
    page.rulesKey = rulesKey;
    renderRules($("rules"), info, table);
  }
  animateLast(ctx);
  animateAfter(ctx, leaving, first);

  const turn = turnText(ctx);
  $("turn-banner").textContent = turn;
  $("turn-banner").classList.toggle("mine", legal.length > 0);
  const said = `${ctx.freshLast ? describeLast(ctx) : ""} ${turn}`.trim();
  if (said && said !== page.announced) {
    $("announce").textContent = said;
    page.announced = said;
  }

  // A new game (a rematch) starts with no sheet: the last game's ending is in its result.
  if (page.gameNumber !== undefined && page.gameNumber !== table.game_number) {
    page.summary = null;
    if (!$("summary").hidden) showSummary($("summary"), null);
  }
  page.gameNumber = table.game_number;
  const summary = view && game.summary ? game.summary(ctx) : null;
  if (summary) page.summary = summary;
  else if (page.summary && $("summary").hidden) page.summary = null;
  if (summary && summary.key !== page.summaryKey) {
    page.summaryKey = summary.key;
    if (!first) openSheet(summary);
  }
  // A summary stays until dismissed or until this player moves: a bot may deal
  // the next hand at once, and the person still wants to read the last one.
  renderTools(ctx);

  const finished = table.status === "finished";
  const resultKey = finished ? `${msg.version}` : null;
  if (finished && page.resultClosed !== resultKey) {
    showResult($("over"), $("over-card"), ctx, send, () => {
      page.resultClosed = resultKey;
      $("over").hidden = true;
    });
  } else if (!finished) $("over").hidden = true;
  logState(ctx, msg, tableId); // the move log of this deal (movelog.js)
  tipState(ctx); // a first game's tips (tips.js)
  eveningState(msg, send, page.player); // clocks, leave and take over (evening.js)
}

function setupInvite() {
  const link = `${location.origin}/t/${tableId}/`;
  const input = $("invite-link");
  input.value = link;
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch (error) {
      input.select();
      document.execCommand("copy");
    }
    toast("Invite link copied. Send it to a friend!");
  });
}

installSuitSymbols();
setupSettings();
setupControls(page, send, (move) => client.move(move));
setupInvite();
setupChat(send);
setupDrawer(chatOpened);
window.addEventListener("resize", () => fitHand($("hand")));
window.cardtable = { client, page, cardList, logEntries, animations };
ensurePlayer((player) => {
  const hadPlayer = page.player;
  page.player = player;
  // The socket took its identity at connect time: reconnect once a name is chosen
  // here (the new state redraws the page). A player the session already had (the
  // first answer) is the socket's too: just draw the page with them.
  const reconnect = player && !hadPlayer && page.msg && page.playerKnown;
  page.playerKnown = true;
  if (reconnect) client.reconnect();
  else if (page.msg) render(page.msg);
});
