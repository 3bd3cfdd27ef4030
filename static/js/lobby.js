// The lobby: name, new table form, open tables.

import { api } from "./client.js";
import { ensurePlayer } from "./name.js";

const GAMES = JSON.parse(document.getElementById("games-data").textContent);
const byId = Object.fromEntries(GAMES.map((g) => [g.id, g]));
const gameSelect = document.getElementById("game-select");
const playersSelect = document.getElementById("players-select");
const optionFields = document.getElementById("option-fields");
const createForm = document.getElementById("create-form");
const createError = document.getElementById("create-error");
const tableList = document.getElementById("table-list");
const gameAbout = document.getElementById("game-about");

// An option and its choices as the game names them (`label`, `choice_labels` from /api/games/).
function label(name, spec) {
  return spec.label || name;
}

function valueLabel(spec, value) {
  return (spec.choice_labels || {})[String(value)] ?? String(value);
}

function fillGameForm() {
  const game = byId[gameSelect.value];
  playersSelect.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) {
    const option = new Option(`${n} players`, n, n === game.default_players, n === game.default_players);
    playersSelect.add(option);
  }
  optionFields.replaceChildren();
  document.getElementById("option-note").textContent = Object.keys(game.options).length ? "Choose an option to read what it does." : "";
  gameAbout.replaceChildren();
  if (game.goal) gameAbout.append(Object.assign(document.createElement("p"), { className: "game-goal", textContent: game.goal }));
  // The preset first: it sets the others.
  const names = Object.keys(game.options).sort((a, b) => (b === "preset") - (a === "preset"));
  for (const name of names) {
    const spec = game.options[name];
    const field = document.createElement("div");
    field.className = "field";
    const id = `option-${name}`;
    const lab = document.createElement("label");
    lab.htmlFor = id;
    lab.textContent = label(name, spec);
    const select = document.createElement("select");
    select.id = id;
    select.dataset.option = name;
    spec.choices.forEach((choice, i) => {
      const option = new Option(valueLabel(spec, choice), i, choice === spec.default, choice === spec.default);
      select.add(option);
    });
    // What the option does, and what the chosen value means (the game's own words).
    const help = document.createElement("p");
    help.className = "option-help";
    help.id = `${id}-help`;
    select.setAttribute("aria-describedby", help.id);
    const explain = () => {
      const choice = spec.choices[Number(select.value)];
      const meaning = (spec.choice_help || {})[String(choice)];
      help.textContent = [spec.help, meaning].filter(Boolean).join(" ");
    };
    // On a laptop the helps share one line under the options: the one being chosen.
    const note = () => {
      document.getElementById("option-note").textContent = `${label(name, spec)}: ${help.textContent}`;
    };
    select.addEventListener("change", () => {
      explain();
      note();
    });
    select.addEventListener("focus", note);
    explain();
    field.append(lab, select, help);
    optionFields.append(field);
  }
}

function chosenOptions() {
  const game = byId[gameSelect.value];
  const options = {};
  for (const select of optionFields.querySelectorAll("select")) {
    const spec = game.options[select.dataset.option];
    const value = spec.choices[Number(select.value)];
    if (value !== spec.default) options[select.dataset.option] = value;
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  createError.textContent = "";
  const body = { game: gameSelect.value, players: Number(playersSelect.value), options: chosenOptions() };
  const clock = Number(document.getElementById("clock-select")?.value || 0);
  if (clock) body.clock = clock; // the turn clock, seconds a turn (evening.js shows it at the table)
  try {
    const table = await api("/api/tables/", body);
    location.href = table.url;
  } catch (error) {
    createError.textContent = error.message;
  }
}

function seatSummary(table) {
  const seats = table.seats || [];
  if (!seats.length) return table.players ? `${table.players} players` : "";
  const names = seats.filter((s) => s.kind !== "empty").map((s) => (s.kind === "bot" ? `bot` : s.name));
  const open = seats.filter((s) => s.kind === "empty").length;
  return `${names.join(", ") || "nobody yet"}${open ? ` · ${open} open seat${open > 1 ? "s" : ""}` : ""}`;
}

async function refreshTables() {
  let tables;
  try {
    tables = await api("/api/tables/");
  } catch (error) {
    return;
  }
  if (!Array.isArray(tables)) tables = tables.tables || [];
  tableList.replaceChildren();
  if (!tables.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No open tables yet. Create one!";
    tableList.append(li);
    return;
  }
  for (const table of tables) {
    const li = document.createElement("li");
    const game = byId[table.game];
    const title = document.createElement("span");
    title.className = "t-game";
    title.textContent = `${game ? game.name : table.game}`;
    const info = document.createElement("span");
    info.className = "t-info";
    info.textContent = seatSummary(table);
    const status = document.createElement("span");
    status.className = `t-status ${table.status}`;
    status.textContent = table.status;
    const link = document.createElement("a");
    link.className = "btn small";
    link.href = table.url || `/t/${table.id}/`;
    link.textContent = table.status === "waiting" ? "Join" : "Watch";
    link.setAttribute("aria-label", `${link.textContent} ${title.textContent} table ${table.id}`);
    li.append(title, status, info, link);
    tableList.append(li);
  }
}

gameSelect.addEventListener("change", fillGameForm);
createForm.addEventListener("submit", createTable);
fillGameForm();
ensurePlayer((player) => {
  document.getElementById("create-button").disabled = !player;
  document.getElementById("create-needs-name").hidden = !!player;
});
refreshTables();
setInterval(refreshTables, 5000);
