"""The searching primitive of duizhao's hand-written linear scanners (issue 19).

The scanners of :mod:`duizhao.links` and :mod:`duizhao.htmlscan` replace regular expressions
that backtracked super-linearly on author text. They look for what comes next only through
:func:`find` (a literal or a one-character-class pattern), directly or through a
:class:`Next`, so that a test can add up the characters they pass over and check that it stays
proportional to the input (tests/test_linear_scanners.py), without a clock.
"""

from __future__ import annotations

import re

__all__ = ["Next", "find", "match", "run_end"]


def find(text: str, what: str | re.Pattern[str], pos: int, end: int | None = None) -> int:
    """The index of the first occurrence of ``what`` (a literal, or a pattern that matches
    one character class) in ``text[pos:end]``, or -1."""
    stop = len(text) if end is None else end
    if isinstance(what, str):
        at = text.find(what, pos, stop)
    else:
        m = what.search(text, pos, stop)
        at = -1 if m is None else m.start()
    _count(text, pos, stop if at < 0 else at)
    return at


def run_end(text: str, run: re.Pattern[str], pos: int, end: int | None = None) -> int:
    """Where the run of ``run`` (a pattern ``[class]*``) starting at ``pos`` ends (at ``end``
    at the latest)."""
    m = run.match(text, pos, len(text) if end is None else end)
    assert m is not None  # a starred class always matches
    end = m.end()
    _count(text, pos, end)
    return end


def match(text: str, pattern: re.Pattern[str], pos: int) -> re.Match[str] | None:
    """``pattern.match(text, pos)``, for a pattern whose attempt never passes the end of its
    match by more than what its caller bounds (the caller says how)."""
    m = pattern.match(text, pos)
    _count(text, pos, m.end() if m is not None else pos)
    return m


def _count(text: str, pos: int, end: int) -> None:
    """A hook for the linearity tests (they replace it); does nothing."""


class Next:
    """The next occurrence of ``what`` at or after a position, for a scan that asks about
    positions that mostly move forward: the last answer holds for every position up to it, so
    such a scan passes over the text once however many times it asks."""

    __slots__ = ("_hit", "_lo", "text", "what")

    def __init__(self, text: str, what: str | re.Pattern[str]) -> None:
        self.text = text
        self.what = what
        self._lo = len(text) + 1  # no answer kept yet
        self._hit = -1

    def __call__(self, pos: int) -> int:
        if pos >= self._lo and (self._hit < 0 or pos <= self._hit):
            return self._hit
        self._lo, self._hit = pos, find(self.text, self.what, pos)
        return self._hit
