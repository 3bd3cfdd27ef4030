"""The state of a RECYCLE game in play, and its plain-JSON form.

Cards are numbers: indexes into the program's deck (``Program.cards``), so a
location is a list of ints, bottom first and top last. A location's key is
``(owner, kind, name)``: ``owner`` is a seat (0..n-1), ``GAME`` (-1) or a team
``-2 - t``; ``kind`` is ``iloc``, ``vloc``, ``hloc`` or ``mem``.
"""

from __future__ import annotations

from typing import Any

GAME = -1
LocKey = tuple[int, str, str]


def team_owner(team: int) -> int:
    """Return the owner number of team ``team`` (teams own storage and locations too)."""
    return -2 - team


def owner_label(owner: int) -> str:
    """Return how JSON names an owner: ``"game"``, ``"0"`` (a seat) or ``"team0"``."""
    if owner == GAME:
        return "game"
    return str(owner) if owner >= 0 else f"team{-2 - owner}"


def fresh_shown() -> dict[str, Any]:
    """Return what the table shows of a game just dealt (games/recycle/playing/table.py): deal 1, no trick."""
    return {"deal": 1, "trick": [], "tricks": 0, "tricks_total": 0, "last_trick": None, "history": []}


def parse_owner(label: str) -> int:
    """Invert ``owner_label``."""
    if label == "game":
        return GAME
    if label.startswith("team"):
        return team_owner(int(label[4:]))
    return int(label)


class RecycleState:
    """One game of a RECYCLE description: its cards, storage, cycles and where it stands.

    ``frames`` is the interpreter's position: ``[node, index]`` per stage being
    run (``node`` 0 is the game's own body); ``cycles`` the stack of player
    cycles ``[current, queued next or -1]``, one per stage (``tcycles`` for team
    stages). ``choice`` is the choice node the game waits on, ``None`` when over.
    """

    __slots__ = (
        "players",
        "options",
        "seed",
        "locs",
        "sto",
        "strs",
        "points",
        "cycles",
        "tcycles",
        "frames",
        "choice",
        "shuffles",
        "moves",
        "steps",
        "began",
        "over",
        "error",
        "last",
        "dealt",
        "shown",
        "cache",
    )

    players: int
    options: dict[str, Any]
    seed: int
    locs: dict[LocKey, list[int]]
    sto: dict[tuple[int, str], int]
    strs: dict[tuple[int, str], str]  # string storage, (game str NAME): "" until set
    points: dict[str, tuple]  # name -> ((conditions, points), ...), conditions ((attr, values), ...)
    cycles: list[list[int]]
    tcycles: list[list[int]]
    frames: list[list[int]]
    choice: int | None
    shuffles: int
    moves: int
    steps: int
    began: float | None  # this thread's CPU time at the move's first clock reading (bounds its time)
    over: bool
    error: str | None
    last: dict | None
    dealt: dict | None  # the first deal as laid out, for the log
    shown: dict[
        str, Any
    ]  # what the table shows besides the places (games/recycle/playing/table.py); never changed in place
    cache: Any  # the pending choice's options (not saved; rebuilt on demand)

    def copy(self) -> RecycleState:
        """Return an independent copy (the options cache is not shared)."""
        other = RecycleState()
        other.players = self.players
        other.options = self.options
        other.seed = self.seed
        other.locs = {key: list(cards) for key, cards in self.locs.items()}
        other.sto = dict(self.sto)
        other.strs = dict(self.strs)
        other.points = dict(self.points)  # values are immutable tuples
        other.cycles = [list(c) for c in self.cycles]
        other.tcycles = [list(c) for c in self.tcycles]
        other.frames = [list(f) for f in self.frames]
        other.choice = self.choice
        other.shuffles = self.shuffles
        other.moves = self.moves
        other.steps = 0
        other.began = self.began
        other.over = self.over
        other.error = self.error
        other.last = self.last
        other.dealt = self.dealt
        other.shown = self.shown
        other.cache = None
        return other


def state_to_json(state: RecycleState, names: list[str]) -> dict[str, Any]:
    """Return the state as plain JSON; cards by index (``names`` only labels the locations' cards)."""
    return {
        "players": state.players,
        "options": state.options,
        "seed": state.seed,
        "locations": [
            {"owner": owner_label(o), "kind": k, "name": n, "cards": list(cards)}
            for (o, k, n), cards in state.locs.items()
        ],
        "storage": [{"owner": owner_label(o), "name": n, "value": v} for (o, n), v in state.sto.items()],
        "strings": [{"owner": owner_label(o), "name": n, "value": v} for (o, n), v in state.strs.items()],
        "points": {
            name: [[[[attr, sorted(values)] for attr, values in conds], pts] for conds, pts in entries]
            for name, entries in state.points.items()
        },
        "cycles": [list(c) for c in state.cycles],
        "tcycles": [list(c) for c in state.tcycles],
        "frames": [list(f) for f in state.frames],
        "choice": state.choice,
        "shuffles": state.shuffles,
        "moves": state.moves,
        "over": state.over,
        "error": state.error,
        "last": state.last,
        "dealt": state.dealt,
        "shown": state.shown,
    }


def state_from_json(data: dict[str, Any]) -> RecycleState:
    """Rebuild a state from ``state_to_json``'s output."""
    state = RecycleState()
    state.players = data["players"]
    state.options = data["options"]
    state.seed = data["seed"]
    state.locs = {
        (parse_owner(e["owner"]), e["kind"], e["name"]): list(e["cards"]) for e in data["locations"]
    }
    state.sto = {(parse_owner(e["owner"]), e["name"]): e["value"] for e in data["storage"]}
    state.strs = {(parse_owner(e["owner"]), e["name"]): e["value"] for e in data.get("strings", ())}
    state.points = {
        name: tuple(
            (tuple((attr, frozenset(values)) for attr, values in conds), pts) for conds, pts in entries
        )
        for name, entries in data["points"].items()
    }
    state.cycles = [list(c) for c in data["cycles"]]
    state.tcycles = [list(c) for c in data["tcycles"]]
    state.frames = [list(f) for f in data["frames"]]
    state.choice = data["choice"]
    state.shuffles = data["shuffles"]
    state.moves = data["moves"]
    state.steps = 0
    state.began = None
    state.over = data["over"]
    state.error = data["error"]
    state.last = data["last"]
    state.dealt = data["dealt"]
    state.shown = data.get("shown") or fresh_shown()
    state.cache = None
    return state
