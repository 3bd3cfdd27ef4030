// Which layout draws which game: one map for the table page and the replay.
// A game's layout is the module of the same name; a game staff added from a
// RECYCLE description (its id starts with "recycle_", games/recycle/game.py)
// is drawn by the RECYCLE layout, which reads nothing but the view.

import agram from "./agram.js";
import cribbage from "./cribbage.js";
import hearts from "./hearts.js";
import ninetyEight from "./ninety_eight.js";
import recycle from "./recycle.js";
import stealingBundles from "./stealing_bundles.js";

/** The layout of each game of the registry (games.GAMES), by game id. */
export const LAYOUTS = Object.freeze({ agram, cribbage, hearts, ninety_eight: ninetyEight, stealing_bundles: stealingBundles });

/** The layout for RECYCLE games: it draws any game from its view alone. */
export const RECYCLE = recycle;

/** The layout that draws `gameId`: its own, or the RECYCLE layout for a game described in RECYCLE. */
export function layoutFor(gameId) {
  if (Object.hasOwn(LAYOUTS, gameId)) return LAYOUTS[gameId];
  return RECYCLE;
}

/** The name of the layout `layoutFor(gameId)` gives ("hearts", "recycle"): for tests and data attributes. */
export function layoutName(gameId) {
  return Object.hasOwn(LAYOUTS, gameId) ? gameId : "recycle";
}
