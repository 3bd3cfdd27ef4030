"""The contract every game keeps, and the machinery games share.

A game module exposes one ``Game`` subclass instance (``GAME``). Its methods take
and return plain states; ``apply`` changes the state in place (``clone`` first
when you need the old one, as the search bots do). Everything a client sees goes
through ``view``; nothing else builds what a seat may see.

The contract (see DESIGN.md). Every state has ``players`` (the seat count),
``options`` (resolved) and ``seed``.

- ``info``: a ``GameInfo``: id, name, player range, options with defaults.
- ``new(players, options, seed)``: a fresh game, its first deal laid out.
- ``to_act(state)``: the seats that must act now (several in simultaneous phases).
- ``legal_moves(state, seat)``: that seat's legal moves, JSON objects in card order.
- ``apply(state, seat, move)``: check then make a move; returns the chance events
  it set off (``{"deal": ...}``, ``{"starter": ...}``), usually none.
- ``view(state, seat | None)``: exactly what that seat or a spectator may see.
- ``is_over(state)``, ``result(state)``, ``to_json``/``from_json``, ``clone``,
  ``determinize(state, seat, rng)``, and ``deal_event(state)`` for the logs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.cards import CARD_INDEX, CARD_NAMES, cards_in, names_in, play_moves

Move = dict[str, Any]
Event = dict[str, Any]
NO_EVENTS: tuple[Event, ...] = ()


class GameError(ValueError):
    """Something asked of a game that it cannot do; ``code`` is the protocol's."""

    code = "bad_request"


class OptionsError(GameError):
    """Unknown option, bad option value or player count, given to ``new``."""

    code = "bad_options"


class IllegalMoveError(GameError):
    """A move that is malformed or not legal now; the state is untouched."""

    code = "illegal_move"


class NotYourTurnError(IllegalMoveError):
    """A move from a seat that is not to act."""

    code = "not_your_turn"


class GameOverError(IllegalMoveError):
    """A move after the game has ended."""

    code = "game_not_running"


def choice_key(choice: Any) -> str:
    """Return the key ``choice_help`` uses for a choice: its JSON text (``true``, ``100``, ``rotate``)."""
    if isinstance(choice, bool):
        return "true" if choice else "false"
    return str(choice)


@dataclass(frozen=True)
class Option:
    """One game option: its default, the values a host may choose, and what they mean.

    ``help`` says in a sentence what the option decides; ``choice_help`` says what
    each choice means, keyed by ``choice_key`` (it may leave out plain numbers
    whose meaning ``help`` already gives). ``label`` is the option's name as a
    player reads it ("Points on first trick"), and ``choice_labels`` each
    choice's ("Standard rules"), keyed the same way; a choice without one reads
    as itself (a number) or, for true and false, as "Yes" and "No".
    """

    default: Any
    choices: tuple[Any, ...]
    help: str = ""
    choice_help: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    label: str = ""
    choice_labels: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def choice_label(self, choice: Any) -> str:
        """Return how a player reads ``choice``: its label, else "Yes"/"No" or the value itself."""
        key = choice_key(choice)
        if key in self.choice_labels:
            return self.choice_labels[key]
        if isinstance(choice, bool):
            return "Yes" if choice else "No"
        return key

    def to_json(self) -> dict[str, Any]:
        """Return the option as ``/api/games/`` lists it (every choice with its label)."""
        return {
            "default": self.default,
            "choices": list(self.choices),
            "help": self.help,
            "choice_help": dict(self.choice_help),
            "label": self.label,
            "choice_labels": {choice_key(c): self.choice_label(c) for c in self.choices},
        }


PRESET_HELP = "A named set of option values to start from; options chosen beside it override the preset's."
STANDARD_PRESET_HELP = "The game as most people play it: every option at its default."
PRESET_LABELS = {"cardstock": "CardStock rules"}


def cardstock_help(rules: str) -> str:
    """Explain a ``cardstock`` preset to a player who has never heard of CardStock."""
    return (
        "The rules as the CardStock project writes this game down (CardStock is a research "
        f"project that describes card games in a language called RECYCLE): {rules}"
    )


@dataclass(frozen=True)
class GameInfo:
    """What a game is, stated once: id, name, player counts, options and presets,
    which way scores win, and the texts a player reads (goal, how to play, glossary).

    ``preset_help`` explains each named preset (``cardstock``) for a player who has
    never heard of it; ``standard`` is explained by ``STANDARD_PRESET_HELP``.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    options: dict[str, Option]
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    low_score_wins: bool = False
    goal: str = ""
    how_to_play: tuple[str, ...] = ()
    glossary: tuple[tuple[str, str], ...] = ()
    preset_help: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # A game staff added from a RECYCLE description: the lobby marks it "experimental".
    experimental: bool = False
    # Tips for a first game: (moment, what to do and why), shown once per browser the first
    # time a player meets that moment (the page says which moment it is: "pass", "go").
    tips: tuple[tuple[str, str], ...] = ()

    def preset_option(self) -> Option:
        """Return ``preset`` as an option: ``standard`` and the named presets, explained."""
        return Option(
            "standard",
            ("standard", *self.presets),
            PRESET_HELP,
            {"standard": STANDARD_PRESET_HELP, **self.preset_help},
            label="Rules",
            choice_labels={"standard": "Standard rules", **PRESET_LABELS},
        )

    def to_json(self) -> dict[str, Any]:
        """Return the game as ``/api/games/`` lists it (``preset`` is an option)."""
        options = {name: opt.to_json() for name, opt in self.options.items()}
        options["preset"] = self.preset_option().to_json()
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players,
            "options": options,
            "low_score_wins": self.low_score_wins,
            "goal": self.goal,
            "how_to_play": list(self.how_to_play),
            "glossary": [{"term": term, "meaning": meaning} for term, meaning in self.glossary],
            "experimental": self.experimental,
            "tips": dict(self.tips),
        }

    def score_sign(self) -> int:
        """Return +1 where the highest score wins, -1 where the lowest does (Hearts).

        A score times the sign is larger the better it is: the bots' rewards use it.
        """
        return score_sign(self.low_score_wins)

    def ranks(self, scores: Sequence[float]) -> list[int]:
        """Return each seat's rank, 0 for the best score; equal scores share the better rank."""
        return ranks_of(scores, self.low_score_wins)

    def winners(self, scores: Sequence[float]) -> list[int]:
        """Return every seat that shares the best score, the best being the lowest where it wins."""
        return winners_of(scores, lowest_wins=self.low_score_wins)

    def check_players(self, players: int | None) -> int:
        """Return the player count, the default when ``None``; raise when out of range."""
        if players is None:
            return self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionsError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise OptionsError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}"
            )
        return players

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Return every option's value: defaults, then the preset's, then those given.

        ``preset`` names a set of values (``"cardstock"``); options given beside
        it override the preset's. The result keeps ``preset`` so a table shows it.
        """
        if given is not None and not isinstance(given, dict):
            raise OptionsError("options must be a JSON object")
        given = dict(given or {})
        preset = given.pop("preset", "standard")
        if not isinstance(preset, str) or (preset != "standard" and preset not in self.presets):
            known = ", ".join(["standard", *self.presets])
            raise OptionsError(f"{self.name} has no preset {preset!r} (known: {known})")
        resolved = {name: opt.default for name, opt in self.options.items()}
        resolved.update(self.presets.get(preset, {}))
        for name, value in given.items():
            option = self.options.get(name)
            if option is None:
                known = ", ".join([*self.options, "preset"])
                raise OptionsError(f"{self.name} has no option {name!r} (known: {known})")
            if not any(value == c and type(value) is type(c) for c in option.choices):
                choices = ", ".join(repr(c) for c in option.choices)
                raise OptionsError(f"option {name!r} cannot be {value!r} (choices: {choices})")
            resolved[name] = value
        resolved["preset"] = preset
        return resolved


class Game:
    """Base of every game: the contract's checks, and what all games share.

    Subclasses set ``info`` and implement ``_new``, ``to_act``, ``legal_moves``,
    ``advance`` (make a move already known to be legal), ``view``, ``is_over``,
    ``result``, ``to_json``, ``from_json``, ``clone``, ``determinize`` and
    ``deal_event``; they may refine ``why_illegal`` with game-specific reasons.
    """

    info: GameInfo

    def new(self, players: int | None = None, options: dict | None = None, seed: int = 0) -> Any:
        """Start a game: check the player count and options, deal from ``seed``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionsError(f"seed must be a whole number, not {seed!r}")
        if options is not None and not isinstance(options, dict):
            raise OptionsError("options must be a JSON object")
        count = self.info.check_players(players)
        return self._new(count, self.info.resolve_options(options), seed)

    def apply(self, state: Any, seat: int, move: Move) -> Sequence[Event]:
        """Check ``move`` for ``seat`` and make it; raise ``IllegalMoveError`` if not legal.

        Returns the chance events the move set off (a new deal, a start card).
        The state is changed only when no error is raised.
        """
        self.check_move(state, seat, move)
        return self.advance(state, seat, move)

    def check_move(self, state: Any, seat: int, move: Move) -> None:
        """Raise the error that explains why ``seat`` may not make ``move`` now."""
        if self.is_over(state):
            raise GameOverError("the game is over")
        # ``True in [1]`` holds in Python: only a real int names a seat.
        if type(seat) is not int or seat not in self.to_act(state):
            raise NotYourTurnError(f"it is not seat {seat!r}'s turn")
        if not isinstance(move, dict) or len(move) != 1:
            raise IllegalMoveError('a move is a JSON object with one key, such as {"play": "QS"}')
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(self.why_illegal(state, seat, move))

    def why_illegal(self, state: Any, seat: int, move: Move) -> str:
        """Say why a move that is not in ``legal_moves`` is refused."""
        return f"{move} is not a legal move now"

    def random_move(self, state: Any, seat: int, rng: random.Random) -> Move:
        """Return a uniformly random legal move (the ``random`` bot, the playouts).

        Its law is a uniform choice among ``legal_moves(state, seat)``. A game
        may override it to draw that move without listing every move (Hearts'
        pass has 286), but must keep the law exactly: tests/games/test_random_move.py
        checks each game's draws against its ``legal_moves``. Raises a
        ``GameError`` when the seat has no move now.
        """
        moves = self.legal_moves(state, seat)
        if not moves:
            if self.is_over(state):
                raise GameOverError("the game is over")
            raise NotYourTurnError(f"seat {seat} has no move now")
        return moves[int(rng.random() * len(moves))]

    def start_state(self, state: Any, players: int, options: dict[str, Any], seed: int) -> Any:
        """Set what every new state starts with: the seat count, options, seed, and the
        first dealer, drawn from the seed (RULES.md, "Common to every game"). Returns ``state``."""
        state.players = players
        state.options = options
        state.seed = seed
        state.dealer = random.Random(seed).randrange(players)
        return state

    def deal_again(self, state: Any, dealer: int | None = None) -> list[Event]:
        """Gather the cards and deal anew (``_deal``), the deal passing to ``dealer``.

        ``dealer`` defaults to the next seat. Returns the new deal's log event.
        """
        state.dealer = (state.dealer + 1) % state.players if dealer is None else dealer
        state.deal_number += 1
        self._deal(state)
        return [self.deal_event(state)]

    def _deal(self, state: Any) -> None:
        """Deal the deal ``state.deal_number`` from ``state.dealer`` (games that deal again)."""
        raise NotImplementedError

    # The rest of the contract, implemented by each game.

    def _new(self, players: int, options: dict[str, Any], seed: int) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        """Return the seats that must act now; empty once the game is over."""
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Return ``seat``'s legal moves (shared objects: do not mutate them)."""
        raise NotImplementedError

    def advance(self, state: Any, seat: int, move: Move) -> Sequence[Event]:
        """Make a move known to be legal, without checks (the search bots' path)."""
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` (or a spectator, ``None``) may see."""
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        """Return whether the game has ended."""
        raise NotImplementedError

    def move_seen_by(self, state: Any, mover: int, move: Move, viewer: int | None) -> Move:
        """Return a move of the current deal as ``viewer`` (a seat, or ``None``) may see it now.

        ``state`` is the game now, in the same deal. Every card a move names is
        seen by everyone unless a game hides it (Hearts' pass, Cribbage's discard).
        """
        return move

    def result(self, state: Any) -> dict[str, Any] | None:
        """Return ``{"scores": [...], "winners": [...]}`` once over, else ``None``."""
        raise NotImplementedError

    def to_json(self, state: Any) -> dict[str, Any]:
        """Return the whole state as plain JSON."""
        raise NotImplementedError

    def from_json(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from ``to_json``'s output."""
        raise NotImplementedError

    def clone(self, state: Any) -> Any:
        """Return an independent copy of the state."""
        raise NotImplementedError

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Return a full state consistent with what ``seat`` has seen, hidden cards dealt at random."""
        raise NotImplementedError

    def deal_event(self, state: Any) -> Event:
        """Return the current deal as laid out: ``{"deal": {"dealer", "hands", "stock", ...}}``."""
        raise NotImplementedError


def played_card(move: Move) -> int | None:
    """Return the card index a ``{"play": CARD}`` move names, or ``None`` if it names none."""
    name = move.get("play")
    return CARD_INDEX.get(name) if isinstance(name, str) else None


class OneSeatGame(Game):
    """A game where one seat plays one card from its hand at a time.

    The state has ``turn`` (the seat to play), ``over`` and ``hands`` (bitmasks).
    By default any card in the hand may be played; a game with more rules
    (following suit) overrides ``legal_moves`` and ``why_illegal``.
    """

    def to_act(self, state: Any) -> list[int]:
        """Return the one seat to play, or none once the game is over."""
        return [] if state.over else [state.turn]

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Return every card in ``seat``'s hand when it is to play."""
        if state.over or seat != state.turn:
            return []
        return play_moves(state.hands[seat])

    def why_illegal(self, state: Any, seat: int, move: Move) -> str:
        """Name what is wrong with a refused play: not a card, or not in the hand."""
        card = played_card(move)
        if card is None:
            return f'a move in {self.info.name} is {{"play": CARD}} with a card such as "QS", not {move}'
        if not state.hands[seat] >> card & 1:
            return f"{CARD_NAMES[card]} is not in your hand"
        return super().why_illegal(state, seat, move)


def noted_deal(
    history: list[dict[str, Any]],
    deal: int,
    scores: Sequence[int],
    start: Sequence[int] | None = None,
    **extra: Any,
) -> list[dict[str, Any]]:
    """Return ``history`` with one more finished deal: its number, what each seat gained, the scores after.

    A new list (never the old one changed): copies of a state share their history.
    ``points`` is the change since the previous deal, or since ``start`` (zeros when not given).
    """
    before = history[-1]["scores"] if history else list(start if start is not None else [0] * len(scores))
    points = [now - then for now, then in zip(scores, before, strict=True)]
    return [*history, {"deal": deal, "points": points, "scores": list(scores), **extra}]


def score_sign(lowest_wins: bool) -> int:
    """Return +1 where the highest score wins, -1 where the lowest does.

    The one place a direction of scoring becomes an order: ``ranks_of``, ``winners_of``
    and ``GameInfo``'s ``score_sign``, ``ranks`` and ``winners`` all read it.
    """
    return -1 if lowest_wins else 1


def ranks_of(scores: Sequence[float], lowest_wins: bool = False) -> list[int]:
    """Return each seat's rank, 0 for the best; equal scores share the better rank.

    CardStock's ``FindRanks``: scores [5, 9, 9, 1] with the highest winning give
    [2, 0, 0, 3]. A game's own are ``GameInfo.ranks``.
    """
    sign = score_sign(lowest_wins)
    order = sorted(range(len(scores)), key=lambda seat: -sign * scores[seat])
    ranks = [0] * len(scores)
    for place, seat in enumerate(order):
        if place and scores[seat] == scores[order[place - 1]]:
            ranks[seat] = ranks[order[place - 1]]
        else:
            ranks[seat] = place
    return ranks


def winners_of(scores: Sequence[float], lowest_wins: bool = False) -> list[int]:
    """Return every seat that shares the best score (rank 0). A game's own are ``GameInfo.winners``."""
    return [seat for seat, rank in enumerate(ranks_of(scores, lowest_wins)) if rank == 0]


def deal_record(
    dealer: int,
    hands: Sequence[int],
    stock: Sequence[int],
    pool: Sequence[int] = (),
    crib: Sequence[int] = (),
) -> Event:
    """Build a ``deal`` log event from masks/lists of card indexes.

    ``hands`` are bitmasks; ``stock`` is a list with its top card first; the
    ``pool`` and ``crib`` lists are laid out the same way, empty in a game
    without them (every deal event carries both keys).
    """
    return {
        "deal": {
            "dealer": dealer,
            "hands": [names_in(hand) for hand in hands],
            "stock": [CARD_NAMES[c] for c in stock],
            "pool": [CARD_NAMES[c] for c in pool],
            "crib": [CARD_NAMES[c] for c in crib],
        }
    }


def deal_hidden(
    unseen: list[int],
    sizes: Sequence[int],
    forbidden: Sequence[int],
    rng: random.Random,
) -> list[int]:
    """Deal ``unseen`` cards into hands of ``sizes`` at random, as bitmasks.

    ``forbidden[seat]`` is a mask of cards that seat cannot hold (suits it has
    shown void in). Cards are placed most-constrained first, so a valid deal is
    found whenever one exists; a determinization is then uniform enough for
    search, though not exactly the posterior. Raises ``GameError`` at once when
    the sizes do not add up to the unseen cards (no deal could fit: the search
    would try every placement before saying so).
    """
    if len(forbidden) != len(sizes):
        raise GameError(f"deal_hidden: {len(sizes)} hand sizes but {len(forbidden)} forbidden masks")
    if sum(sizes) != len(unseen) or min(sizes, default=0) < 0:
        raise GameError(
            f"deal_hidden: hands of sizes {list(sizes)} cannot hold exactly {len(unseen)} unseen cards"
        )
    cards = list(unseen)
    rng.shuffle(cards)
    # Cards fewer seats may hold go first; ties keep the shuffled order.
    cards.sort(key=lambda c: sum(1 for s, size in enumerate(sizes) if size and not forbidden[s] >> c & 1))
    hands = [0] * len(sizes)
    room = list(sizes)
    if _place(cards, 0, hands, room, forbidden, rng):
        return hands
    raise GameError("no deal of the unseen cards fits what this seat has seen")


def redeal_unseen(
    state: Any,
    seat: int,
    unseen: list[int],
    rng: random.Random,
    voids: Sequence[int] | None = None,
) -> None:
    """Deal ``unseen`` at random, in place, into the other seats' hands and the stock.

    For a determinized copy whose ``hands`` (bitmasks) and ``stock`` (a list)
    are its own: each other hand keeps its size and the stock its length, in a
    random order. ``voids[s]``, when given, masks the cards seat ``s`` has shown
    it cannot hold.
    """
    hands = state.hands
    sizes = [0 if s == seat else h.bit_count() for s, h in enumerate(hands)]
    sizes.append(len(state.stock))
    forbidden = [0] * len(sizes) if voids is None else [*voids, 0]
    forbidden[seat] = 0
    dealt = deal_hidden(unseen, sizes, forbidden, rng)
    for s in range(len(hands)):
        if s != seat:
            hands[s] = dealt[s]
    stock = cards_in(dealt[-1])
    rng.shuffle(stock)
    state.stock = stock


def _place(
    cards: list[int],
    index: int,
    hands: list[int],
    room: list[int],
    forbidden: Sequence[int],
    rng: random.Random,
) -> bool:
    if index == len(cards):
        return True
    card = cards[index]
    seats = [s for s in range(len(hands)) if room[s] and not forbidden[s] >> card & 1]
    # Weight by room left so a seat with many open places takes more cards.
    rng.shuffle(seats)
    seats.sort(key=lambda s: -room[s] * rng.random())
    for seat in seats:
        hands[seat] |= 1 << card
        room[seat] -= 1
        if _place(cards, index + 1, hands, room, forbidden, rng):
            return True
        hands[seat] &= ~(1 << card)
        room[seat] += 1
    return False
