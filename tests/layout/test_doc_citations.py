"""Code cites docs/performance.md by a section it has, and never the history log.

docs/performance.md says what is true now; docs/history/performance-log.md keeps how
it got there, dated, and may fall behind: a comment that cites it, or a section the
present page no longer has, sends a newcomer to the wrong place.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("cardtable", "games", "static", "templates", "bench", "tests")
SUFFIXES = (".py", ".js", ".html", ".toml")
# ``docs/performance.md, "The move path"``, possibly wrapped over comment lines.
CITATION = re.compile(r'docs/performance\.md`?,\s*"([^"]+)"')


def sources() -> list[Path]:
    """Every file of code, tests included (this one, which quotes examples, left out), and pyproject.toml."""
    here = Path(__file__).resolve()
    found = [p for folder in FOLDERS for p in (ROOT / folder).rglob("*") if p.suffix in SUFFIXES]
    return [*sorted(p for p in found if p.resolve() != here), ROOT / "pyproject.toml"]


def unwrapped(text: str) -> str:
    """The text with line breaks and the comment marks that begin lines taken out."""
    return re.sub(r"\n\s*(?:#|//|\*)?\s*", " ", text)


def cited_sections(text: str) -> list[str]:
    """The sections of docs/performance.md a text cites by name."""
    return CITATION.findall(unwrapped(text))


def test_the_citation_reader_reads_wrapped_comments() -> None:
    comment = '# the loop (docs/performance.md, "The move\n# path"), as measured'
    assert cited_sections(comment) == ["The move path"]
    assert cited_sections('"docs/performance.md"\n    "hiredis>=3,<4"') == []


def test_code_cites_sections_the_performance_page_has() -> None:
    headings = set(re.findall(r"^#+ (.+)$", (ROOT / "docs/performance.md").read_text(), re.M))
    cited = {(str(p.relative_to(ROOT)), s) for p in sources() for s in cited_sections(p.read_text())}
    assert cited, "no citation found: the reader is broken"
    assert {(path, section) for path, section in cited if section not in headings} == set()


def test_nothing_in_the_code_cites_the_history_log() -> None:
    assert [str(p.relative_to(ROOT)) for p in sources() if "performance-log" in p.read_text()] == []
