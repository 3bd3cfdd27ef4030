"""Take a RECYCLE program out of a CardStock blog post.

The CardStock blog prints each game's coding in pieces, one ``{% highlight racket %}``
block per rule, with prose between; the blocks in order make the whole program.
"""

from __future__ import annotations

import re

_BLOCK = re.compile(r"\{%\s*highlight\s+racket\s*%\}(.*?)\{%\s*endhighlight\s*%\}", re.DOTALL)


_TITLE = re.compile(r'^title:\s*"?(?P<title>[^"\n]+?)(?::\s*Coding)?"?\s*$', re.MULTILINE)


def post_title(post: str) -> str | None:
    """Return the game a post codes, from its front matter (``title: "Hearts: Coding"`` -> ``Hearts``)."""
    found = _TITLE.search(post)
    return found.group("title").strip() if found else None


def extract_listing(post: str) -> str:
    """Return the RECYCLE code blocks of ``post`` joined in order; raise ``ValueError`` if it has none.

    Each block is kept on its own lines, so line numbers in an error count from
    the start of the joined listing.
    """
    blocks = _BLOCK.findall(post)
    if not blocks:
        raise ValueError("the post has no {% highlight racket %} code block")
    return "\n".join(block.strip("\n") for block in blocks) + "\n"
