// The between-deals summary (and Cribbage's show) as a whole sheet that hides
// nothing of the game: on a wide window it heads the side column, beside the
// table; on a narrow one it stands in the play area under the felt, which gives
// up the height it needs. It never scrolls inside and never lies over a seat,
// the count or the hand.

import { h } from "./layout.js";

// The width from which the side column shows beside the table (panels.css).
const WIDE = window.matchMedia("(min-width: 1100px)");

/** Put the sheet where it hides nothing: the side column's top when wide, under the felt when narrow. */
export function placeSheet(sheet = document.getElementById("summary")) {
  if (!sheet) return;
  const side = document.getElementById("side");
  const felt = document.getElementById("felt");
  if (WIDE.matches && side) {
    const close = side.querySelector(":scope > .side-close");
    if (sheet.parentNode !== side || sheet.previousElementSibling !== close) (close || side.firstChild)?.after(sheet);
    sheet.classList.add("in-side");
  } else if (felt) {
    if (felt.nextElementSibling !== sheet) felt.after(sheet);
    sheet.classList.remove("in-side");
  }
}

WIDE.addEventListener("change", () => placeSheet());

/**
 * Show `summary` ({title, body}) as the sheet, or hide the sheet (null). The sheet
 * heads with its title and an OK button that closes it (`onClose`).
 */
export function showSummary(root, summary, onClose) {
  root.replaceChildren();
  if (!summary) {
    root.hidden = true;
    return;
  }
  root.append(
    h("div", { class: "summary-head" }, h("h2", { class: "summary-title", id: "summary-title", text: summary.title }), h("button", { type: "button", class: "btn small", onclick: onClose, text: "OK" })),
    summary.body,
  );
  root.setAttribute("role", "region");
  root.setAttribute("aria-labelledby", "summary-title");
  placeSheet(root);
  root.hidden = false;
}
