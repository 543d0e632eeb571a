r"""A linear scanner for inline math as pymdownx.arithmatex finds it (issue 19).

:class:`duizhao.escape.Math` must leave alone exactly the math arithmatex renders. It used to
run arithmatex's own inline patterns, which backtrack super-linearly on author text: from each
``\(`` that is never closed, ``((?:\\[^)]|[^\\\x02\x03])+?)`` ran to the end of the line, so a
line of ``\(`` cost its length squared. :class:`InlineMath` finds what ``re.finditer`` finds
with those patterns (tests/test_linear_scanners.py compares it with arithmatex's own on
generated lines, for each of its settings)::

    (?<!\\)((?:\\{2})+)(?=\$)                                      # escaped backslashes
    (?<!\\)(\$)(?!\s)((?:\\.|[^\\$\x02\x03])+?)(?<!\s)(?:\$)       # $…$ (smart_dollar)
    (?<!\\)(\$)((?:\\.|[^\\$\x02\x03])+?)(?:\$)                    # $…$
    (?<!\\)((?:\\{2})+?)(?=\\\()                                   # escaped backslashes
    (?<!\\)(\\\()((?:\\[^)]|[^\\\x02\x03])+?)(?:\\\))              # \(…\)

Each piece of a math text starts with a character that says what it is, so where a text ends
does not depend on where it began: the end of each ``\(`` text is found once and kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from . import linear

__all__ = ["InlineMath"]

#: where a match can start: "$", or a backslash (before "$" or "(", or "\\(")
_DOLLAR_OR_BACKSLASH_RE = re.compile(r"[\\$]")
_BACKSLASH_RE = re.compile(r"\\")
_BACKSLASH_RUN_RE = re.compile(r"\\*")
#: characters of a $…$ text that are neither an escape nor its end
_DOLLAR_TEXT_RUN_RE = re.compile(r"[^\\$\x02\x03]*")
#: characters of a \(…\) text that are not an escape
_ROUND_TEXT_RUN_RE = re.compile(r"[^\\\x02\x03]*")


@dataclass(frozen=True)
class InlineMath:
    """arithmatex's inline syntax as a site sets it up: ``$…$`` (``dollar``; ``smart``: not
    after an opening or before a closing space) and ``\\(…\\)`` (``round``)."""

    dollar: bool
    smart: bool
    round: bool

    def spans(self, line: str, pos: int, end: int) -> Iterator[tuple[int, int]]:
        """What ``re.finditer(pattern, line, pos, end)`` matches, as spans: like a search in
        ``line[:end]`` from ``pos``, with the characters before ``pos`` still seen behind."""
        if not (self.dollar or self.round):
            return
        candidate = _DOLLAR_OR_BACKSLASH_RE if self.dollar else _BACKSLASH_RE
        round_ends: dict[int, int] = {}
        at = pos
        while at < end and (at := linear.find(line, candidate, at, end)) >= 0:
            found = None
            if not (at and line[at - 1] == "\\"):
                if line[at] == "$":
                    found = self._dollar(line, at, end)
                else:
                    found = self._backslashes(line, at, end, round_ends)
            if found is None:
                at += 1
                continue
            yield at, found
            at = found

    def _dollar(self, line: str, at: int, end: int) -> int | None:
        """The end of ``$…$`` opening at ``at``, or None."""
        n = end
        j = at + 1
        if j >= n or line[j] in "$\x02\x03" or (self.smart and line[j].isspace()):
            return None
        first = True  # the text has at least one piece
        while j < n:
            char = line[j]
            if char == "$":
                if first or (self.smart and line[j - 1].isspace()):
                    return None
                return j + 1
            if char == "\\":
                if j + 1 >= n or line[j + 1] == "\n":
                    return None
                j += 2
            elif char in "\x02\x03":
                return None
            else:
                j = linear.run_end(line, _DOLLAR_TEXT_RUN_RE, j, end)
            first = False
        return None

    def _backslashes(self, line: str, at: int, end: int, round_ends: dict[int, int]) -> int | None:
        """The end of what starts at the backslash at ``at``: a run of escaped backslashes
        before ``$`` or ``\\(``, or ``\\(…\\)``; None for nothing."""
        run = linear.run_end(line, _BACKSLASH_RUN_RE, at, end) - at
        after = line[at + run] if at + run < end else ""
        if self.dollar and run >= 2 and run % 2 == 0 and after == "$":
            return at + run
        if not self.round:
            return None
        if run >= 3 and run % 2 == 1 and after == "(":
            return at + run - 1
        if run == 1 and after == "(":
            return self._round_end(line, at + 2, end, round_ends)
        return None

    def _round_end(self, line: str, text: int, end: int, ends: dict[int, int]) -> int | None:
        """The end of ``\\(…\\)`` whose text starts at ``text``, or None."""
        piece = _round_piece(line, text, end)
        if piece < 0:
            return None
        closed = _round_close(line, text + piece, end, ends)
        return None if closed < 0 else closed


def _round_piece(line: str, at: int, end: int) -> int:
    """The length of the piece of a ``\\(…\\)`` text at ``at``, or -1."""
    if at >= end or line[at] in "\x02\x03":
        return -1
    if line[at] == "\\":
        return 2 if at + 1 < end and line[at + 1] != ")" else -1
    return 1


def _round_close(line: str, at: int, end: int, ends: dict[int, int]) -> int:
    """From a piece boundary ``at`` of a ``\\(…\\)`` text: the end of its ``\\)``, or -1. The
    answer is kept in ``ends`` for every boundary passed (another text reaching one of them
    ends where this one does)."""
    passed = []
    result = -1
    while at not in ends:
        passed.append(at)
        if line.startswith("\\)", at) and at + 2 <= end:
            result = at + 2
            break
        if at < end and line[at] not in "\\\x02\x03":
            at = linear.run_end(line, _ROUND_TEXT_RUN_RE, at, end)
            continue
        piece = _round_piece(line, at, end)
        if piece < 0:
            break
        at += piece
    else:
        result = ends[at]
    for boundary in passed:
        ends[boundary] = result
    return result
