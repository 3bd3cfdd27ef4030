"""Who sees what in a RECYCLE game, and re-dealing what a seat cannot see.

RECYCLE's location kinds say it: ``vloc`` is face up (everyone), ``iloc`` is
seen by its owner only (a seat, or a team's members; the game's own ``iloc`` by
nobody), ``hloc`` by nobody, not even its owner, and ``mem`` holds remembered
copies of cards, face up. Storage (``sto``) is public, as in CardStock.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Iterator
from typing import Any

from games.recycle.compiling.program import Program
from games.recycle.playing import tracking
from games.recycle.playing.state import LocKey, RecycleState, owner_label, parse_owner
from games.recycle.playing.tracking import sees
from games.recycle.reading.syntax import Node
from games.recycle.words.faces import hand_order
from games.recycle.words.names import readable
from games.recycle.words.order import name_order

_SECRET_SCORES: weakref.WeakKeyDictionary[Program, bool] = weakref.WeakKeyDictionary()


def view(prog: Program, st: RecycleState, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may see: places (cards where seen, else counts), storage, scores, tricks, deals.

    Each place says its owner, how it shows to this seat (``hidden``: a count,
    ``visible``: face up, ``memory``: remembered copies) and its name in words.
    """
    names = prog.names
    locations = []
    hand: list[str] = []
    order = name_order(prog)  # a seat's places in the description's order (Golf's ONE, TWO, THREE, FOUR)

    def place_key(k: LocKey) -> tuple:
        return (k[0] if k[0] >= 0 else 99 - k[0], order.get(k[2], 1 << 20), k[2], k[1])

    for key in sorted(st.locs, key=place_key):
        cards = st.locs[key]
        seen = sees(prog, key, seat)
        entry: dict[str, Any] = {
            "owner": owner_label(key[0]),
            "kind": key[1],
            "name": key[2],
            "label": readable(key[2]),
            "show": "memory" if key[1] == "mem" else "visible" if seen else "hidden",
            "count": len(cards),
        }
        if seen:
            entry["cards"] = [names[c] for c in cards]  # bottom first, top last
            if key[1] == "iloc" and key[0] == seat:
                hand.extend(entry["cards"])
        locations.append(entry)
    hand = hand_order(prog, hand)
    shown = st.shown
    out: dict[str, Any] = {
        "phase": "over" if st.over else "play",
        "turn": None if st.over else st.cycles[-1][0],
        "locations": locations,
        "storage": _stored(st.sto),
        "strings": _stored(st.strs),
        "scores": scores_seen(prog, st, seat),
        "teams": [list(team) for team in prog.teams if len(team) > 1],
        "last": _last_seen(prog, st, seat),
        "deal_number": shown["deal"],
        "last_trick": shown["last_trick"],
        "history": shown["history"],
    }
    if shown["tricks_total"]:
        out["tricks_played"] = shown["tricks"]
    if seat is not None:
        out["hand"] = hand
    if st.error:
        out["error"] = st.error
    return out


def pick_seen(prog: Program, offer: Any) -> dict[str, Any]:
    """Return a pick (``picks.Offer``) as its seat reads it: the cards, where they lie, the rule."""

    def where(key: LocKey) -> dict[str, str]:
        return {"owner": owner_label(key[0]), "name": key[2], "label": readable(key[2])}

    return offer.describe(prog.names, where)


def _last_seen(prog: Program, st: RecycleState, seat: int | None) -> dict[str, Any] | None:
    """Return the last move and its seat as ``seat`` may know them (``move_seen``)."""
    last = st.last
    if last is None:
        return None
    return {"seat": last["seat"], "move": move_seen(prog, st, last["seat"], last["move"], seat)}


def move_seen(prog: Program, st: RecycleState, mover: int, move: dict, viewer: int | None) -> dict:
    """Return ``move`` as ``viewer`` may know it: whole to its mover, or when it sees every card
    the move names where the cards are now; else ``{}`` (a card laid face down is named to its
    mover alone: the others learn that the seat moved)."""
    if viewer == mover:
        return move
    named = []
    for value in (move.get("play"), *(move.get("choice") or ())[1:]):
        # A set of cards (a pick, a tuple) names each of its cards.
        named.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
    deck = set(prog.names)
    cards = [v for v in named if v in deck]
    if not cards:
        return move
    in_sight = {prog.names[c] for key, held in st.locs.items() if sees(prog, key, viewer) for c in held}
    return move if all(card in in_sight for card in cards) else {}


def scores_seen(prog: Program, st: RecycleState, seat: int | None) -> list[int | None]:
    """Return the scores ``seat`` may know: while a game whose scoring reads hidden places runs
    (Crazy Eights counts the cards in hand), only its own (``None`` for the others'); else all."""
    scores = prog.scores(st)
    if st.over or not secret_scores(prog):
        return scores
    return [score if s == seat else None for s, score in enumerate(scores)]


def secret_scores(prog: Program) -> bool:
    """Return whether the ``scoring`` expression reads a hidden (``iloc``/``hloc``) place."""
    known = _SECRET_SCORES.get(prog)
    if known is None:
        scoring = prog.stages[0][3].args[-1].args[1]
        known = _SECRET_SCORES[prog] = _reads_hidden(prog, scoring, set())
    return known


def _reads_hidden(prog: Program, node: Node, seen: set[str]) -> bool:
    for part in _nodes(node):
        if any(arg in ("iloc", "hloc") for arg in part.args if isinstance(arg, str)):
            return True
        if part.kind == "var" and part.args[0] in prog.declared and part.args[0] not in seen:
            seen.add(part.args[0])
            if _reads_hidden(prog, prog.declared[part.args[0]][3], seen):
                return True
    return False


def _nodes(node: object) -> Iterator[Node]:
    if isinstance(node, Node):
        yield node
        for arg in node.args:
            yield from _nodes(arg)
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _nodes(item)


def _stored(storage: dict) -> list[dict[str, Any]]:
    return [
        {"owner": owner_label(o), "name": n, "label": readable(n), "value": v}
        for (o, n), v in sorted(storage.items())
    ]


# Deals tried for one sample when the other seats' last choices ask for a fitting one.
TRIES = 12


def determinize(prog: Program, st: RecycleState, seat: int, rng: random.Random) -> RecycleState:
    """Return a copy where every card ``seat`` cannot see is dealt again at random.

    Each hidden location keeps its size; the cards in all of them are shuffled
    together, except the cards the seat saw go into a hidden place (they stay
    there). Remembered copies (``mem``) stay; later shuffles get a new seed.
    Where the other seats made choices that name no card, up to ``TRIES`` deals
    are drawn and the first in which every such choice is still open to its
    seat is kept, else the one fitting most (``tracking.fits``).
    """
    wanted = tracking.wanted(st, seat)
    world = _deal(prog, st, seat, rng)
    if not wanted:
        return world
    best, most = world, tracking.fits(prog, world, seat)
    for _ in range(TRIES - 1):
        if most == wanted:
            break
        world = _deal(prog, st, seat, rng)
        fit = tracking.fits(prog, world, seat)
        if fit > most:
            best, most = world, fit
    return best


def _deal(prog: Program, st: RecycleState, seat: int, rng: random.Random) -> RecycleState:
    copy = st.copy()
    hidden = [key for key in copy.locs if key[1] != "mem" and not sees(prog, key, seat)]
    # Sorted first: the cards unseen are known to the seat, their order is not; the
    # sample then depends on the view and the seed alone, never on how they lie.
    pool = sorted(c for key in hidden for c in copy.locs[key])
    # A card the seat saw go into a place it does not see stays there (tracking.py).
    sizes = {key: len(copy.locs[key]) for key in hidden}
    placed: dict[LocKey, list[int]] = {key: [] for key in hidden}
    unseen = set(pool)
    for card, key in sorted(known_to(st, seat).items()):
        if card in unseen and key in placed and len(placed[key]) < sizes[key]:
            placed[key].append(card)
            unseen.discard(card)
    if len(unseen) < len(pool):
        pool = [c for c in pool if c in unseen]
    rng.shuffle(pool)
    start = 0
    for key in hidden:
        size = sizes[key] - len(placed[key])
        cards = pool[start : start + size]
        if placed[key]:
            cards += placed[key]
            rng.shuffle(cards)  # where in the place it lies is not known
        copy.locs[key] = cards
        start += size
    copy.seed = rng.getrandbits(32)
    return copy


def known_to(st: RecycleState, seat: int) -> dict[int, LocKey]:
    """Return the cards ``seat`` knows lie in places it does not see, with the place of each
    (``st.shown["known"]``, kept by ``tracking.follow``)."""
    rows = st.shown.get("known") or ()
    if seat >= len(rows):
        return {}
    return {card: (parse_owner(owner), kind, name) for card, owner, kind, name in rows[seat]}
