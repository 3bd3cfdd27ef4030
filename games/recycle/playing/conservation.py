"""Card conservation: no card of a RECYCLE game is lost or duplicated between its places.

Cards are numbers (``Program.cards``); a ``create deck`` form makes one range
of numbers, and a form run again (``(repeat 8 (create deck ...))``, LAMA's eight
decks) makes copies of the same numbers. So "every card in exactly one place"
reads, per deck: every card of the deck lies in as many places as the deck has
copies, counting the places that hold cards (a ``mem`` place holds remembered
copies, which come and go). A deck made in the setup keeps its copies all game;
one made during play may gain copies (each time its form runs) but never lose them.

``conservation_faults`` is a pure function of the program and states: the
playability check (``playcheck.py``) and the tests call it after every move.
"""

from __future__ import annotations

from collections import Counter

from games.recycle.compiling.program import Program
from games.recycle.playing.state import RecycleState, owner_label

MAX_FAULTS = 5  # faults named in one report; a broken state usually breaks many cards at once


def card_places(state: RecycleState) -> Counter[int]:
    """Return how many places hold each card (its copies counted), remembered copies aside."""
    counts: Counter[int] = Counter()
    for (_, kind, _), cards in state.locs.items():
        if kind != "mem":
            counts.update(cards)
    return counts


def deck_copies(program: Program, state: RecycleState | Counter[int]) -> list[int]:
    """Return, per ``create deck`` form, how many copies of its cards lie in the places
    (its most common count: a card lost or duplicated differs from it). ``state`` may be
    ``card_places`` of a state, counted once."""
    counts = state if isinstance(state, Counter) else card_places(state)
    copies = []
    for first, end in program.decks:
        tally = Counter(counts[card] for card in range(first, end))
        copies.append(max(tally, key=lambda n: (tally[n], n)) if tally else 0)
    return copies


def conservation_faults(
    program: Program, state: RecycleState, start: RecycleState | Counter[int] | None = None
) -> list[str]:
    """Return what breaks conservation in ``state`` ([] when nothing does), in words.

    With ``start`` (the same game as play began, or its ``card_places`` counted
    once, as a check after every move passes it), a deck made in the setup must
    still have its copies of then, and a deck made during play at least as many.
    """
    counts = card_places(state)
    start_counts = None
    if start is not None:
        start_counts = start if isinstance(start, Counter) else card_places(start)
        if counts == start_counts:  # the usual case, at the speed of a dict comparison
            return []
    known = range(program.card_count)
    faults = [f"{card!r} is not a card of the game" for card in counts if card not in known]
    copies = deck_copies(program, counts)
    before = deck_copies(program, start_counts) if start_counts is not None else None
    for deck, (first, end) in enumerate(program.decks):
        want = copies[deck]
        if before is not None and (first < program.setup_cards or copies[deck] < before[deck]):
            want = before[deck]
        for card in range(first, end):
            have = counts[card]
            if have != want:
                faults.append(_fault(program, state, card, have, want))
    if len(faults) > MAX_FAULTS:
        return [*faults[:MAX_FAULTS], f"and {len(faults) - MAX_FAULTS} more"]
    return faults


def _fault(program: Program, state: RecycleState, card: int, have: int, want: int) -> str:
    name = program.names[card]
    places = [
        f"{owner_label(owner)} {kind} {place}"
        for (owner, kind, place), cards in state.locs.items()
        if kind != "mem" and card in cards
    ]
    where = f" (in {', '.join(places)})" if places else ""
    what = "lost" if have < want else "duplicated"
    return f"card {name} {what}: {have} in the places, {want} made{where}"
