// The side panels and overlays: running scores, chat, the game's result with "Rematch", and the error toast.

import { h, listWords, seatName } from "./layout.js";

/** The score table: every seat's score now, then each finished deal from the view's history. */
export function renderScores(root, ctx) {
  const { view, table } = ctx;
  root.replaceChildren();
  if (!view || !Array.isArray(view.scores)) {
    root.append(h("p", { class: "hint", text: "Scores appear when the game starts." }));
    return;
  }
  const winners = new Set((view.result && view.result.winners) || []);
  const t = h("table", { class: "score-table" });
  t.append(h("caption", { class: "visually-hidden", text: "Scores" }));
  const head = h("tr", {}, h("th", { scope: "col", text: "Player" }));
  const extra = ctx.game.scoreColumns ? ctx.game.scoreColumns(ctx) : [];
  for (const col of extra) head.append(h("th", { scope: "col", text: col.title }));
  head.append(h("th", { scope: "col", text: "Score" }));
  t.append(head);
  table.seats.forEach((info, seat) => {
    const row = h("tr", { class: `${winners.has(seat) ? "winner" : ""} ${ctx.toAct.includes(seat) ? "turn" : ""}` });
    row.append(h("th", { scope: "row", text: seatName(ctx, seat) + (winners.has(seat) ? " ★" : "") }));
    for (const col of extra) row.append(h("td", { text: String(col.values[seat] ?? "") }));
    // A score the game keeps from this seat until the end (counted from hidden cards) is null.
    row.append(h("td", { class: "num", text: view.scores[seat] === null ? "–" : String(view.scores[seat]) }));
    t.append(row);
  });
  root.append(t);
  const goal = ctx.info ? ctx.info.goal : "";
  if (goal) root.append(h("p", { class: "hint", text: goal }));
  const history = historyTable(ctx);
  if (history) root.append(history);
}

/**
 * The per-deal history as a table (from the view, so a late joiner sees it all):
 * a row per finished deal, each seat's score after it and what it gained, and
 * the game's own marks (who took the queen, who shot the moon).
 */
export function historyTable(ctx) {
  const { view, table } = ctx;
  const history = (view && view.history) || [];
  if (!history.length) return null;
  const hist = h("table", { class: "score-table history", id: "history-table" });
  hist.append(h("caption", { text: ctx.game.historyTitle || "After each deal" }));
  const hr = h("tr", {}, h("th", { scope: "col", text: ctx.game.historyLabel || "Deal" }));
  table.seats.forEach((_, seat) => hr.append(h("th", { scope: "col", text: seatName(ctx, seat) })));
  hist.append(hr);
  for (const record of history) {
    const tr = h("tr", {}, h("th", { scope: "row", text: String(record.deal) }));
    record.scores.forEach((score, seat) => {
      const gained = record.points[seat];
      const marks = ctx.game.historyMarks ? ctx.game.historyMarks(record, seat) : "";
      const delta = gained ? ` (${gained > 0 ? "+" : ""}${gained})` : "";
      tr.append(h("td", { class: "num", title: marks || null }, String(score), h("small", { class: "delta", text: delta }), marks ? h("span", { class: "mark", text: ` ${marks}` }) : null));
    });
    hist.append(tr);
  }
  const note = ctx.game.historyNote ? ctx.game.historyNote(ctx) : "";
  if (note) hist.append(h("tr", {}, h("td", { class: "history-note", colspan: String(table.seats.length + 1), text: note })));
  return hist;
}

/**
 * The "How to play" panel from the game's facts (GET /api/games/): the goal, the
 * steps, this table's options with what each means, and a glossary.
 */
export function renderRules(root, info, table) {
  root.replaceChildren();
  if (!info) return;
  if (info.goal) root.append(h("p", { class: "game-goal", text: info.goal }));
  if ((info.how_to_play || []).length) root.append(h("ol", {}, info.how_to_play.map((step) => h("li", { text: step }))));
  const options = Object.entries(info.options || {}).filter(([name]) => table.options && name in table.options);
  if (options.length) {
    root.append(h("h3", { text: "At this table" }));
    const list = h("ul", { class: "table-options" });
    for (const [name, spec] of options) {
      const value = table.options[name];
      const meaning = (spec.choice_help || {})[String(value)];
      // The game's own words for the option and the choice, as the lobby shows them.
      const shown = (spec.choice_labels || {})[String(value)] ?? String(value);
      list.append(h("li", {}, h("strong", { text: `${spec.label || name}: ${shown}. ` }), meaning || spec.help || ""));
    }
    root.append(list);
  }
  if ((info.glossary || []).length) {
    root.append(h("h3", { text: "Words at the table" }));
    root.append(h("dl", {}, info.glossary.map((entry) => [h("dt", { text: entry.term }), h("dd", { text: entry.meaning })])));
  }
}

/** Add a chat line to the log; returns its element, so the line can be changed later. */
export function addChat(root, msg) {
  const when = msg.at ? new Date(msg.at) : new Date();
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const line = h("li", {}, h("span", { class: "chat-name", text: msg.name || "Someone" }), " ", h("span", { class: "chat-text", text: msg.text }), h("time", { datetime: when.toISOString(), text: time }));
  root.append(line);
  while (root.childElementCount > 200) root.firstChild.remove();
  root.scrollTop = root.scrollHeight;
  return line;
}

/** Replace a shown chat line's text in place (staff hid it), as text, never HTML. */
export function setChatText(line, text, hidden = false) {
  line.querySelector(".chat-text").textContent = text;
  line.classList.toggle("hidden-by-staff", hidden);
}

/**
 * "Watch the replay" for a finished table's last game (the dashboard serves
 * `/replay/{table id}/{game number}/`), or null: a table ended before any game
 * started has nothing to replay.
 */
export function replayLink(table, className = "btn") {
  if (table.status !== "finished" || !(table.game_number > 0)) return null;
  const href = `/replay/${encodeURIComponent(table.id)}/${table.game_number}/`;
  return h("a", { class: className, href, text: "Watch the replay" });
}

/** The end of the game: scores, winners, "Rematch" for the host. */
export function showResult(overlay, card, ctx, send, onClose) {
  const { view, table, you } = ctx;
  const result = (view && view.result) || { scores: (view && view.scores) || [], winners: [] };
  const winners = result.winners || [];
  const names = winners.map((s) => seatName(ctx, s));
  let title = "Game over";
  if (ctx.seated && winners.includes(ctx.me)) title = winners.length > 1 ? "You share the win!" : "You win!";
  else if (names.length === 1) title = `${names[0]} wins`;
  else if (names.length === table.seats.length) title = "Everyone ties";
  else if (names.length) title = `${listWords(names)} win`;
  const order = table.seats.map((_, seat) => seat);
  const rows = order.map((seat) =>
    h(
      "tr",
      { class: winners.includes(seat) ? "winner" : "" },
      h("th", { scope: "row", text: seatName(ctx, seat) + (winners.includes(seat) ? " ★" : "") }),
      h("td", { class: "num", text: String(result.scores[seat] ?? "") }),
    ),
  );
  const scores = h("table", { class: "score-table" }, h("tr", {}, h("th", { scope: "col", text: "Player" }), h("th", { scope: "col", text: "Score" })), rows);
  const buttons = h("div", { class: "row end" });
  if (you.host) buttons.append(h("button", { type: "button", class: "btn primary", onclick: () => send({ type: "rematch" }), text: "Rematch" }));
  else buttons.append(h("p", { class: "hint", text: "The host can start a rematch." }));
  const replay = replayLink(table);
  if (replay) buttons.append(replay);
  buttons.append(h("a", { class: "btn", href: "/", text: "Lobby" }), h("button", { type: "button", class: "btn ghost", onclick: onClose, text: "See the table" }));
  const extra = ctx.game.resultNote ? ctx.game.resultNote(ctx) : null;
  card.replaceChildren(...[h("h2", { id: "over-title", text: title }), extra, scores, buttons].filter(Boolean));
  overlay.hidden = false;
}

/**
 * On narrow screens the panels live in a drawer that the top bar's tabs open,
 * one panel at a time (Escape or "Close" shuts it). `onChat` runs when the chat opens.
 */
export function setupDrawer(onChat = () => {}) {
  const side = document.getElementById("side");
  const tabs = [...document.querySelectorAll("#panel-tabs .tab")];
  const close = () => {
    side.classList.remove("open");
    tabs.forEach((t) => t.setAttribute("aria-expanded", "false"));
  };
  for (const tab of tabs) {
    tab.addEventListener("click", () => {
      // Beside the table (wide windows) every panel is in the column: bring this one into view.
      if (!side.classList.contains("open") && getComputedStyle(side).position !== "fixed") {
        const panel = document.getElementById(tab.dataset.panel);
        side.scrollTop = Math.max(0, panel.offsetTop - 8);
        panel.classList.remove("flash");
        void panel.offsetWidth; // restart the highlight's animation
        panel.classList.add("flash");
        if (tab.dataset.panel === "chat-panel") onChat();
        return;
      }
      const wasOpen = tab.getAttribute("aria-expanded") === "true";
      close();
      if (wasOpen) return;
      for (const panel of side.querySelectorAll(":scope > .panel")) panel.classList.toggle("current", panel.id === tab.dataset.panel);
      side.classList.add("open");
      tab.setAttribute("aria-expanded", "true");
      if (tab.dataset.panel === "chat-panel") onChat();
    });
  }
  document.getElementById("side-close").addEventListener("click", close);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (side.classList.contains("open")) close();
    const review = document.getElementById("review");
    if (review) review.hidden = true;
  });
}

let toastTimer = null;

// Where on the felt a toast may sit, best first: under the top seat in the middle, then
// lower, then to either side (a crowded felt: Cribbage's crib, start, count and play).
const TOAST_SPOTS = ["24%", "44%", "60%", "8%", "76%"].flatMap((top) => ["50%", "72%", "28%"].map((left) => [top, left]));

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Put the toast where it covers no card, pile (a RECYCLE game's too) or seat of the felt, or the least of them. */
function placeToast(box) {
  const felt = box.parentElement;
  const things = [...felt.querySelectorAll(".card, .stack, .rpile, .seat, .board, .big-number")]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  let best = null;
  for (const [top, left] of TOAST_SPOTS) {
    box.style.top = top;
    box.style.left = left;
    const spot = box.getBoundingClientRect();
    const covered = things.reduce((sum, r) => sum + overlap(r, spot), 0);
    if (covered === 0) return;
    if (!best || covered < best.covered) best = { top, left, covered };
  }
  box.style.top = best.top;
  box.style.left = best.left;
}

/** Hide the toast if it still says `text` (what it said may have stopped being true). */
export function hideToast(text) {
  const box = document.getElementById("toast");
  if (!box.hidden && box.textContent === text) box.hidden = true;
}

/** A short message over the felt, never over the turn banner nor a card, pile or seat (errors, hints). */
export function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.hidden = false;
  placeToast(box);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.hidden = true;
  }, 4000);
}
