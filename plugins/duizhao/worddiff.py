"""A word diff of two originals: what ``duizhao status --diff`` prints and the reader's
原文已更新 mark shows. Pure: no MkDocs import.

Words are compared as written (whitespace between them is not a difference); each run of
unchanged, deleted or inserted words is one :class:`Run`. Long texts are bounded: past
:data:`MAX_WORDS` words on a side the diff is the whole old text against the whole new one.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .escape import html_text

#: Words per side above which no word diff is computed (difflib is quadratic at worst).
MAX_WORDS = 5000


@dataclass(frozen=True)
class Run:
    #: ``=`` unchanged, ``-`` only in the old text, ``+`` only in the new one
    op: Literal["=", "-", "+"]
    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)


def word_diff(old: str, new: str) -> list[Run]:
    a, b = old.split(), new.split()
    if len(a) > MAX_WORDS or len(b) > MAX_WORDS:
        return [r for r in (Run("-", tuple(a)), Run("+", tuple(b))) if r.words]
    runs: list[Run] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i0, i1, j0, j1 in matcher.get_opcodes():
        if tag == "equal":
            runs.append(Run("=", tuple(a[i0:i1])))
            continue
        if i1 > i0:
            runs.append(Run("-", tuple(a[i0:i1])))
        if j1 > j0:
            runs.append(Run("+", tuple(b[j0:j1])))
    return runs


def changed(runs: Iterable[Run]) -> bool:
    return any(r.op != "=" for r in runs)


def plain(runs: Iterable[Run], style: bool = False) -> str:
    """git's ``--word-diff=plain``: ``[-old words-]{+new words+}``; ``style``: also in red and
    green for a terminal."""
    out = []
    for r in runs:
        if r.op == "=":
            out.append(r.text)
        elif r.op == "-":
            out.append(f"\x1b[31m[-{r.text}-]\x1b[0m" if style else f"[-{r.text}-]")
        else:
            out.append(f"\x1b[32m{{+{r.text}+}}\x1b[0m" if style else f"{{+{r.text}+}}")
    return " ".join(out)


def html_sides(runs: Iterable[Run]) -> tuple[str, str]:
    """The old and the new text as HTML (escaped), deleted words in ``<del>`` on the old side
    and inserted ones in ``<ins>`` on the new side."""
    old: list[str] = []
    new: list[str] = []
    for r in runs:
        text = html_text(r.text)
        if r.op == "=":
            old.append(text)
            new.append(text)
        elif r.op == "-":
            old.append(f"<del>{text}</del>")
        else:
            new.append(f"<ins>{text}</ins>")
    return " ".join(old), " ".join(new)
