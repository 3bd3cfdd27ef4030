// A finished game's replay: step through every state, all hands face up.
// The server rebuilt each state with the game module (GET the page's data-json);
// this module only draws the frame it is given. No rule lives here.

import { cardName, cardShort } from "../js/cards.js";

const CARD = /^[A2-9TJQK][CDHS]$/;
const root = document.getElementById("replay");
const frameBox = document.getElementById("frame");
const slider = document.getElementById("step");
const label = document.getElementById("step-label");
const dealSelect = document.getElementById("deal-select");
const status = document.getElementById("replay-status");
let data = null;
let step = 0;

function node(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  for (const child of children) el.append(child instanceof Node ? child : String(child));
  return el;
}

function cardChip(card) {
  const red = card[1] === "H" || card[1] === "D";
  return node("span", { class: red ? "rp-card rp-red" : "rp-card", "aria-label": cardName(card), role: "img" }, cardShort(card));
}

/** Draw any JSON value of a view: cards as cards, lists and objects in plain words. */
function show(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return CARD.test(value) ? cardChip(value) : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const list = node("span", { class: "rp-cards" });
    value.forEach((item, i) => {
      if (i && !(typeof item === "string" && CARD.test(item))) list.append(", ");
      list.append(show(item));
    });
    return list;
  }
  if (typeof value === "object") {
    const span = node("span");
    Object.entries(value).forEach(([key, item], i) => {
      if (i) span.append("; ");
      span.append(`${key} `, show(item));
    });
    return span;
  }
  return String(value);
}

function seatName(index) {
  const seat = data.seats[index] || {};
  return seat.kind === "bot" ? `Seat ${index}: bot (${seat.level})` : `Seat ${index}: ${seat.name || "empty"}`;
}

function moveText(frame) {
  if (frame.seat === null) return "The deal, before any move.";
  const move = node("span", {}, `${seatName(frame.seat)} `, show(frame.move));
  if (["stand_in", "admin", "timeout"].includes(frame.by)) move.append(` (${frame.by.replace("_", "-")})`);
  return move;
}

function render() {
  const frame = data.frames[step];
  const last = data.frames.length - 1;
  slider.value = String(step);
  label.textContent = `move ${step} of ${last}, deal ${frame.deal} of ${data.deals.length}`;
  dealSelect.value = String(frame.deal);
  frameBox.replaceChildren();
  frameBox.append(node("p", { class: "rp-move" }, moveText(frame)));
  const seats = node("div", { class: "rp-seats" });
  frame.hands.forEach((hand, index) => {
    const classes = ["rp-seat"];
    if (frame.to_act.includes(index)) classes.push("rp-acting");
    if (frame.seat === index) classes.push("rp-mover");
    const score = frame.view.scores ? frame.view.scores[index] : "";
    const box = node("section", { class: classes.join(" "), "aria-label": seatName(index) });
    box.append(node("h3", {}, seatName(index)), node("p", {}, `score ${score}, ${hand.length} card${hand.length === 1 ? "" : "s"}`));
    const cards = node("ul", { class: "rp-cards" });
    for (const card of hand) cards.append(node("li", {}, cardChip(card)));
    box.append(cards);
    seats.append(box);
  });
  frameBox.append(seats);
  const table = node("dl", { class: "rp-public" });
  for (const [key, value] of Object.entries(frame.view)) {
    if (["hand_counts", "scores", "last"].includes(key)) continue;
    table.append(node("dt", {}, key.replaceAll("_", " ")), node("dd", {}, show(value)));
  }
  frameBox.append(node("h2", {}, "On the table"), table);
  status.textContent = label.textContent;
  history.replaceState(null, "", `#step=${step}`);
}

function go(to) {
  step = Math.max(0, Math.min(data.frames.length - 1, to));
  render();
}

const moves = {
  start: () => go(0),
  back: () => go(step - 1),
  forward: () => go(step + 1),
  end: () => go(data.frames.length - 1),
};

async function main() {
  const response = await fetch(root.dataset.json, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) {
    status.textContent = body.error ? body.error.message : "the replay could not be loaded";
    return;
  }
  data = body;
  slider.max = String(data.frames.length - 1);
  for (const deal of data.deals) dealSelect.append(node("option", { value: String(deal.deal) }, `${deal.deal} (move ${deal.step})`));
  dealSelect.addEventListener("change", () => go(data.deals[Number(dealSelect.value) - 1].step));
  slider.addEventListener("input", () => go(Number(slider.value)));
  for (const button of root.querySelectorAll("[data-go]")) button.addEventListener("click", () => moves[button.dataset.go]());
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    const key = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end" }[event.key];
    if (key) {
      event.preventDefault();
      moves[key]();
    }
  });
  const wanted = /step=(\d+)/.exec(location.hash);
  go(wanted ? Number(wanted[1]) : 0);
}

main().catch((error) => { status.textContent = `the replay could not be loaded: ${error.message}`; });
