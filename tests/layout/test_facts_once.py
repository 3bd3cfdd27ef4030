"""Facts stated once: the bot levels, and which score is best.

The bot levels are ``games.bots.LEVELS`` (``games/bots/settings.py``); every other
place reads that list (the server, ``GET /api/games/``, the page, the dashboard).
Which score is best is ``GameInfo.low_score_wins``, read through ``GameInfo``'s
``score_sign``, ``ranks`` and ``winners``. A place that states either again, or
works the best score out its own way, fails here.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from cardtable.dashboard import stats
from cardtable.tables.players import names
from games import GAMES
from games.bots import LEVELS
from games.bots.levels import settings_for
from games.engine import Game
from games.recycle import library, load
from games.stats import heuristics

ROOT = Path(__file__).resolve().parents[2]
CODE = ("cardtable", "games", "static", "templates", "bench")
SUFFIXES = (".py", ".js", ".html")


def code_files() -> list[Path]:
    """Every source file of the project, tests left out (they state what they expect on their own)."""
    return sorted(path for folder in CODE for path in (ROOT / folder).rglob("*") if path.suffix in SUFFIXES)


def listing_levels(text: str) -> bool:
    """Whether a text lists two bot levels in a row (``"random", "easy"``): a list of its own."""
    quoted = [rf"""["']{re.escape(level)}["']""" for level in LEVELS]
    return any(re.search(rf"{a}\s*,\s*{b}", text) for a, b in itertools.pairwise(quoted))


def test_the_bot_levels_are_listed_once() -> None:
    listing = [str(p.relative_to(ROOT)) for p in code_files() if listing_levels(p.read_text())]
    assert listing == ["games/bots/settings.py"]


def test_the_scan_sees_a_list_of_levels() -> None:
    assert listing_levels('const LEVELS = ["random", "easy", "normal", "hard"];')
    assert listing_levels("order = ['normal', 'hard']")
    assert not listing_levels('budgets={"normal": (220, 0.25), "hard": (900, 1.0)}')


def test_a_name_may_not_pass_for_a_bot_of_any_level() -> None:
    for level in LEVELS:
        with pytest.raises(names.BadText):
            names.clean_name(f"Bot ({level})")


def test_only_the_game_info_reads_which_way_scores_win() -> None:
    # A game states ``low_score_wins=...``; GameInfo reads it. The dashboard's
    # ``lowest_wins`` passes it on to its lead chart, whose words say which score leads.
    allowed = {"games/info.py", "cardtable/dashboard/stats.py"}
    reading = re.compile(r"\.low_score_wins\b")
    readers = {
        str(p.relative_to(ROOT)) for p in code_files() if p.suffix == ".py" and reading.search(p.read_text())
    }
    assert readers <= allowed, readers - allowed


def games_with_bots() -> list[Game]:
    """The site's games and the project's own RECYCLE descriptions (which carry their bot settings)."""
    return [*GAMES.values(), *(load(path) for path in library().values())]


@pytest.mark.parametrize("game", games_with_bots(), ids=lambda game: game.info.id)
def test_every_reading_of_the_best_score_follows_the_game_info(game: Game) -> None:
    info = game.info
    scores = [1, 2, 2, 0]  # small: a reward maps a deal's swing into [0, 1] and clips beyond it
    best = min(scores) if info.low_score_wins else max(scores)
    worst = max(scores) if info.low_score_wins else min(scores)
    winners = [seat for seat, score in enumerate(scores) if score == best]
    assert info.winners(scores) == winners
    assert [seat for seat, rank in enumerate(info.ranks(scores)) if rank == 0] == winners
    assert info.ranks(scores) == heuristics.ranks_of(scores, info.low_score_wins)
    assert info.score_sign() * best > info.score_sign() * worst
    # The bots' search rewards the best final score above the worst.
    reward = settings_for(game).reward([0, 0, 0, 0], scores)
    assert reward[scores.index(best)] > reward[scores.index(worst)]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_dashboard_leader_is_the_game_info_winner(game_id: str) -> None:
    info = GAMES[game_id].info
    for scores in ([5, 9, 7, 1], [3, 0, 8]):
        assert stats.sole_leader(scores, stats.lowest_wins(game_id)) == info.winners(scores)[0]
    assert stats.sole_leader([4, 4, 4], stats.lowest_wins(game_id)) is None
