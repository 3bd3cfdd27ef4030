"""What a seat can tell of the hidden cards from what it saw: cards it saw go out of its
sight (and where they went), and the choices the other seats made.

A card a seat sees leave a place it sees (its hand, a face-up pile) and go into a
place it does not see (another seat's hand, a face-down stock) is still known to
that seat: in Go Fish the cards a seat gives away are in the asker's hand, in a
shedding game the discards shuffled back are in the stock. The bots' sampled
deals (``visibility.determinize``) keep such a card where the seat knows it lies
instead of dealing it anywhere, so what a seat gave away is asked back.

The record is kept by ``RecycleGame.apply`` (the path of every played move; the
searches' ``advance`` skips it) in ``st.shown["known"]``: per seat, ``[card,
owner, kind, name]`` rows. It is built from the places of the cards before and
after a move, so it only claims what the seat could tell from what it saw:

- a card is learnt only when one place the seat does not see changed its count
  in the move (the cards it saw leave could only have gone there);
- a card is forgotten when it moves, or when any card leaves its place for a
  place the seat does not see (the seat cannot tell which card left);
- cards leaving for a place the seat sees are seen: the rest stay known.

The other seats' choices tell something too: a Go Fish player asks only for a
rank it holds. Each seat's last ``KEEP`` choices that name no card (an ask, a
bid, a pass; a card played is seen where it went) are kept with their choice
node (``st.shown["lasts"]``) until a card leaves that seat's hidden places for a place
not everyone sees (it may have given away what made the choice possible). A
sampled deal is then preferred where each such choice would still be one its
seat could make (``fits``): a guess, not a proof (the seat may have played out
the card since), so a deal that fits none is still used when no better one
turns up.
"""

from __future__ import annotations

import weakref
from collections import Counter

from games.recycle.compiling.program import Program
from games.recycle.playing import runner
from games.recycle.playing.state import GAME, LocKey, RecycleState, owner_label, parse_owner


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


def follow(prog: Program, st: RecycleState, before: dict[int, LocKey], now: dict[int, LocKey]) -> list:
    """Return ``shown["known"]`` updated for the move that took the cards from ``before`` to ``now``."""
    old = st.shown.get("known") or [[] for _ in range(st.players)]
    # Only the cards the move took somewhere (or made, or dropped) matter: a handful of the deck.
    left = before.items() - now.items()  # (card, where it was): moved away or gone
    came = now.items() - before.items()  # (card, where it is): moved in or made
    change = Counter(key for _, key in came)
    change.subtract(key for _, key in left)
    counted = [key for key, n in change.items() if n]  # places whose count changed
    out = []
    for seat in range(st.players):
        hidden: dict[LocKey, bool] = {}

        def unseen(key: LocKey, seat: int = seat, hidden: dict = hidden) -> bool:
            if key not in hidden:
                hidden[key] = not sees(prog, key, seat)
            return hidden[key]

        # Places out of the seat's sight that lost a card to another such place: which card
        # left is not seen, so nothing known to lie there can be kept.
        blurred = {was for card, was in left if unseen(was) and ((to := now.get(card)) is None or unseen(to))}
        kept = []
        for card, owner, kind, name in old[seat] if seat < len(old) else ():
            key = (parse_owner(owner), kind, name)
            if now.get(card) == key and key not in blurred:
                kept.append([card, owner, kind, name])
        changed = [key for key in counted if unseen(key)]
        if len(changed) == 1:
            (into,) = changed
            kept += [
                [card, owner_label(into[0]), into[1], into[2]]
                for card, key in sorted(came)
                if key == into and (was := before.get(card)) is not None and not unseen(was)
            ]
        out.append(kept)
    return out


_CARDS: weakref.WeakKeyDictionary[Program, frozenset[str]] = weakref.WeakKeyDictionary()


def _cards(prog: Program) -> frozenset[str]:
    """The names of the program's cards, made once per program."""
    names = _CARDS.get(prog)
    if names is None:
        names = _CARDS[prog] = frozenset(prog.names)
    return names


# How many of a seat's last choices are kept (a Go Fish turn is several asks).
KEEP = 3


def record_last(
    prog: Program,
    st: RecycleState,
    seat: int,
    move: dict,
    where: tuple[int | None, dict[int, LocKey], dict[int, LocKey]],
) -> list:
    """Return ``shown["lasts"]`` after ``seat`` made ``move``; ``where`` is the choice node it
    was made at and the cards' places before and after it."""
    node, before, now = where
    lasts = list(st.shown.get("lasts") or [None] * st.players)
    if any(lasts):
        # Cards gone from a hand to where not everyone sees: what made its choice may be gone.
        for card, was in before.items() - now.items():
            if was[1] == "iloc" and was[0] >= 0 and ((to := now.get(card)) is None or to[1] != "vloc"):
                lasts[was[0]] = None
    value = move.get("choice")
    public = isinstance(value, list) and not any(isinstance(v, str) and v in _cards(prog) for v in value)
    if public and node is not None and not st.over:
        lasts[seat] = [*(lasts[seat] or [])[1 - KEEP :], [node, move]]
    return lasts


def fits(prog: Program, world: RecycleState, seat: int) -> int:
    """Return how many of the other seats' last choices (``record_last``) ``world`` allows them
    at its pending choice: each seat put to act there, its choice among its options."""
    lasts = world.shown.get("lasts")
    if not lasts or world.choice is None or world.over:
        return 0
    count = 0
    cycle = world.cycles[-1]
    current = cycle[0]
    try:
        for other, last in enumerate(lasts):
            mine = [move for node, move in last or () if node == world.choice] if other != seat else []
            if not mine:
                continue
            cycle[0] = other
            labels = runner.build_options(prog, world, world.choice)[0]
            count += sum(type(labels) is list and move in labels for move in mine)
    finally:
        cycle[0] = current
        world.cache = None
    return count


def wanted(st: RecycleState, seat: int) -> int:
    """Return how many last choices of the other seats a sampled deal for ``seat`` could fit."""
    lasts = st.shown.get("lasts") or ()
    return sum(
        node == st.choice for other, last in enumerate(lasts) if other != seat for node, _ in last or ()
    )
