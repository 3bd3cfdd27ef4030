"""Who sees what in a RECYCLE game, and re-dealing what a seat cannot see.

RECYCLE's location kinds say it: ``vloc`` is face up (everyone), ``iloc`` is
seen by its owner only (a seat, or a team's members; the game's own ``iloc`` by
nobody), ``hloc`` by nobody, not even its owner, and ``mem`` holds remembered
copies of cards, face up. Storage (``sto``) is public, as in CardStock.
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import CARD_INDEX
from games.recycle.program import Program
from games.recycle.state import GAME, LocKey, RecycleState, owner_label


def sees(prog: Program, key: LocKey, seat: int | None) -> bool:
    """Return whether ``seat`` (``None``: a spectator) sees the cards at ``key``."""
    owner, kind, _ = key
    if kind == "vloc" or kind == "mem":
        return True
    if kind != "iloc" or seat is None or owner == GAME:
        return False
    if owner >= 0:
        return owner == seat
    return seat in prog.teams[-2 - owner]


def view(prog: Program, st: RecycleState, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may see: locations (cards where visible, else counts), storage, scores."""
    names = prog.names
    locations = []
    hand: list[str] = []
    for key in sorted(st.locs, key=lambda k: (k[0] if k[0] >= 0 else 99 - k[0], k[1], k[2])):
        cards = st.locs[key]
        entry: dict[str, Any] = {
            "owner": owner_label(key[0]),
            "kind": key[1],
            "name": key[2],
            "count": len(cards),
        }
        if sees(prog, key, seat):
            entry["cards"] = [names[c] for c in cards]  # bottom first, top last
            if key[1] == "iloc" and key[0] == seat:
                hand.extend(entry["cards"])
        locations.append(entry)
    hand.sort(key=lambda name: CARD_INDEX.get(name, 99))
    out: dict[str, Any] = {
        "phase": "over" if st.over else "play",
        "turn": None if st.over else st.cycles[-1][0],
        "locations": locations,
        "storage": _stored(st.sto),
        "strings": _stored(st.strs),
        "scores": prog.scores(st),
        "last": st.last,
    }
    if seat is not None:
        out["hand"] = hand
    if st.error:
        out["error"] = st.error
    return out


def _stored(storage: dict) -> list[dict[str, Any]]:
    return [{"owner": owner_label(o), "name": n, "value": v} for (o, n), v in sorted(storage.items())]


def determinize(prog: Program, st: RecycleState, seat: int, rng: random.Random) -> RecycleState:
    """Return a copy where every card ``seat`` cannot see is dealt again at random.

    Each hidden location keeps its size; the cards in all of them are shuffled
    together. Remembered copies (``mem``) stay; later shuffles get a new seed.
    """
    copy = st.copy()
    hidden = [key for key in copy.locs if key[1] != "mem" and not sees(prog, key, seat)]
    pool = [c for key in hidden for c in copy.locs[key]]
    rng.shuffle(pool)
    start = 0
    for key in hidden:
        size = len(copy.locs[key])
        copy.locs[key] = pool[start : start + size]
        start += size
    copy.seed = rng.getrandbits(32)
    return copy
