"""Hyphens at line ends: the one :class:`Joiner` of the PDF and the plain-text importers.

``commu-`` + ``nication`` → ``communication`` when the original writes "communication" (or
knows neither form: then the join is reported); ``32-`` + ``bit``, ``state-of-the-`` +
``art``, ``GPU-`` + ``NPU`` and the compounds the original writes with a hyphen keep it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

_WORD_RE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
#: The ASCII letters a stem ends with (``rstrip``, not ``[A-Za-z]+$``, which a search tries at
#: every letter of a long run: quadratic).
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: PDFium marks a hyphen it found at a line end with U+0002 (and some producers use U+00AD).
SOFT_HYPHENS = ("\x02", "\xad")
#: Halves of a word shorter than this are syllables, not words of a compound.
_MIN_PART = 3
#: Prefixes that stand before a whole word in a compound far more often than they are the first
#: syllable of a word broken at a line end ("per-" "optimization", "self-" "supervised"); a
#: hyphen after one of them is kept when the paper never writes the joined form but writes the
#: second half as a word of its own. "re-", "inter-", "con-" … are syllables too often.
COMPOUND_PREFIXES = frozenset({"per", "non", "pre", "multi", "cross", "self", "co", "semi", "anti"})
#: The second half after such a prefix is at least this long: a short one is a syllable that
#: happens to be a word too ("per-" "form", "pre-" "sent").
_PREFIX_HEAD_MIN = 6


def vocabulary(texts: Iterable[str]) -> tuple[set[str], set[str]]:
    """Words (lowercase) written whole, and compounds written with a hyphen, in ``texts``."""
    whole: set[str] = set()
    compounds: set[str] = set()
    for text in texts:
        for w in _WORD_RE.findall(text):
            (compounds if "-" in w else whole).add(w.lower())
    return whole, compounds


def unbroken(texts: Iterable[str]) -> Iterator[str]:
    """Line texts without the halves of words broken at a line end ("commu-", "nication")."""
    broken = False
    for text in texts:
        if broken:
            text = text.split(" ", 1)[1] if " " in text else ""
        broken = text.endswith("-")
        yield text.rsplit(" ", 1)[0] if broken else text


#: A row of a page as the vocabulary sees it: its pieces (fragments), each (x0, x1, text).
Row = Sequence[tuple[float, float, str]]


def unbroken_rows(rows: Iterable[Row]) -> Iterator[str]:
    """The texts of a page's rows, piece by piece, without the halves of words broken at a
    piece's end. Captions of floats set side by side share their rows ("Figure 3: … Sum-"
    beside "Figure 4: …"): a piece ending in a hyphen loses its last word, wherever it
    stands on its row, and on the next row the first word goes from the row's first piece
    (a line broken at its end) and from every piece under the broken one (its caption's
    next line, "mary …"). A word dropped too many costs nothing; a half left in makes
    "Sum" and "mary" two words of the paper, and "Sum-mary" a compound."""
    spans: list[tuple[float, float]] = []
    row_broken = False
    for row in rows:
        pieces = sorted(row)
        out: list[tuple[float, float, str]] = []
        for i, (x0, x1, text) in enumerate(pieces):
            if (i == 0 and row_broken) or any(x0 < b1 and x1 > b0 for b0, b1 in spans):
                text = text.split(" ", 1)[1] if " " in text else ""
            out.append((x0, x1, text))
        spans = [(x0, x1) for x0, x1, text in out if text.endswith("-")]
        row_broken = bool(out) and out[-1][2].endswith("-")
        for _x0, _x1, text in out:
            if text.endswith("-"):
                text = text.rsplit(" ", 1)[0] if " " in text else ""
            yield text


@dataclass
class Joiner:
    whole: set[str]
    compounds: set[str]
    #: (page, line, "commu-nication") of the joins the paper's own words could not confirm
    uncertain: list[tuple[int, int, str]] = field(default_factory=list)
    #: (page, line, "goal-oriented") of the hyphens kept between two words of the paper
    kept: list[tuple[int, int, str]] = field(default_factory=list)
    #: page and line of the paragraph being joined
    where: tuple[int, int] = (0, 0)
    #: the words that stand after a hyphen in a compound ("network-oriented": "oriented")
    tails: set[str] = field(init=False)
    #: every word of a compound ("network", "oriented")
    parts: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self.tails = {t for c in self.compounds for t in c.split("-")[1:]}
        self.parts = self.tails | {c.split("-", 1)[0] for c in self.compounds}

    @classmethod
    def of(cls, lines: Iterable[str]) -> Joiner:
        """A joiner that knows the words of ``lines`` (halves of broken words left out)."""
        return cls(*vocabulary(unbroken(lines)))

    @classmethod
    def of_rows(cls, rows: Iterable[Row]) -> Joiner:
        """A joiner that knows the words of a page's ``rows`` of pieces (halves of broken
        words left out, also where a row holds two captions side by side: see
        :func:`unbroken_rows`)."""
        return cls(*vocabulary(unbroken_rows(rows)))

    def _word(self, w: str) -> bool:
        """``w`` is a word of the paper: written whole or in a compound, also with or
        without a plural s ("users": "end-user")."""
        forms = {w, w[:-1]} if w.endswith("s") and len(w) > _MIN_PART else {w}
        return any(f in self.whole or f in self.parts for f in forms)

    def _compound(self, compound: str) -> bool:
        """The paper prints ``compound`` with its hyphen (also in the singular or plural)."""
        return (
            compound in self.compounds
            or (compound.endswith("s") and compound[:-1] in self.compounds)
            or compound + "s" in self.compounds
        )

    def join(self, parts: Sequence[str]) -> str:
        """Join lines; ``commu-`` + ``nication`` → ``communication``, ``32-`` + ``bit`` kept."""
        out = ""
        for part in parts:
            part = part.strip()
            if not part:
                continue
            if not out:
                out = part
                continue
            if out.endswith("-") and len(out) > 1 and not out.endswith("--"):
                out = self._hyphen(out, part)
            elif out.endswith("/") and "://" in out.rsplit(" ", 1)[-1]:
                out += part  # a URL broken after a slash
            else:
                out += " " + part
        return out

    def _hyphen(self, out: str, part: str) -> str:
        before = out[:-1].rsplit(" ", 1)[-1]
        m = _WORD_RE.match(part)
        head = m.group(0) if m else ""
        stem = before[len(before.rstrip(_LETTERS)) :]
        joined = (stem + head).lower()
        compound = f"{stem}-{head}".lower()
        if (
            not stem
            or not before[-1:].isalpha()  # 32-bit, x86-64
            or not part[:1].isalpha()
            or "/" in before  # URLs
            or "-" in before  # state-of-the-art
        ):
            return out + part
        if joined in self.whole:  # the paper writes "communication", "RTCPeerConnection"
            return out[:-1] + part
        if self._compound(compound) or part[:1].isupper():  # well-known, GPU-NPU, end-users
            return out + part
        lower, low_head = stem.lower(), head.lower()
        if lower in COMPOUND_PREFIXES and len(head) >= _PREFIX_HEAD_MIN and self._word(low_head):
            self.kept.append((*self.where, f"{stem}-{head}"))
            return out + part  # per-optimization, where the paper never writes "peroptim…"
        # Two words of the paper ("goal" + "oriented", where it prints "network-oriented")
        # make a compound: a syllable ("cus-", "dom-", "trans-") is no word of it, and a
        # hyphen wrongly kept is visible to the translator, a compound wrongly joined is not.
        if (
            len(stem) >= _MIN_PART
            and len(head) >= _MIN_PART
            and (
                (self._word(lower) and self._word(low_head))
                or (low_head in self.tails and any(v in lower for v in "aeiouy"))
            )
        ):
            self.kept.append((*self.where, f"{stem}-{head}"))
            return out + part
        if head.lower() not in self.whole or len(head) < _MIN_PART:
            self.uncertain.append((*self.where, f"{stem}-{head}"))
        return out[:-1] + part
