"""Every RECYCLE file of a folder, uploaded by staff and played at the table in Chromium.

Run ``python bench/recycle_table.py FOLDER [--only GLOB,...] [--sizes 1280x800,390x844]
[--seconds 300] [--json OUT] [--shots DIR]``. It starts a server of its own (as the browser
tests do: Daphne on a free port, a fresh SQLite file, bots without a pause, the
rate limits off), logs in as staff, uploads every ``.gdl`` and ``.rcy`` file of
FOLDER (titled by its file name) and waits for its playability check; then, at
each window size, a person's seat plays it to the end in headless Chromium
(``/usr/bin/chromium``), clicking cards and buttons the page marks legal, with
random bots in the other seats. It prints a table, one row per file and size:

- refused: the upload's error (line and column) or the check's reason;
- stalled: the game did not end within ``--seconds``, or the page stopped answering;
- overlaps: pairs of the table's parts (labels, piles, cards, buttons) whose
  bounding boxes meet, or a part out of the window, measured at rest
  (``tests/browser/test_recycle_table.py``'s check) at the start, every few moves
  and at the end; and words that spill out of their card, button or name plate;
- alike: two move buttons offered together that say the same move (a button in a row
  headed "Bot 2:" says "Bot 2 · Duke", as its ``data-label`` has it);
- internal: the file's own identifiers (``TRUMPCOLOR``, ``LASTDISCARD``) on the page;
- console: errors in the console and uncaught page errors;
- frame: the largest state frame the websocket brought (bytes).

The moves are made by ``tests/browser/driver.py`` (as the browser tests make
them); the server by ``tests/browser/conftest.py``'s ``LiveServer``. docs/recycle.md
("At the table, file by file") keeps its figures.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from tests.browser.conftest import CHROMIUM, LAUNCH_ARGS, PHONE, LiveServer  # noqa: E402
from tests.browser.driver import (  # noqa: E402
    Watchdog,
    choose_name,
    create_table,
    fill_with_bots,
    read_state,
    sit,
    start,
    take_turn,
)
from tests.browser.test_recycle_page import staff_page  # noqa: E402
from tests.browser.test_recycle_table import lasting_problems  # noqa: E402

CHECK_WAIT = 400.0  # s: an upload's playability check (the server's RECYCLE_CHECK_TIMEOUT, and room)
STALL = 90.0  # s: no new state at the table for this long is a stall
LOOK_EVERY = 5  # moves between two looks at the layout
IDENTIFIER = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")
# Words of the language itself, never the author's names.
KEYWORDS = {"RANK", "SUIT", "COLOR", "STOCK", "GDL", "AND", "NOT"}


# Words that do not fit their card, button or name plate: drawn past its box (over its neighbours)
# or cut off. The parts' own boxes are CLEAR_JS's (tests/browser/test_recycle_table.py).
SPILL_JS = """() => [...document.querySelectorAll(
    '#hand button.card, .rpile .card, #actions button, #seats .plate')]
  .filter((n) => n.offsetParent !== null
    && (n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1))
  .map((n) => 'words spill out of ' + (n.dataset.card ? 'card ' + n.dataset.card
    : n.classList.contains('plate') ? 'a name plate' : 'button ' + n.textContent.trim().slice(0, 30)))"""


@dataclass
class Report:
    """What one file showed at one window size."""

    file: str
    size: str
    outcome: str = ""  # finished, refused, stalled, broken
    why: str = ""
    moves: int = 0
    seconds: float = 0.0
    overlaps: list[str] = field(default_factory=list)
    alike: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    frame: int = 0


def identifiers(text: str) -> set[str]:
    """The upper-case names a description's author wrote (locations, variables, values), outside comments."""
    code = "\n".join(line.split(";", 1)[0] for line in text.splitlines())
    return {name for name in IDENTIFIER.findall(code) if name not in KEYWORDS}


def upload(staff: Page, url: str, path: Path, wait: float = CHECK_WAIT) -> tuple[str | None, str]:
    """Add ``path`` on the staff page, titled by its file name; return its game id once checked,
    or ``None`` and why it was refused."""
    staff.goto(url + "/staff/games/")
    staff.locator("#game-name").fill(path.stem[:80])
    staff.get_by_label("or a file").set_input_files(str(path))
    staff.get_by_role("button", name="Check and add").click()
    staff.wait_for_selector("#added, #add-error", timeout=120_000)
    if staff.locator("#add-error").count():
        return None, " ".join(staff.locator("#add-error").inner_text().split())
    added = staff.locator("#added")
    staff.wait_for_function(
        "() => ['done', 'failed'].includes(document.getElementById('added').dataset.checkStatus)",
        timeout=wait * 1000,
        polling=500,
    )
    game_id = added.locator("code").first.inner_text().strip()
    if added.get_attribute("data-check-status") != "done":
        return None, " ".join(added.locator(".check-text").inner_text().split())
    return game_id, ""


def watch_page(page: Page, report: Report) -> None:
    """Keep the page's console errors, uncaught errors and largest websocket frame in ``report``."""
    page.on("pageerror", lambda error: report.console.append(f"page error: {error}"))
    page.on("console", lambda message: message.type == "error" and report.console.append(message.text))

    def frame(payload: str | bytes) -> None:
        size = len(payload) if isinstance(payload, bytes) else len(payload.encode())
        report.frame = max(report.frame, size)

    page.on("websocket", lambda socket: socket.on("framereceived", frame))


# The words a person sees or hears, as written: the text of every shown element and every
# aria-label. Not innerText, which applies CSS's text-transform: a pile's label styled in
# capitals ("HAND") is the word "Hand", not the description's name HAND.
SHOWN_TEXT_JS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const parent = n.parentElement;
    if (!parent || parent.closest('script, style, template')) continue;
    if (parent.checkVisibility()) out.push(n.data);
  }
  for (const el of document.querySelectorAll('[aria-label]')) {
    if (el.checkVisibility()) out.push(el.getAttribute('aria-label'));
  }
  return out.join('\\n');
}"""


def look(page: Page, report: Report, names: set[str], watchdog: Watchdog, shots: Path | None = None) -> None:
    """Add what the page shows now to ``report``: overlaps, alike buttons, internal names. With
    ``shots``, a look that finds a new overlap saves the page's picture there."""
    with watchdog.call("a look at the layout"):
        new = [p for p in lasting_problems(page) + page.evaluate(SPILL_JS) if p not in report.overlaps]
        report.overlaps.extend(dict.fromkeys(new))
        if new and shots is not None:
            page.screenshot(path=str(shots / f"{Path(report.file).stem}-{report.size}-{report.moves}.png"))
        text = page.evaluate(SHOWN_TEXT_JS)
        labels = page.evaluate(
            "() => [...document.querySelectorAll('#actions button')]"
            ".filter((b) => b.offsetParent !== null).map((b) => b.dataset.label || b.textContent.trim())"
        )
    for label in {label for label in labels if labels.count(label) > 1}:
        if label not in report.alike:
            report.alike.append(label)
    for name in sorted(names & set(IDENTIFIER.findall(text))):
        if name not in report.internal:
            report.internal.append(name)


def play(
    browser: Browser,
    url: str,
    game_id: str,
    report: Report,
    names: set[str],
    seconds: float,
    shots: Path | None = None,
) -> None:
    """Open a table of ``game_id`` at ``report.size``, sit, fill with bots and play to the end (or
    ``seconds``); fill ``report`` (and save pictures of overlaps in ``shots``)."""
    width, height = (int(n) for n in report.size.split("x"))
    phone = width < 600
    options = {**(PHONE if phone else {}), "viewport": {"width": width, "height": height}}
    context = browser.new_context(reduced_motion="reduce", **options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch_page(page, report)
    watchdog = Watchdog()
    started = time.monotonic()
    try:
        page.goto(url + "/")
        choose_name(page, "Ann")
        create_table(page, game_id)
        sit(page)
        fill_with_bots(page, "random")
        start(page)
        look(page, report, names, watchdog, shots)
        rng = random.Random(1)
        version, changed = "", time.monotonic()
        while True:
            state = read_state(page, watchdog)
            if state["status"] == "finished":
                report.outcome = "finished"
                break
            if state["version"] != version:
                version, changed = state["version"], time.monotonic()
            now = time.monotonic()
            if now - started > seconds or now - changed > STALL:
                report.outcome = "stalled"
                report.why = (
                    f"{report.moves} moves in {now - started:.0f} s; the page shows {state['turnBanner']!r}"
                )
                break
            if take_turn(page, rng, tap=phone, watchdog=watchdog, state=state, any_button=True):
                report.moves += 1
                if report.moves % LOOK_EVERY == 0:
                    look(page, report, names, watchdog, shots)
            else:
                time.sleep(0.05)
        look(page, report, names, watchdog, shots)
    except (AssertionError, PlaywrightError) as error:
        report.outcome = "stalled" if "within" in str(error) else "broken"
        report.why = " ".join(str(error).split())[:300]
    finally:
        watchdog.close()
        report.seconds = round(time.monotonic() - started, 1)
        context.close()


def survey_file(
    browser: Browser,
    url: str,
    staff: Page,
    path: Path,
    sizes: list[str],
    seconds: float,
    shots: Path | None = None,
) -> list[Report]:
    """Upload ``path`` and play it at every size; one report per size (one, when it was refused)."""
    game_id, why = upload(staff, url, path)
    if game_id is None:
        return [Report(path.name, "-", outcome="refused", why=why)]
    names = identifiers(path.read_text(encoding="utf-8"))
    reports = []
    for size in sizes:
        report = Report(path.name, size)
        play(browser, url, game_id, report, names, seconds, shots)
        reports.append(report)
    return reports


def table(reports: list[Report]) -> str:
    """The reports as a Markdown table, then each file's problems in words."""
    lines = [
        "| file | size | outcome | moves | overlaps | alike buttons | internal names | console errors "
        "| largest frame (bytes) | s |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in reports:
        lines.append(
            f"| {r.file} | {r.size} | {r.outcome} | {r.moves} | {len(r.overlaps)} | {len(r.alike)} | "
            f"{len(r.internal)} | {len(r.console)} | {r.frame:,} | {r.seconds:g} |"
        )
    lines.append("")
    for r in reports:
        found = [("why", [r.why] if r.why else []), ("overlaps", r.overlaps), ("alike", r.alike),
                 ("internal", r.internal), ("console", r.console)]  # fmt: skip
        said = "; ".join(f"{what}: {', '.join(items[:4])}" for what, items in found if items)
        if said:
            lines.append(f"- {r.file} {r.size}: {said}")
    return "\n".join(lines)


def files_of(folder: Path, only: str) -> list[Path]:
    """The ``.gdl`` and ``.rcy`` files of ``folder`` whose names match one of ``only``'s comma-separated
    patterns, in name order."""
    patterns = [pattern.strip() for pattern in only.split(",") if pattern.strip()] or ["*"]
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix in (".gdl", ".rcy") and any(fnmatch.fnmatch(p.name, pattern) for pattern in patterns)
    )


def run(
    folder: Path,
    only: str,
    sizes: list[str],
    seconds: float,
    say: Callable[[str], None],
    keep: Callable[[list[Report]], None] = lambda reports: None,
    shots: Path | None = None,
) -> list[Report]:
    """Start a server and a browser, survey every file; return the reports. ``keep`` gets the
    reports so far after each file (a long survey stopped early keeps what it found)."""
    home = Path(tempfile.mkdtemp(prefix="recycle-table-"))
    # Its checks are what it waits for: not niced below the server it drives.
    checks = {"RECYCLE_CHECK_TIMEOUT": str(CHECK_WAIT - 60), "RECYCLE_CHECK_NICENESS": "0"}
    server = LiveServer(home / "db.sqlite3", extra_env=checks)
    reports: list[Report] = []
    try:
        server.migrate()
        server.start()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
            staff = staff_page(server, lambda: browser.new_context().new_page())
            for path in files_of(folder, only):
                found = survey_file(browser, server.url, staff, path, sizes, seconds, shots)
                for report in found:
                    said = f"{report.file} {report.size}: {report.outcome}, {report.moves} moves"
                    say(f"{said} {report.why[:120]}")
                reports.extend(found)
                keep(reports)
            browser.close()
    finally:
        server.kill()
        shutil.rmtree(home, ignore_errors=True)
    return reports


def main(argv: list[str] | None = None) -> int:
    """Survey a folder; print the table (and write the reports as JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the folder of files; with --tables, JSON reports to print")
    parser.add_argument("--only", default="*", help="file-name patterns, e.g. 'Golf*,Whist4.rcy'")
    parser.add_argument("--sizes", default="1280x800,390x844", help="window sizes, WIDTHxHEIGHT,...")
    parser.add_argument("--seconds", type=float, default=300.0, help="bound on one file's game at one size")
    parser.add_argument("--json", type=Path, help="write the reports here (after each file)")
    parser.add_argument("--shots", type=Path, help="save a picture of each new overlap in this folder")
    parser.add_argument("--tables", action="store_true", help="print the table of a --json file's reports")
    args = parser.parse_args(argv)
    if args.tables:
        saved = json.loads(args.folder.read_text(encoding="utf-8"))
        print(table([Report(**r) for r in saved]))
        return 0
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    if not all(re.fullmatch(r"\d+x\d+", s) for s in sizes):
        parser.error(f"--sizes must be WIDTHxHEIGHT,...: {args.sizes!r}")
    if not args.folder.is_dir():
        parser.error(f"no folder {args.folder}")

    def keep(reports: list[Report]) -> None:
        if args.json:
            args.json.write_text(json.dumps([asdict(r) for r in reports], indent=1), encoding="utf-8")

    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    reports = run(args.folder, args.only, sizes, args.seconds, say, keep, args.shots)
    print(table(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
