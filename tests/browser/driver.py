"""What a person does on the page, as Playwright steps: name, create, sit, add bots, play.

Moves are made the way a person makes them: by clicking (or tapping) a card the
page marks as legal, selecting cards and pressing "Pass cards" / "Discard", or
pressing the one move button ("Go"). The test never computes a rule itself.
"""

from __future__ import annotations

import random
import re
import time

from playwright.sync_api import Page, expect

# A point on a hand card that no neighbour covers (the hand is fanned left to right).
CARD_SPOT = {"x": 8, "y": 34}


def choose_name(page: Page, name: str) -> None:
    """Fill "Your name" and press "Play"; wait until the top bar shows it."""
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#who")).to_have_text(name)


def create_table(
    page: Page, game: str, players: int | None = None, options: dict[str, str] | None = None
) -> str:
    """In the lobby: choose the game, players and options by their labels; return the table's URL."""
    page.get_by_label("Game", exact=True).select_option(game)
    if players is not None:
        page.get_by_label("Players").select_option(str(players))
    for label, value in (options or {}).items():
        page.get_by_label(label, exact=True).select_option(label=value)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(page.locator("body")).to_have_attribute("data-status", "waiting")
    return page.url


def sit(page: Page) -> None:
    """Take the first empty seat."""
    page.get_by_role("button", name="Sit here").first.click()
    expect(page.get_by_role("button", name="Leave seat")).to_be_visible()


def fill_with_bots(page: Page, level: str = "random") -> None:
    """As host, put a bot of ``level`` in every empty seat."""
    while (count := page.get_by_role("button", name="Add bot").count()) > 0:
        page.get_by_label("Bot level").first.select_option(level)
        page.get_by_role("button", name="Add bot").first.click()
        expect(page.get_by_role("button", name="Add bot")).to_have_count(count - 1)


def start(page: Page) -> None:
    """As host, press "Start game" and wait for the game to run."""
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("body")).to_have_attribute("data-status", re.compile("playing|finished"))


def hand(page: Page) -> list[str]:
    """The accessible names of the cards in the hand, in order."""
    return page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")


def take_turn(page: Page, rng: random.Random, tap: bool = False) -> bool:
    """Make one move if it is this page's turn; return whether a move was sent."""
    if (
        page.locator("body[data-my-turn=yes]").count() == 0
        or page.locator("body[data-status=playing]").count() == 0
    ):
        return False
    version = page.locator("body").get_attribute("data-version")
    legal = page.locator("#hand button.card.legal")
    confirm = page.locator("#actions").get_by_role("button", name=re.compile("^(Pass cards|Discard)$"))
    try:
        if confirm.count():
            # Select legal cards one by one until the page lets us confirm.
            names = [n for n in legal.evaluate_all("bs => bs.map(b => b.dataset.card)")]
            rng.shuffle(names)
            for card in names:
                if confirm.is_enabled():
                    break
                button = page.locator(f'#hand button.card[data-card="{card}"]')
                button.tap(position=CARD_SPOT) if tap else button.click(position=CARD_SPOT)
            confirm.click(timeout=3000)
        elif legal.count():
            button = legal.nth(rng.randrange(legal.count()))
            button.tap(position=CARD_SPOT, timeout=3000) if tap else button.click(
                position=CARD_SPOT, timeout=3000
            )
        else:
            page.locator("#actions button").first.click(timeout=3000)
    except Exception:  # the state moved under us (a bot played): look again
        return False
    # Wait for the server's answer: a newer version, or the turn passing on.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if page.locator("body").get_attribute("data-version") != version:
            return True
        page.wait_for_timeout(20)
    return True


def play_to_end(pages: list[Page], seed: int = 1, limit: float = 300, on_move=None, tap: bool = False) -> int:
    """Play on every page until the game is over on all of them; return the moves made."""
    rng = random.Random(seed)
    moves = 0
    deadline = time.monotonic() + limit
    while True:
        if all(p.locator("body[data-status=finished]").count() for p in pages):
            return moves
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end within {limit}s ({moves} moves made)")
        acted = False
        for page in pages:
            if take_turn(page, rng, tap=tap):
                moves += 1
                acted = True
                if on_move:
                    on_move(page, moves)
        if not acted:
            pages[0].wait_for_timeout(30)
