// The table's chat: each line once (the server replays recent lines on every
// connect), staff's hiding of a line, sending, and the unread dot on the Chat tab
// whenever a line comes while the chat is out of sight, at every window size.

import { addChat, setChatText } from "./panels.js";

const $ = (id) => document.getElementById(id);
const lines = new Map(); // a line's key (chatKey) -> its <li>

/** The chat lines shown, by key (who said it and when). */
export const chatLines = lines;

/** A chat line's identity: who said it and when (`at`), which `chat_hidden` names too. */
function chatKey(msg) {
  return JSON.stringify([msg.seat ?? null, msg.name, msg.at]);
}

/** Whether the chat's lines are in sight: in the open drawer, or (wide windows) within the side column's view. */
function chatInView() {
  const side = $("side");
  if (getComputedStyle(side).position === "fixed") return side.classList.contains("open") && $("chat-panel").classList.contains("current");
  const column = side.getBoundingClientRect();
  const chat = $("chat-log").getBoundingClientRect();
  return chat.bottom > column.top + 24 && chat.top < column.bottom - 24;
}

/** A `chat` message: show the line once; a replayed line takes the replayed text (staff may have hidden it). */
export function onChat(msg, drawn) {
  const key = chatKey(msg);
  const shown = lines.get(key);
  if (shown) {
    if (shown.querySelector(".chat-text").textContent !== msg.text) setChatText(shown, msg.text);
    return;
  }
  lines.set(key, addChat($("chat-log"), msg));
  // A new line while the chat is out of sight: a dot on its tab (not for the history sent on connect).
  if (drawn && !chatInView()) $("chat-dot").hidden = false;
  if (lines.size > 300) {
    for (const [k, line] of lines) if (!line.isConnected) lines.delete(k);
  }
}

/** A `chat_hidden` message: the line's text becomes the placeholder staff set. */
export function onChatHidden(msg) {
  const shown = lines.get(chatKey(msg));
  if (shown) setChatText(shown, msg.text, true);
}

/** The Chat tab was used: the chat is in sight now. */
export function chatOpened() {
  $("chat-dot").hidden = true;
  $("chat-input").focus();
}

/** Wire the chat form to `send`, and clear the dot when the side column scrolls the chat into view. */
export function setupChat(send) {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    input.value = "";
  });
  $("side").addEventListener("scroll", () => {
    if (chatInView()) $("chat-dot").hidden = true;
  });
}
