"""What a game is, stated once: ``GameInfo``, its options, and which scores win.

``GameInfo`` holds a game's facts (id, name, player counts, options and presets)
and the texts a player reads; ``Option`` is one option with its choices and
their labels. ``score_sign``, ``ranks_of`` and ``winners_of`` turn the direction
of scoring into an order, for ``GameInfo`` and for scores without a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.protocol import OptionsError


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
