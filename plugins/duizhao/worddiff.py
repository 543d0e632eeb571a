"""A word diff of two originals: what ``duizhao status --diff`` prints and the reader's
原文已更新 mark shows. Pure: no MkDocs import.

Words and the punctuation around them are compared (how much whitespace lies between them is
no difference); each run of unchanged, deleted or inserted words is one :class:`Run`. Long
texts are bounded: past :data:`MAX_WORDS` tokens on a side the diff is the whole old text
against the whole new one.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

#: Words per side above which no word diff is computed (difflib is quadratic at worst).
MAX_WORDS = 5000


@dataclass(frozen=True)
class Run:
    #: ``=`` unchanged, ``-`` only in the old text, ``+`` only in the new one
    op: Literal["=", "-", "+"]
    #: the run's text, spaced as on its side (the old side's for an unchanged run)
    text: str
    #: whether a space follows the run on its side
    space: bool = False
    #: an unchanged run as the new side spaces it
    new_text: str | None = None
    new_space: bool = False


def peel(word: str) -> tuple[str, str, str]:
    """``word`` as the punctuation before it, its letters and digits, the punctuation after:
    ``"(SLOs)."`` is ``("(", "SLOs", ").")``."""
    start, end = 0, len(word)
    while start < end and not word[start].isalnum():
        start += 1
    while end > start and not word[end - 1].isalnum():
        end -= 1
    return word[:start], word[start:end], word[end:]


def tokens(text: str) -> list[tuple[str, bool]]:
    """Words and the punctuation around them, each with whether a space follows it:
    ``"(SLOs)."`` is ``(``, ``SLOs``, ``).``, so adding words after it changes one token."""
    out: list[tuple[str, bool]] = []
    for word in text.split():
        parts = [p for p in peel(word) if p]
        out.extend((part, False) for part in parts)
        out[-1] = (out[-1][0], True)
    if out:
        out[-1] = (out[-1][0], False)
    return out


def _joined(parts: list[tuple[str, bool]]) -> tuple[str, bool]:
    text = "".join(t + (" " if space else "") for t, space in parts)
    return text.rstrip(" "), bool(parts) and parts[-1][1]


def word_diff(old: str, new: str) -> list[Run]:
    a, b = tokens(old), tokens(new)
    if len(a) > MAX_WORDS or len(b) > MAX_WORDS:
        whole = [Run("-", *_joined(a)), Run("+", *_joined(b))]
        return [r for r in whole if r.text]
    matcher = difflib.SequenceMatcher(None, [t for t, _ in a], [t for t, _ in b], autojunk=False)
    runs: list[Run] = []
    for tag, i0, i1, j0, j1 in matcher.get_opcodes():
        if tag == "equal":
            runs.append(Run("=", *_joined(a[i0:i1]), *_joined(b[j0:j1])))
            continue
        if i1 > i0:
            runs.append(Run("-", *_joined(a[i0:i1])))
        if j1 > j0:
            runs.append(Run("+", *_joined(b[j0:j1])))
    return runs


def side(runs: Iterable[Run], which: Literal["-", "+"]) -> list[Run]:
    """The runs one side shows (unchanged ones and its own), spaced as on that side."""
    out = []
    for r in runs:
        if r.op == "=" and which == "+" and r.new_text is not None:
            out.append(Run("=", r.new_text, r.new_space))
        elif r.op in ("=", which):
            out.append(r)
    return out


def changed(runs: Iterable[Run]) -> bool:
    return any(r.op != "=" for r in runs)


def plain(runs: Iterable[Run], style: bool = False) -> str:
    """git's ``--word-diff=plain``: ``[-old words-]{+new words+}``; ``style``: also in red and
    green for a terminal."""
    out = []
    runs = list(runs)
    for n, r in enumerate(runs):
        space = r.space
        if r.op == "=":
            out.append(r.new_text if r.new_text is not None else r.text)
            space = r.space or r.new_space
        elif r.op == "-":
            out.append(f"\x1b[31m[-{r.text}-]\x1b[0m" if style else f"[-{r.text}-]")
        else:
            out.append(f"\x1b[32m{{+{r.text}+}}\x1b[0m" if style else f"{{+{r.text}+}}")
        replaced = r.op == "-" and n + 1 < len(runs) and runs[n + 1].op == "+"
        out.append(" " if space and not replaced else "")
    return "".join(out).rstrip(" ")
