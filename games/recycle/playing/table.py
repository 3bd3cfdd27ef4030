"""What the table shows of a RECYCLE game beyond its places: the trick in play, the
last trick, the deal number and each deal's scores.

A description names neither tricks nor deals; they are read from what the played
moves do to the cards, and only from cards everyone sees move (a trick is face
up, a deal fills hands from the game's own places), so nothing here is hidden:

- a card a seat plays onto a face-up place joins the trick; when the cards of
  two seats or more leave where they were played and lie together in one place
  owned by a seat or a team, the trick is taken: it becomes the last trick and
  the place's owner took it (a team: the member to act next, else its first);
- a move after which two seats or more each got two cards or more into their
  hidden places from anywhere but a seat's hidden place dealt again: the deal
  that ended goes into the history with the scores, and the deal number grows
  (a trick gathered and dealt again in that same move is its last trick, taker
  unknown).

``RecycleGame.apply`` (the path of every played, replayed and logged move)
keeps this record on the state (``RecycleState.shown``); the searches'
``advance`` skips it, as they never show a table.
"""

from __future__ import annotations

from typing import Any

from games.recycle.compiling.program import Program
from games.recycle.playing.state import GAME, LocKey, RecycleState, owner_label
from games.recycle.playing.tracking import follow, record_last
from games.recycle.playing.visibility import secret_scores


def positions(st: RecycleState) -> dict[int, LocKey]:
    """Return where each card lies (remembered copies left out: they are not the card)."""
    return {card: key for key, cards in st.locs.items() if key[1] != "mem" for card in cards}


def after_move(
    prog: Program, st: RecycleState, seat: int, move: dict, before: dict[int, LocKey], node: int | None = None
) -> None:
    """Update ``st.shown`` after ``seat`` made ``move`` at choice ``node``; ``before`` is
    ``positions`` before the move."""
    # A new record, never a change to the old one: clones of the state share it.
    shown = {**st.shown, "history": list(st.shown["history"])}
    now = positions(st)
    moved = dict(now.items() - before.items())  # the cards this move put somewhere new
    played = _played_card(prog, seat, move, before, now, moved)
    in_play = [entry for entry in shown["trick"] if entry[1] in now]
    if played is not None:
        in_play.append([seat, played, list(now[played])])
    dealt = _dealt(st.players, before, moved)
    if _taken(in_play, now) or (dealt and _gathered(in_play, now)):
        key = now[in_play[0][1]]
        taker = None if dealt else key[0]
        shown["last_trick"] = {
            "cards": [{"seat": s, "card": prog.names[c]} for s, c, _ in in_play],
            "winner": None if taker is None else _taker(prog, st, taker),
            "taker": None if taker is None else owner_label(taker),
        }
        shown["tricks"] += 1
        shown["tricks_total"] += 1
        in_play = []
    # A card that left where it was played, face down or on its own, is no longer in play.
    in_play = [e for e in in_play if list(now[e[1]]) == e[2] and now[e[1]][1] == "vloc"]
    shown["trick"] = in_play[-st.players :]
    if dealt:
        # Scores that read hidden places (cards in hand) are told only at the end.
        if not secret_scores(prog):
            _close_deal(prog, st, shown)
        shown["deal"] += 1
        shown["tricks"] = 0
        shown["trick"] = []
    if st.over and not (shown["history"] and shown["history"][-1]["deal"] == shown["deal"]):
        _close_deal(prog, st, shown)
    shown["known"] = follow(prog, st, before, now)
    shown["lasts"] = record_last(prog, st, seat, move, (node, before, now))
    st.shown = shown


def _gathered(in_play: list[list], now: dict[int, LocKey]) -> bool:
    """Return whether every card of a trick from two seats or more left where it was played."""
    if len(in_play) < 2 or len({s for s, _, _ in in_play}) < 2:
        return False
    return all(list(now[c]) != where for _, c, where in in_play[:-1])


def _played_card(
    prog: Program,
    seat: int,
    move: dict,
    before: dict[int, LocKey],
    now: dict[int, LocKey],
    moved: dict[int, LocKey],
) -> int | None:
    """Return the card ``seat`` played with ``move``: the card a play names, else the one
    card it laid face up from its hidden places (a trick's last card may be gathered, or
    dealt again, in the same move)."""
    name = move.get("play")
    if isinstance(name, str):  # (dealt again, the card may be back in hand: not among the moved)
        candidates = [c for c in prog.cards_named(name) if c in now]
    else:
        candidates = [c for c, key in moved.items() if key[1] == "vloc"]
    held = [
        c for c in candidates if (was := before.get(c)) is not None and was[0] == seat and was[1] == "iloc"
    ]
    return held[0] if len(held) == 1 else None


def _taken(pending: list[list], now: dict[int, LocKey]) -> bool:
    """Return whether the trick in play was just gathered into a seat's or team's place."""
    if len(pending) < 2 or len({s for s, _, _ in pending}) < 2:
        return False
    places = {now[c] for _, c, _ in pending}
    if len(places) != 1:
        return False
    (place,) = places
    left = any(list(place) != where for _, _, where in pending[:-1])
    return left and place[0] != GAME


def _taker(prog: Program, st: RecycleState, owner: int) -> int:
    """Return the seat that took a trick gathered into ``owner``'s place."""
    if owner >= 0:
        return owner
    members = prog.teams[-2 - owner]
    nxt = None if st.over else st.cycles[-1][0]
    return nxt if nxt in members else members[0]


def _dealt(players: int, before: dict[int, LocKey], moved: dict[int, LocKey]) -> bool:
    """Return whether two seats or more each got two cards or more from anywhere but a seat's hand."""
    got = [0] * players
    for c, key in moved.items():
        if key[1] == "iloc" and 0 <= key[0] < players and c in before:
            came = before[c]
            if not (came[1] == "iloc" and came[0] >= 0):
                got[key[0]] += 1
    return sum(1 for n in got if n >= 2) >= 2


def _close_deal(prog: Program, st: RecycleState, shown: dict[str, Any]) -> None:
    """Add the deal that ended to the history: each seat's score and what the deal changed."""
    history = shown["history"]
    scores = prog.scores(st)
    previous = history[-1]["scores"] if history else [0] * len(scores)
    points = [a - b for a, b in zip(scores, previous, strict=True)]
    history.append({"deal": shown["deal"], "scores": scores, "points": points})
