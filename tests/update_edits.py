"""Seeded edits of an original, for ``duizhao update``'s property tests and benchmark.

:func:`synthetic_paragraphs` writes paragraphs that look like a systems paper's (sentences of
technical and function words with numbers, as unrelated paragraphs of one paper share a third
of their words); :func:`edited_version` makes a new version with the edits a new version of a
paper or post has — typos, changed numbers, inserted sentences, moves, splits, merges,
deletions, new paragraphs, paragraphs reworded with a block of new ones beside them — and says, for every old paragraph, which new paragraphs hold it
(the truth a translation may be carried along).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

_FUNCTION = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "on",
    "with",
    "as",
    "by",
    "this",
    "we",
    "are",
    "be",
    "from",
    "at",
    "which",
    "it",
    "an",
    "or",
    "can",
    "its",
    "our",
    "each",
    "when",
    "than",
    "all",
    "not",
    "more",
    "but",
    "these",
    "into",
    "only",
    "two",
    "both",
    "such",
    "one",
]
_SYLLABLES = [
    "ka",
    "te",
    "ro",
    "mi",
    "na",
    "lu",
    "pe",
    "so",
    "di",
    "va",
    "ge",
    "tor",
    "ex",
    "an",
    "bu",
    "ci",
    "fo",
    "ha",
    "je",
    "li",
    "mo",
]
EDITS = ("typo", "number", "sentence", "move", "split", "merge", "delete", "new", "expand")
#: Edits not in :data:`EDITS` (whose random stream the long fuzz's seeds are compared on):
#: "relocate", a paragraph moved across unchanged ones and reworded (Mooncake FAST '25's trace
#: section, moved to the appendix and rewritten).
MORE_EDITS = ("relocate",)


def _vocabulary(rng: random.Random, size: int = 2500) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


@dataclass
class Writer:
    rng: random.Random
    vocabulary: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.vocabulary:
            self.vocabulary = _vocabulary(self.rng)

    def word(self) -> str:
        roll = self.rng.random()
        if roll < 0.45:
            return self.rng.choice(_FUNCTION)
        if roll < 0.5:
            return str(self.rng.choice([2, 4, 8, 16, 32, 64, 128, 3, 10, 75, 525]))
        # a Zipf-like pick: a few terms recur across the paper, most are rare
        index = min(int(self.rng.paretovariate(1.1)) - 1, len(self.vocabulary) - 1)
        return self.vocabulary[(index * 7919) % len(self.vocabulary)]

    def sentence(self) -> str:
        words = [self.word() for _ in range(self.rng.randint(8, 24))]
        return words[0].capitalize() + " " + " ".join(words[1:]) + "."

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(2, 7)))


def synthetic_paragraphs(rng: random.Random, n: int) -> list[str]:
    writer = Writer(rng)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        text = writer.paragraph()
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


@dataclass
class Version:
    """A new version: its paragraphs, and for each the old paragraphs it holds text of."""

    paragraphs: list[str]
    sources: list[frozenset[int]]
    log: list[str] = field(default_factory=list)

    def related(self) -> set[tuple[int, int]]:
        """(old, new) pairs a translation may be carried along."""
        return {(i, j) for j, olds in enumerate(self.sources) for i in olds}

    def untouched(self) -> dict[int, int]:
        """Old paragraphs that are in the new version unchanged (old → new index)."""
        return {
            next(iter(olds)): j
            for j, olds in enumerate(self.sources)
            if len(olds) == 1 and self.pristine[j]
        }

    pristine: list[bool] = field(default_factory=list)


def _sentences(text: str) -> list[str]:
    parts = [s.strip() for s in text.split(". ")]
    return [p if p.endswith(".") else p + "." for p in parts if p]


def _typo(rng: random.Random, text: str) -> str:
    """``text`` with one letter of one long word left out."""
    words = text.split(" ")
    long = [n for n, w in enumerate(words) if len(w) > 3]
    if long:
        w = rng.choice(long)
        c = rng.randrange(1, len(words[w]) - 1)
        words[w] = words[w][:c] + words[w][c + 1 :]
    return " ".join(words)


def reworded(rng: random.Random, writer: Writer, text: str, keep: float = 0.6) -> str:
    """``text`` with each sentence kept (share ``keep``) or replaced by a new one, and one new
    sentence put in: a paragraph reworded, not rewritten from scratch."""
    sentences = [s if rng.random() < keep else writer.sentence() for s in _sentences(text)]
    sentences.insert(rng.randint(0, len(sentences)), writer.sentence())
    return " ".join(sentences)


def edited_version(
    rng: random.Random, old: list[str], edits: int, kinds: tuple[str, ...] = EDITS
) -> tuple[list[str], Version]:
    """``old`` with ``edits`` seeded edits of ``kinds``; the new paragraphs and the truth."""
    writer = Writer(rng)
    paragraphs = list(old)
    sources = [frozenset({i}) for i in range(len(old))]
    pristine = [True] * len(old)
    log: list[str] = []
    for _ in range(edits):
        if not paragraphs:
            break
        kind = rng.choice(kinds)
        k = rng.randrange(len(paragraphs))
        text = paragraphs[k]
        if kind == "typo":
            words = text.split(" ")
            w = rng.randrange(len(words))
            if len(words[w]) > 3:
                c = rng.randrange(1, len(words[w]) - 1)
                words[w] = words[w][:c] + words[w][c + 1 :]
                paragraphs[k] = " ".join(words)
                pristine[k] = False
        elif kind == "number":
            words = text.split(" ")
            numbers = [n for n, w in enumerate(words) if w.isdigit()]
            n = rng.choice(numbers) if numbers else rng.randrange(len(words))
            words[n] = str(rng.randint(1, 999))
            paragraphs[k] = " ".join(words)
            pristine[k] = False
        elif kind == "sentence":
            sentences = _sentences(text)
            sentences.insert(rng.randint(0, len(sentences)), writer.sentence())
            paragraphs[k] = " ".join(sentences)
            pristine[k] = False
        elif kind == "move" and len(paragraphs) > 2:
            to = rng.randrange(len(paragraphs))
            for table in (paragraphs, sources, pristine):
                table.insert(to, table.pop(k))  # type: ignore[attr-defined]
        elif kind == "split":
            sentences = _sentences(text)
            if len(sentences) >= 4:
                cut = rng.randint(2, len(sentences) - 2)
                paragraphs[k : k + 1] = [" ".join(sentences[:cut]), " ".join(sentences[cut:])]
                sources[k : k + 1] = [sources[k], sources[k]]
                pristine[k : k + 1] = [False, False]
        elif kind == "merge" and k + 1 < len(paragraphs):
            paragraphs[k : k + 2] = [paragraphs[k] + " " + paragraphs[k + 1]]
            sources[k : k + 2] = [sources[k] | sources[k + 1]]
            pristine[k : k + 2] = [False]
        elif kind == "delete" and len(paragraphs) > 1:
            del paragraphs[k], sources[k], pristine[k]
        elif kind == "new":
            paragraphs.insert(k, writer.paragraph())
            sources.insert(k, frozenset())
            pristine.insert(k, False)
        elif kind == "expand":
            # a section grown (the Mooncake FAST '25 rewrite's §2.2, a DeepSpeed overview):
            # the paragraph reworded, its sentences kept or replaced and one added, and a
            # block of two to six new paragraphs put after it
            paragraphs[k] = reworded(rng, writer, text)
            block = [writer.paragraph() for _ in range(rng.randint(2, 6))]
            paragraphs[k + 1 : k + 1] = block
            sources[k + 1 : k + 1] = [frozenset()] * len(block)
            pristine[k : k + 1] = [False] * (len(block) + 1)
        elif kind == "relocate" and len(paragraphs) > 3:
            # moved at least two paragraphs away and reworded: its sentences kept or replaced
            # (a typo in one kept), one added
            to = rng.choice([m for m in range(len(paragraphs)) if abs(m - k) > 2] or [k])
            text = _typo(rng, reworded(rng, writer, text))
            for table in (paragraphs, sources, pristine):
                table.insert(to, table.pop(k))  # type: ignore[attr-defined]
            paragraphs[to], pristine[to] = text, False
            log.append(f"{kind} at {k} to {to}")
            continue
        else:
            continue
        log.append(f"{kind} at {k}")
    return paragraphs, Version(paragraphs, sources, log, pristine)
