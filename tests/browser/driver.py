"""What a person does on the page, as Playwright steps: name, create, sit, add bots, play.

Moves are made the way a person makes them: by clicking (or tapping) the visible
part of a card the page marks as legal (then, for a card with several places to go,
one of the buttons saying where), selecting cards and pressing "Pass cards" /
"Discard", or pressing the one move button ("Go"). The test never computes a rule
itself: it reads what the page shows.

Nothing here can wait forever. Waits and clicks carry timeouts, and the few
Playwright calls that have none (an ``evaluate``) run under a :class:`Watchdog`
that ends the browser when one of them has not returned in time, so a stuck
page fails the test with what it last showed instead of hanging the run.
"""

from __future__ import annotations

import faulthandler
import os
import random
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

CLICK_TIMEOUT = 5_000  # ms: a click on a card or button the page shows as ready
ANSWER_TIMEOUT = 20_000  # ms: the server's answer (a new state) to a move
CALL_LIMIT = 90.0  # s: one turn (its calls are bounded to well under this) or one call

# What the page shows a player, read in one call: whose turn, which cards are
# marked legal (and selected), the confirm button of a multi-card move, the
# move buttons one can press, and whether a between-deals summary or a dialog is up.
STATE_JS = """() => {
  const data = document.body.dataset;
  const cards = [...document.querySelectorAll('#hand button.card')];
  const buttons = [...document.querySelectorAll('#actions button')];
  const confirm = buttons.find((b) => /^(Pass cards|Discard)$/.test(b.textContent.trim()));
  const dialog = document.querySelector('[role=dialog]:not([hidden])');
  const summary = document.getElementById('summary');
  return {
    status: data.status || '',
    myTurn: data.myTurn === 'yes',
    version: data.version || '',
    hand: cards.map((b) => b.dataset.card),
    legal: cards.filter((b) => b.classList.contains('legal')).map((b) => b.dataset.card),
    selected: cards.filter((b) => b.classList.contains('selected')).map((b) => b.dataset.card),
    confirm: confirm ? { label: confirm.textContent.trim(), enabled: !confirm.disabled } : null,
    buttons: buttons.filter((b) => !b.disabled).map((b) => b.textContent.trim()),
    turnBanner: (document.getElementById('turn-banner') || {}).textContent || '',
    summary: summary ? !summary.hidden : false,
    dialog: dialog ? dialog.textContent.replace(/\\s+/g, ' ').trim().slice(0, 200) : null,
  };
}"""

# Where a person would click a card: the middle of the widest run of its own
# pixels, in its upper half, as a point relative to the card's bounding box
# (how Playwright places clicks), and that run's width. The hand is fanned and
# overlapped, so a fixed point in the box, such as a corner, may be a neighbour.
VISIBLE_SPOT_JS = """(card) => {
  card.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const box = card.getBoundingClientRect();
  for (const fy of [0.3, 0.42, 0.2, 0.55]) {
    const y = box.top + box.height * fy;
    let best = null;
    let run = null;
    for (let x = Math.ceil(box.left) + 1; x < box.right - 1; x += 2) {
      const hit = document.elementFromPoint(x, y);
      if (hit && card.contains(hit)) {
        run = run ? [run[0], x] : [x, x];
        if (!best || run[1] - run[0] > best[1] - best[0]) best = run;
      } else run = null;
    }
    if (best && best[1] - best[0] >= 10) {
      return { x: (best[0] + best[1]) / 2 - box.left, y: y - box.top, width: best[1] - best[0] + 2 };
    }
  }
  return null;
}"""


class Stalled(AssertionError):
    """A Playwright call did not return within the watchdog's limit."""


class Watchdog:
    """End the browser when one Playwright call runs longer than ``limit`` seconds.

    Some Playwright calls (``evaluate``, ``count``) take no timeout: if the page
    never answers, the test would wait until the whole run is killed. While a
    call runs under :meth:`call`, a thread watches the clock; past the limit it
    dumps every thread's stack to stderr and kills the browser processes this
    test process started, which makes the blocked call raise. The caller then
    gets a :class:`Stalled` error naming the call.
    """

    def __init__(self, limit: float = CALL_LIMIT) -> None:
        self.limit = limit
        self.what: str | None = None
        self.started = 0.0
        self.fired: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="browser-watchdog", daemon=True)
        self._thread.start()

    @contextmanager
    def call(self, what: str) -> Iterator[None]:
        """Run the body as one watched call described by ``what``.

        Calls nest: an inner call names what is being waited for, while the
        clock keeps running from the outermost one.
        """
        with self._lock:
            outer = self.what
            if outer is None:
                self.started = time.monotonic()
            self.what = what
        try:
            yield
        except PlaywrightError as error:
            if self.fired:
                raise Stalled(self.fired) from error
            raise
        finally:
            with self._lock:
                self.what = outer
        if self.fired:
            raise Stalled(self.fired)

    def close(self) -> None:
        """Stop watching."""
        self._stop.set()
        self._thread.join(5)

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
            with self._lock:
                what, started = self.what, self.started
            if what is None or time.monotonic() - started < self.limit:
                continue
            self.fired = f"the browser did not answer {what} within {self.limit:.0f}s; it was ended"
            print(f"\n*** watchdog: {self.fired}; stacks follow", file=sys.stderr, flush=True)
            faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
            for pid in browser_pids():
                with suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            return


def browser_pids() -> list[int]:
    """The main Chromium processes among this process's descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--remote-debugging-pipe" in cmdline and not any(a.startswith(b"--type=") for a in cmdline):
                found.append(pid)
    return found


def choose_name(page: Page, name: str) -> None:
    """Fill "Your name" and press "Play"; wait until the top bar shows it."""
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play", exact=True).click()
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
    """Take the first empty seat (the table's creator sits on creation: nothing to do)."""
    if page.get_by_role("button", name="Leave seat").count() == 0:
        page.get_by_role("button", name="Sit here").first.click()
    expect(page.get_by_role("button", name="Leave seat")).to_be_visible()


def fill_with_bots(page: Page, level: str = "random") -> None:
    """As host, choose the bot level and press "Fill with bots"; wait until no seat is empty."""
    # The page reconnects once when it learns its player: press while the socket is open.
    expect(page.locator("body")).to_have_attribute("data-connection", "open")
    page.get_by_label("Bot level").select_option(level)
    page.get_by_role("button", name="Fill with bots").click()
    expect(page.locator(".seat.kind-empty")).to_have_count(0)


def start(page: Page) -> None:
    """As host, press "Start game" and wait for the game to run."""
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("body")).to_have_attribute("data-status", re.compile("playing|finished"))


def play_against_bots(
    page: Page, site_url: str, name: str, game: str, players: int | None = None, options: dict | None = None
) -> str:
    """From the lobby: take a name, create a table, sit, add random bots and start; return its URL."""
    page.goto(site_url + "/")
    choose_name(page, name)
    url = create_table(page, game, players, options)
    sit(page)
    fill_with_bots(page, "random")
    start(page)
    return url


def hand(page: Page) -> list[str]:
    """The accessible names of the cards in the hand, in order."""
    return page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")


def _watched(watchdog: Watchdog | None, what: str) -> AbstractContextManager[None]:
    return watchdog.call(what) if watchdog else nullcontext()


def read_state(page: Page, watchdog: Watchdog | None = None) -> dict:
    """What the page shows now (see STATE_JS), in one call."""
    with _watched(watchdog, "a read of the page's state"):
        return page.evaluate(STATE_JS)


def click_card(page: Page, card: str, tap: bool = False, watchdog: Watchdog | None = None) -> None:
    """Click (or tap) the visible part of the hand's ``card``, as a person aims at it."""
    button = page.locator(f'#hand button.card[data-card="{card}"]').first  # a deck may repeat a name
    with _watched(watchdog, f"a look for the visible part of {card}"):
        spot = button.evaluate(VISIBLE_SPOT_JS, timeout=CLICK_TIMEOUT)
    if spot is None:
        raise AssertionError(f"no part of the card {card} can be clicked: something covers it")
    spot = {"x": spot["x"], "y": spot["y"]}
    if tap:
        button.tap(position=spot, timeout=CLICK_TIMEOUT)
    else:
        button.click(position=spot, timeout=CLICK_TIMEOUT)


# Whether a tap on ``card`` has shown: the card raised (or its places asked), the move sent (the
# hand greyed while it waits) or answered (a new version).
_TAKEN_JS = """([card, version]) => document.body.dataset.version !== version
  || !!document.querySelector(`#hand button.card.raised[data-card="${card}"], #actions .card-places`)
  || !document.querySelector(`#hand button.card.legal[data-card="${card}"]`)"""


def _tap_until_taken(page: Page, card: str, tap: bool, watchdog: Watchdog | None, version: str) -> None:
    """Click or tap ``card`` until the page shows it took the tap (at most three times).

    On a loaded machine a tap can land while the hand is drawn again under it, or its
    click come after the page is read; a person whose tap did nothing taps again.
    """
    for _ in range(3):
        click_card(page, card, tap, watchdog)
        try:
            page.wait_for_function(_TAKEN_JS, arg=[card, version], polling=25, timeout=3_000)
            return
        except PlaywrightError:
            continue


def take_turn(
    page: Page,
    rng: random.Random,
    tap: bool = False,
    watchdog: Watchdog | None = None,
    state: dict | None = None,
    any_button: bool = False,
) -> bool:
    """Make one move if it is this page's turn; return whether a move was made.

    ``state`` is what the page showed a moment ago (read here if not given). A
    move counts once the page shows the server's answer (a newer state). A move
    the page does not let us make, or never answers, fails the test with what
    the page shows. Of several move buttons the first is pressed, or with
    ``any_button`` one chosen at random (a game whose first button is always
    "Pass" would otherwise never end).
    """
    with _watched(watchdog, "a turn"):
        return _take_turn(page, rng, tap, watchdog, state or read_state(page, watchdog), any_button)


def _take_turn(
    page: Page,
    rng: random.Random,
    tap: bool,
    watchdog: Watchdog | None,
    state: dict,
    any_button: bool = False,
) -> bool:
    if not state["myTurn"] or state["status"] != "playing":
        return False
    version = state["version"]
    confirm = state["confirm"]
    try:
        if confirm and (state["legal"] or confirm["enabled"]):
            # Select legal cards one by one until the page lets us confirm.
            button = page.locator("#actions").get_by_role("button", name=confirm["label"], exact=True)
            names = [c for c in state["legal"] if c not in state["selected"]]
            rng.shuffle(names)
            for card in names:
                if button.is_enabled(timeout=CLICK_TIMEOUT):
                    break
                click_card(page, card, tap, watchdog)
            # The version our answer must beat: others may have moved while we chose.
            version = page.locator("body").get_attribute("data-version", timeout=CLICK_TIMEOUT)
            button.click(timeout=CLICK_TIMEOUT)
        elif state["legal"] and not confirm:
            card = rng.choice(state["legal"])
            _tap_until_taken(page, card, tap, watchdog, version)
            places = page.locator("#actions .card-places button:enabled")
            if places.count():
                # A card with several places to go: the page asks where; a person picks one.
                places.nth(rng.randrange(places.count())).click(timeout=CLICK_TIMEOUT)
            # With "confirm card plays" (on by default on a touch screen) the first tap
            # raises the card: a person taps it again to play it.
            elif page.locator(f'#hand button.card.raised[data-card="{card}"]').count():
                click_card(page, card, tap, watchdog)
        elif state["buttons"] and not confirm:
            label = rng.choice(state["buttons"]) if any_button else state["buttons"][0]
            page.locator("#actions").get_by_role("button", name=label, exact=True).first.click(
                timeout=CLICK_TIMEOUT
            )
        else:
            # Our turn, but nothing to choose or press: the page has sent our move
            # (it greys the hand and the buttons) and waits for the server's answer.
            return False
    except PlaywrightError:
        # A new state may have re-drawn the hand or the buttons under us: look again.
        if read_state(page, watchdog)["version"] != version:
            return False
        raise
    try:
        page.wait_for_function(
            "v => document.body.dataset.version !== v", arg=version, polling=25, timeout=ANSWER_TIMEOUT
        )
    except PlaywrightError:
        shown = read_state(page, watchdog)
        raise AssertionError(
            f"no answer to the move within {ANSWER_TIMEOUT / 1000:.0f}s; the page shows {shown}"
        ) from None
    return True


def play_to_end(
    pages: list[Page],
    seed: int = 1,
    limit: float = 300,
    on_move: Callable[[Page, int], None] | None = None,
    tap: bool = False,
    on_turn: Callable[[Page, dict], None] | None = None,
) -> int:
    """Play on every page until the game is over on all of them; return the moves made.

    ``on_move(page, moves)`` runs after each move the page made, ``on_turn(page,
    state)`` when it is the page's turn, before it moves (``state`` as STATE_JS).
    Fails (never hangs) when the game has not ended within ``limit`` seconds or a
    page stops answering; the message says what each page showed last.
    """
    rng = random.Random(seed)
    moves = 0
    deadline = time.monotonic() + limit
    watchdog = Watchdog()
    try:
        while True:
            # One read of each page per round, for its move and for the end of the game.
            acted = False
            states = []
            for page in pages:
                states.append(state := read_state(page, watchdog))
                if on_turn and state["myTurn"] and state["status"] == "playing":
                    with watchdog.call("the test's on_turn step"):
                        on_turn(page, state)
                if take_turn(page, rng, tap=tap, watchdog=watchdog, state=state):
                    moves += 1
                    acted = True
                    if on_move:
                        with watchdog.call("the test's on_move step"):
                            on_move(page, moves)
            if not acted and all(s["status"] == "finished" for s in states):
                return moves
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the game did not end within {limit}s ({moves} moves made); pages show {states}"
                )
            if not acted:
                time.sleep(0.03)
    except Stalled as stalled:
        raise AssertionError(f"{stalled} after {moves} moves") from None
    finally:
        watchdog.close()
