"""Every game states its facts once, on its ``GameInfo``: the texts a player reads,
what each option and preset means, and which way scores win."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.engine import Game, choice_key


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_game_explains_itself(game_id: str) -> None:
    info = GAMES[game_id].info.to_json()
    assert info["goal"].strip() and info["goal"].count(". ") == 0, "the goal is one sentence"
    assert 2 <= len(info["how_to_play"]) <= 6 and all(p.strip() for p in info["how_to_play"])
    assert len(info["glossary"]) >= 4
    terms = [entry["term"] for entry in info["glossary"]]
    assert len(set(terms)) == len(terms)
    assert all(set(entry) == {"term", "meaning"} and entry["meaning"].strip() for entry in info["glossary"])
    assert isinstance(info["low_score_wins"], bool)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_option_and_preset_is_explained(game_id: str) -> None:
    options = GAMES[game_id].info.to_json()["options"]
    assert "preset" in options
    for name, option in options.items():
        assert option["help"].strip(), f"{game_id}: option {name} has no help"
        keys = [choice_key(c) for c in option["choices"]]
        assert set(option["choice_help"]) <= set(keys), f"{game_id}: {name} explains a choice it lacks"
        for key, choice in zip(keys, option["choices"], strict=True):
            # A plain number may go unexplained (the option's help says what it counts).
            if isinstance(choice, bool) or not isinstance(choice, int):
                assert option["choice_help"].get(key, "").strip(), f"{game_id}: {name}={key} is unexplained"
    presets = options["preset"]["choice_help"]
    assert set(presets) == {"standard", *GAMES[game_id].info.presets}
    if "cardstock" in presets:
        assert "CardStock" in presets["cardstock"] and "RECYCLE" in presets["cardstock"]


def _random_result(game: Game, seed: int) -> dict:
    state, rng = game.new(None, None, seed), random.Random(seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.apply(state, seat, game.random_move(state, seat, rng))
    return game.result(state)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_winners_are_at_the_end_low_score_wins_names(game_id: str) -> None:
    game = GAMES[game_id]
    pick = min if game.info.low_score_wins else max
    for seed in range(8):
        result = _random_result(game, seed)
        best = pick(result["scores"])
        assert result["winners"] == [s for s, score in enumerate(result["scores"]) if score == best]


def test_choice_keys_are_the_json_text_of_a_choice() -> None:
    assert [choice_key(c) for c in (False, True, 100, "rotate")] == ["false", "true", "100", "rotate"]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_option_and_choice_has_a_name_a_person_reads(game_id: str) -> None:
    options = GAMES[game_id].info.to_json()["options"]
    for name, option in options.items():
        label = option["label"]
        assert label.strip() and "_" not in label and label[0].isupper(), f"{game_id}: {name} reads {label!r}"
        labels = option["choice_labels"]
        assert set(labels) == {choice_key(c) for c in option["choices"]}
        for choice in option["choices"]:
            shown = labels[choice_key(choice)]
            # Words, not identifiers: no underscores, no "true"/"false"; a number may read as itself.
            assert "_" not in shown and shown not in ("true", "false"), (
                f"{game_id}: {name}={choice!r} reads {shown!r}"
            )
            if not isinstance(choice, int) or isinstance(choice, bool):
                assert shown[0].isupper(), f"{game_id}: {name}={choice!r} reads {shown!r}"
    assert options["preset"]["label"] == "Rules"
    assert options["preset"]["choice_labels"]["standard"] == "Standard rules"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_tips_are_short_and_name_a_moment(game_id: str) -> None:
    tips = GAMES[game_id].info.to_json()["tips"]
    assert isinstance(tips, dict)
    for moment, text in tips.items():
        assert moment.isidentifier() and moment == moment.lower()
        assert 40 <= len(text) <= 260, f"{game_id}: the {moment} tip is {len(text)} characters"
    expected = {"hearts": {"pass", "first_lead", "hearts_broken"}, "cribbage": {"crib", "go", "show"}}
    assert set(tips) == expected.get(game_id, set())
