"""Ninety-Eight on a phone: the mark on each hand card (the total it would make, red when it goes
over) is read whole, never cut to "100: o..."."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE
from tests.browser.driver import play_against_bots, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Each mark's text width (measured in its own font) plus its padding, against the room it has.
MARKS_JS = """() => [...document.querySelectorAll('#hand .card.in-hand.marked')].map((card) => {
  const style = getComputedStyle(card, '::before');
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = style.font;
  const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const need = ctx.measureText(card.dataset.mark).width + pad;
  const danger = card.classList.contains('mark-danger');
  return { mark: card.dataset.mark, need, room: parseFloat(style.maxWidth), danger };
})"""


# Games played at most, each at a new table: the deal is the table's own, so a game may end
# (the random bot out of lives) before the player ever holds a card that would go over.
GAMES = 3


def test_ninety_eights_hand_marks_fit_on_a_phone(site_server, new_page) -> None:
    seen: list[dict] = []

    def check(page, state) -> None:
        marks = page.evaluate(MARKS_JS)
        seen.extend(marks)
        cut = [m for m in marks if m["need"] > m["room"] + 0.5]
        assert not cut, cut

    for game in range(GAMES):
        page = new_page(**PHONE)
        play_against_bots(page, site_server.url, "Ann", "ninety_eight", 2, {"Lives": "3"})
        play_to_end([page], seed=5 + game, limit=300, tap=True, on_turn=check)
        assert page.errors == []
        if any(m["danger"] for m in seen):
            break
    assert any(m["danger"] for m in seen), f"no card that goes over was marked in {GAMES} games"
    assert len(seen) > 10
