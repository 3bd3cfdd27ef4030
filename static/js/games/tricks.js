// What Hearts and Agram share: the trick in the middle, or the one just taken.

import { cardShort } from "../cards.js";
import { h, seatName, trickNode } from "../layout.js";

/** The trick being played, or the last one taken (until the next lead), with its winner. */
export function trickArea(ctx) {
  const { view } = ctx;
  if (view.trick && view.trick.length) return trickNode(ctx, view.trick, { caption: "The trick" });
  if (view.last_trick && view.last) {
    const { cards, winner } = view.last_trick;
    return trickNode(ctx, cards, { winner, faded: true, caption: `${seatName(ctx, winner)} ${winner === ctx.me && ctx.seated ? "take" : "takes"} the trick` });
  }
  return h("div", { class: "trick empty" });
}

/** Who took the trick still on the felt ("You take the trick"), for the headline; null while a trick is played. */
export function takenNote(ctx) {
  const { view } = ctx;
  if ((view.trick && view.trick.length) || !view.last_trick || !view.last) return null;
  const { winner } = view.last_trick;
  return h("span", { class: "felt-news", text: `${seatName(ctx, winner)} ${winner === ctx.me && ctx.seated ? "take" : "takes"} the trick` });
}

/** The label a seat shows for its last play. */
export function playBubble(move) {
  return move.play ? cardShort(move.play) : "";
}
