"""Which paragraph of an old version of an original became which paragraph of the new one. Pure.

``duizhao update`` carries each translation to the paragraph its original became, so the
alignment must never pair unrelated paragraphs (a translation carried there would be wrong and
look right). It is deterministic and runs in named steps, each a small function:

1. :func:`normalise` both sides as re-import noise demands (whitespace, ligatures and other
   compatibility forms, typographic quotes and dashes, soft hyphens, hyphens at line ends and
   inside words, Markdown escapes, the prefix of imported footnote labels): the *key* of a
   paragraph. Equal keys are the same paragraph, whatever the bytes.
2. :func:`common_subsequence`: the longest common subsequence of the keys anchors the order
   (Hunt–Szymanski: O(r log n) for r equal pairs, linear for distinct paragraphs).
3. Moves: equal keys out of that order, paired in order of appearance.
4. Gaps between consecutive anchors: one-to-one by similarity, best first (rapidfuzz's Indel
   similarity over words, or over characters for short units, which must be near-exact),
   with one paragraph split in two and two merged into one found by concatenation.
5. What is left, anywhere: a long paragraph that is still near-exact (moved and edited).
6. In place: what is left between the same two carried neighbours of both versions (up to
   ten on each side), paired in the order of both on weaker evidence: a word similarity and
   the shorter's words kept in the longer, or the same rare *marks* (code spans, quoted
   options, names, figures), or a kept sentence; then one paragraph and two consecutive
   ones of the other side whose joined text has that evidence (split or merged in place).
7. Moved and rewritten, anywhere: what is left and shares a core of near-identical sentences,
   in order, when each is the other's best. Then (7b) the neighbours of a paragraph carried
   out of the order, on the evidence of step 6: they moved with it.
8. Completed: a paragraph carried one to one and a neighbour left over that keeps a long
   sentence of the other side near word for word become a merge (or a split).

Everything else is new (in the new version) or removed (from the old one). The thresholds are
named in :class:`Thresholds`; the scores are reported with each match so that a plan explains
itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from heapq import nlargest
from itertools import groupby, pairwise
from operator import itemgetter
from typing import Literal

from .similarity import (
    _common,
    _kept_core,
    _near_core,
    _near_sentences,
    _similarity,
    _Units,
    longest_increasing,
)

Fate = Literal["same", "moved", "edited", "rewritten", "split", "merged", "new", "removed"]
#: The order fates are counted in a summary.
FATES: tuple[Fate, ...] = (
    "same",
    "edited",
    "rewritten",
    "moved",
    "split",
    "merged",
    "new",
    "removed",
)


@dataclass(frozen=True)
class Thresholds:
    """Every tolerance of the alignment, named. Similarities are rapidfuzz's normalised Indel
    similarity (1 − insertions and deletions / total length), between 0 and 1."""

    #: word similarity from which a long paragraph is the same one, edited (a typo, a number,
    #: a sentence added to a paragraph of five)
    edited: float = 0.85
    #: word similarity from which a long paragraph is the same one, rewritten; only between
    #: the same two anchors of the order (unrelated paragraphs of one paper share a third of
    #: their words: "the", "GPU", "KVCache" …)
    rewritten: float = 0.6
    #: a unit of fewer words is short (a heading, a caption, a one-line paragraph): matched
    #: on characters, near-exact only, never "rewritten", never across anchors (but for a
    #: line moved a few places that has one candidate only: ``short_moved_places``)
    short_words: int = 12
    #: character similarity a short unit needs, case aside (one or two characters in a
    #: 25-character line)
    short: float = 0.9
    #: word similarity of a paragraph with two consecutive ones joined, for a split or merge
    #: (with edits: a paragraph cut by a page in one import and whole in the other, a
    #: sentence changed; ``joined_gain`` keeps out a paragraph and its unrelated neighbour)
    joined: float = 0.75
    #: share of the other part's words that joining it must add to the match with the better
    #: part alone (so that a split or merge is taken only when both parts are really there);
    #: ``joined_gain_sure`` from a joined similarity of ``joined_sure``. One gain of 0.5 let
    #: an unrelated neighbour of the seeded edits in (about one seed in 3,000, ``make fuzz``):
    #: its function words, in order, add 0.515–0.56 of its words to a reworded paragraph's new
    #: sentences, at a joined similarity of 0.76–0.85; the real merges found add 0.58 (at a
    #: joined similarity of 0.92: Mooncake v1 → v3 20+21) to 1.0
    joined_gain: float = 0.6
    joined_sure: float = 0.9
    joined_gain_sure: float = 0.5
    #: a gap with more old × new pairs than this (a rewrite of hundreds of paragraphs) is
    #: compared along its diagonal only, ``band`` positions either side: the work stays
    #: linear in the article's length (a rewritten paragraph rarely moves that far)
    gap_pairs: int = 20_000
    band: int = 40
    #: outside the gaps a near-exact paragraph shares its rarest words: each old paragraph is
    #: compared with the new ones holding one of its ``rare_words`` rarest words (words in more
    #: than ``common_word`` paragraphs are not looked up)
    rare_words: int = 8
    common_word: int = 50
    #: kept-core evidence (between the same two anchors only): a long paragraph whose
    #: sentences are kept word for word in another, with some added or removed, is the same
    #: paragraph rewritten however low its whole similarity (a paragraph of three sentences
    #: that grew three more). A sentence counts from ``kept_sentence_words`` words (shorter
    #: ones, "See below.", recur anywhere); the kept sentences must hold ``kept_share`` of
    #: the shorter paragraph's words
    kept_sentence_words: int = 8
    kept_share: float = 0.5
    #: and there must be a core: this many kept sentences (one shared sentence is a quote or
    #: a footnote glued to another paragraph by the PDF reader, not the paragraph)
    kept_sentences: int = 2
    #: in place: between the same two carried neighbours of both versions, the paragraphs left
    #: over (at most ``positional_run`` on each side) are paired in the order of both (the
    #: pairs of largest summed score that keep it) when their word similarity reaches
    #: ``positional`` and the shorter keeps ``positional_kept`` of its words in the longer, in
    #: order (``positional_short_kept`` when one is short: a line that grew into a paragraph).
    #: Unrelated paragraphs of one page reach a word similarity of 0.37 (0.5 among the seeded
    #: edits' synthetic ones, which then keep 0.55 of their words). ``positional_run`` was 3
    #: with as many on each side (or one on a side): a paragraph reworded beside a section of
    #: new ones (Mooncake FAST '25 §2.2, a DeepSpeed overview; the seeded "expand" edit) was
    #: left out. At 10: 720 of 720 seeded rewrites with this evidence carried (647 at 3), no
    #: wrong carry in 40,542 carries of 1,500 seeded articles of deletions beside new paragraphs
    positional: float = 0.4
    positional_kept: float = 0.6
    positional_short_kept: float = 0.8
    positional_run: int = 10
    #: moved and rewritten (anywhere, after the steps above): a long paragraph and one of the
    #: other version, left over, that share ``kept_sentences`` sentences (of
    #: ``kept_sentence_words`` words) at a word similarity of ``moved_sentence`` each, one to
    #: one and in the same order, holding ``kept_share`` of the shorter's words, and each is
    #: the other's best by the words so held. Whole-paragraph similarity and containment are
    #: no evidence across the anchors: two tables of one shape reach 0.84 (ds-autotp) and a
    #: footnote glued to an unrelated paragraph is kept whole in it (Mooncake v1 → v3), but
    #: each is one "sentence" (a sentence ends at a ".", "!" or "?" word). Of the paragraphs
    #: the first six steps leave over in the 32 real pairs, no two unrelated ones have this
    #: evidence even at a sentence similarity of 0.7; five related ones of FAST '25 (its trace
    #: section moved to the appendix, paragraphs reworded in place) have it at 0.8 (six at
    #: 0.7). The seeded "relocate" edit: 644 of 1,000 have it, all carried (93 before)
    moved_sentence: float = 0.8
    #: each old paragraph's core is looked for in the ``moved_candidates`` new ones (among
    #: those sharing a rare word) that keep most of its words, in order: the work stays linear
    #: when every paragraph is rewritten (500 unrelated ones: 23,000 pairs share a rare word)
    moved_candidates: int = 3
    #: marks (:func:`~duizhao.importer.similarity.marks`: code spans, quoted option names,
    #: link texts, names, figures), in place only: a paragraph rewritten in depth to answer
    #: the same thing keeps what it names (DRF's throttling rates "may include `second`,
    #: `minute`, `hour` or `day`" became three sentences on the `/` separator and
    #: abbreviations: word similarity 0.34). Between the same two carried neighbours, a pair
    #: under ``positional`` is evidence when the marks both share, each in at most
    #: ``mark_units`` units of its version, are ``marks_shared`` or more
    #: (``marks_short_shared`` when one is short) and ``marks_share`` of the fewer's marks,
    #: and the shorter still keeps ``marks_kept`` of its words in order
    #: (``positional_short_kept`` when one is short), at a word similarity of
    #: ``marks_words`` (DRF's API Key package described anew: 0.38, 0.385 kept; Textual's
    #: `2fr`/`1fr` example: 0.567, 0.596 kept). The seeded edits' synthetic words have no marks (no
    #: capital inside a sentence, no backticks or quotes, small counts only), so none of
    #: their unrelated pairs has this evidence.
    mark_units: int = 3
    marks_shared: int = 2
    marks_short_shared: int = 3
    marks_share: float = 0.5
    marks_words: float = 0.3
    marks_kept: float = 0.35
    #: in place, split or merged (:func:`_joined_in_place`): each part of the two joined must
    #: add this share of its words to what the other part alone keeps of the one paragraph
    in_place_part: float = 0.5
    #: a sole pair in place (the one paragraph left on each side, right between two carried
    #: neighbours): its near-identical sentences need hold only this share of the shorter's
    #: words, which must still have a long sentence of its own besides (Textual's named
    #: screens: "The name of the screen may be used interchangeably …" kept, 18 of 48 words,
    #: the rest reworded)
    sole_kept_share: float = 0.3
    #: short units moved (:func:`_short_moved`): lines of this many words or more, at most
    #: this many positions apart, near-exact (``short``), each the other's only candidate
    short_moved_words: int = 6
    short_moved_places: int = 20
    #: a carried paragraph ending on a colon and the next opening in lower case (one sentence
    #: cut by a code block or list) are merged when the next, left over, has this share of
    #: its words kept in the carry's other side beyond what the first shares
    #: (:func:`_continued`; Hatch's two halves: 6 of 32 words, 0.19)
    continued_kept: float = 0.15


THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Match:
    """Old paragraphs (indexes, 0 to 2) that became new ones (0 to 2), with the evidence."""

    fate: Fate
    old: tuple[int, ...]
    new: tuple[int, ...]
    #: similarity of the originals (1.0 for equal keys)
    score: float = 1.0
    #: the evidence, when a plan must say it (a weaker kind than the fate and score tell)
    why: str = ""


@dataclass
class Alignment:
    matches: list[Match] = field(default_factory=list)

    def by_old(self) -> dict[int, Match]:
        return {i: m for m in self.matches for i in m.old}

    def by_new(self) -> dict[int, Match]:
        return {j: m for m in self.matches for j in m.new}

    def counts(self) -> dict[Fate, int]:
        found = {fate: 0 for fate in FATES}
        for m in self.matches:
            found[m.fate] += 1
        return found


# --------------------------------------------------------------------------------------------
# 1. Keys

#: Typographic forms that NFKC keeps and re-extraction varies: quotes, dashes, minus, bullets.
_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2212": "-",
        "\u00ad": None,  # soft hyphen
        "\u200b": None,  # zero-width space
        "\ufeff": None,
    }
)
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_FOOTNOTE_MARK = "[^orig"


def normalise(text: str) -> str:
    """The key of an original: what stays when re-import noise is taken away.

    No regular expression (issue 19's analyser scans every pattern): one pass over the
    characters after NFKC and the folding table.
    """
    text = unicodedata.normalize("NFKC", text).translate(_FOLD)
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in _ASCII_PUNCTUATION:
            out.append(text[i + 1])  # a Markdown escape: `\*` is `*`
            i += 2
            continue
        if c == "[" and text.startswith(_FOOTNOTE_MARK, i):
            # `[^orig2-3]` (a second import's footnote labels) is `[^orig-3]`
            j = i + len(_FOOTNOTE_MARK)
            while j < n and text[j].isdigit():
                j += 1
            if j < n and text[j] == "-":
                out.append("[^orig-")
                i = j + 1
                continue
        if c == "-" and out and out[-1].isalpha():
            # a hyphen inside a word or at a line end (`commu-\nnication`, `state-of-the-art`):
            # dropped, with the space after it when a lower-case letter follows
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if j < n and text[j].isalpha() and (j == i + 1 or text[j].islower()):
                i = j
                continue
        out.append(c)
        i += 1
    return " ".join("".join(out).split())


# --------------------------------------------------------------------------------------------
# 2. The order's anchors


def common_subsequence(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int]]:
    """The index pairs of a longest common subsequence of ``old`` and ``new`` (empty keys never
    match). Hunt–Szymanski: for each new key, the old positions holding it, longest increasing
    chain by patience sorting."""
    where: dict[str, list[int]] = {}
    for i, key in enumerate(old):
        if key:
            where.setdefault(key, []).append(i)
    # each new key's old positions in decreasing order, so that a chain takes one of them
    return longest_increasing(
        (i, (i, j)) for j, key in enumerate(new) for i in reversed(where.get(key, ()))
    )


def runs_win_ties(
    anchors: list[tuple[int, int]], old: Sequence[str], new: Sequence[str]
) -> list[tuple[int, int]]:
    """The anchors with one kind of tie of the common subsequence broken toward its
    neighbours: a *passage* said twice in one version (two or more consecutive paragraphs
    with the very same words at both places: mkdocs-deploying says "Be aware that you will
    not be able to review the built site …" and the paragraph after it again for User
    Pages) anchors, of its places that keep the order, at the one next to an anchor it
    follows or precedes in both versions, when the subsequence's choice is next to none.
    A run of consecutive anchors moves as one. One paragraph said twice alone is left as the
    subsequence takes it: a sentence said again to open a new section (ds-autotp's "The
    following results were collected …" before a table of one shape) belongs to either
    place. The subsequence keeps its length, and every tie it breaks is between paragraphs
    with the very same words."""
    out = list(anchors)
    k = 0
    while k < len(out):
        end = k + 1  # the run of consecutive anchors out[k:end]
        while end < len(out) and out[end] == (out[end - 1][0] + 1, out[end - 1][1] + 1):
            end += 1
        before = out[k - 1] if k else (-1, -1)
        after = out[end] if end < len(out) else (len(old), len(new))
        moved = _run_elsewhere(out[k:end], before, after, old, new) or _run_elsewhere(
            [(j, i) for i, j in out[k:end]], before[::-1], after[::-1], new, old, swap=True
        )
        if moved:
            out[k:end] = moved
        k = end
    return out


def _run_elsewhere(
    run: list[tuple[int, int]],
    before: tuple[int, int],
    after: tuple[int, int],
    old: Sequence[str],
    new: Sequence[str],
    *,
    swap: bool = False,
) -> list[tuple[int, int]] | None:
    """The run of anchors ``run`` at another place of ``new`` with the very same keys, next
    to ``before`` or ``after`` and between them, when it is a passage (two paragraphs or
    more, counting the one after or before it at both places) and is next to neither where
    it is (None otherwise). ``swap``: the pairs are (new, old), the result (old, new)."""
    (i, j), size = run[0], len(run)
    if (i - 1, j - 1) == before or (i + size, j + size) == after:
        return None
    keys = [new[j + t] for t in range(size)]

    def same(a: int, b: int) -> bool:
        return 0 <= a < len(new) and 0 <= b < len(new) and bool(new[a]) and new[a] == new[b]

    for b in (before[1] + 1, after[1] - size):
        if b == j or b <= before[1] or b + size > after[1]:
            continue
        if b == before[1] + 1 and i - 1 != before[0]:
            continue
        if b == after[1] - size and i + size != after[0]:
            continue
        if [new[b + t] for t in range(size)] != keys:
            continue
        if size < 2 and not (same(b - 1, j - 1) or same(b + 1, j + 1)):
            continue
        pairs = [(i + t, b + t) for t in range(size)]
        return [(y, x) for x, y in pairs] if swap else pairs
    return None


# --------------------------------------------------------------------------------------------
# 4. Similarity


@dataclass(frozen=True)
class _Candidate:
    score: float
    fate: Fate
    old: tuple[int, ...]
    new: tuple[int, ...]
    #: how far apart in their gaps (relative positions): breaks ties toward the diagonal
    distance: float


def _single(
    olds: _Units, news: _Units, i: int, j: int, t: Thresholds, *, gap: bool
) -> tuple[Fate, float] | None:
    if min(olds.counts[i], news.counts[j]) < t.short_words:
        if not gap:
            return None
        score = _similarity(olds.folded[i], news.folded[j], t.short)
        return ("edited", score) if score >= t.short else None
    score = _similarity(olds.words[i], news.words[j], t.rewritten if gap else t.edited)
    if score >= t.edited:
        return "edited", score
    if gap and score >= t.rewritten:
        return "rewritten", score
    if gap and _kept_core(olds, news, i, j, t):
        return "rewritten", _similarity(olds.words[i], news.words[j], 0.0)
    return None


def _joined(one: str, parts: tuple[str, str], t: Thresholds) -> float:
    """The similarity of ``one`` with ``parts`` joined, when it is high enough and each part
    adds to it (0 otherwise)."""
    joined = parts[0] + parts[1]
    score = _similarity(one, joined, t.joined)
    if score < t.joined:
        return 0.0
    both = _common(one, joined)
    gain = t.joined_gain_sure if score >= t.joined_sure else t.joined_gain
    for alone, other in ((parts[0], parts[1]), (parts[1], parts[0])):
        if both - _common(one, alone) < gain * len(other):
            return 0.0
    return score


def _gap_candidates(
    olds: _Units, news: _Units, gap_old: list[int], gap_new: list[int], t: Thresholds
) -> list[_Candidate]:
    found: list[_Candidate] = []
    span_old, span_new = max(1, len(gap_old)), max(1, len(gap_new))
    wide = span_old * span_new > t.gap_pairs

    def near(a: int, count: int) -> range:
        """The new positions old position ``a`` is compared with (all, or a band)."""
        if not wide:
            return range(count)
        centre = round(a * span_new / span_old)
        return range(max(0, centre - t.band), min(count, centre + t.band + 1))

    for a, i in enumerate(gap_old):
        for b in near(a, len(gap_new)):
            j = gap_new[b]
            result = _single(olds, news, i, j, t, gap=True)
            if result:
                distance = abs(a / span_old - b / span_new)
                found.append(_Candidate(result[1], result[0], (i,), (j,), distance))

    def long(units: _Units, k: int) -> bool:
        return units.counts[k] >= t.short_words

    # one old paragraph split into two consecutive new ones, and two merged into one
    for a, i in enumerate(gap_old):
        for b in near(a, len(gap_new) - 1):
            j, k = gap_new[b], gap_new[b + 1]
            if k != j + 1 or not long(olds, i):
                continue
            score = _joined(olds.words[i], (news.words[j], news.words[k]), t)
            if score:
                distance = abs(a / span_old - b / span_new)
                found.append(_Candidate(score, "split", (i,), (j, k), distance))
    for a in range(len(gap_old) - 1):
        i, k = gap_old[a], gap_old[a + 1]
        if k != i + 1:
            continue
        for b in near(a, len(gap_new)):
            j = gap_new[b]
            if not long(news, j):
                continue
            score = _joined(news.words[j], (olds.words[i], olds.words[k]), t)
            if score:
                distance = abs(a / span_old - b / span_new)
                found.append(_Candidate(score, "merged", (i, k), (j,), distance))
    return found


def _sharing_rare_words(
    olds: _Units, news: _Units, rest_old: list[int], rest_new: list[int], t: Thresholds
) -> list[tuple[int, int]]:
    """(old, new) pairs of long paragraphs that share one of the old one's rarest words."""
    holders: dict[str, list[int]] = {}
    for j in rest_new:
        if news.counts[j] >= t.short_words:
            for code in set(news.words[j]):
                holders.setdefault(code, []).append(j)
    pairs: list[tuple[int, int]] = []
    for i in rest_old:
        if olds.counts[i] < t.short_words:
            continue
        rare = sorted(
            (len(holders[code]), code)
            for code in set(olds.words[i])
            if 0 < len(holders.get(code, ())) <= t.common_word
        )[: t.rare_words]
        near = sorted({j for _n, code in rare for j in holders[code]})
        pairs.extend((i, j) for j in near)
    return pairs


def _assign(candidates: list[_Candidate], used_old: set[int], used_new: set[int]) -> list[Match]:
    """Best first, one to one: the highest score, then the nearest to the diagonal."""
    out: list[Match] = []
    for c in sorted(candidates, key=lambda c: (-c.score, c.distance, c.old, c.new)):
        if used_old.isdisjoint(c.old) and used_new.isdisjoint(c.new):
            used_old.update(c.old)
            used_new.update(c.new)
            out.append(Match(c.fate, c.old, c.new, round(c.score, 3)))
    return out


def _short_moved(
    olds: _Units, news: _Units, used_old: set[int], used_new: set[int], t: Thresholds
) -> list[Match]:
    """Short units left over and moved (``Thresholds.short_moved_places``): a line of
    ``short_moved_words`` words or more, near-exact by characters (``short``) to exactly one
    unit left over on the other side within ``short_moved_places`` positions, and that one
    to it alone (an edited list item or one-line note moved a few places: Ollama moved
    "Requires the Metal toolchain. Install Xcode first, then:" up into the macOS section and
    made it "MLX Metal requires …"). A line said twice ("Install prerequisites:") has two
    candidates and is left."""

    def candidates(
        mine: _Units, other: _Units, used_m: set[int], used_o: set[int]
    ) -> dict[int, list[int]]:
        found: dict[int, list[int]] = {}
        for i in range(len(mine.keys)):
            if i in used_m or not mine.keys[i] or not _short_line(mine, i, t):
                continue
            lo, hi = (
                max(0, i - t.short_moved_places),
                min(len(other.keys), i + t.short_moved_places + 1),
            )
            near = [
                j
                for j in range(lo, hi)
                if j not in used_o
                and other.keys[j]
                and _short_line(other, j, t)
                and _similarity(mine.folded[i], other.folded[j], t.short) >= t.short
            ]
            if near:
                found[i] = near
        return found

    forward = candidates(olds, news, used_old, used_new)
    backward = candidates(news, olds, used_new, used_old)
    out: list[Match] = []
    for i, near in sorted(forward.items()):
        if len(near) == 1 and backward.get(near[0]) == [i]:
            j = near[0]
            score = _similarity(olds.folded[i], news.folded[j], 0.0)
            out.append(Match("edited", (i,), (j,), round(score, 3), "a line moved, near-exact"))
            used_old.add(i)
            used_new.add(j)
    return out


def _short_line(units: _Units, k: int, t: Thresholds) -> bool:
    """A short unit with enough words to be told apart from a heading or a label."""
    return t.short_moved_words <= units.counts[k] < t.short_words


def _in_place(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Old and new paragraphs left over between the same two carried neighbours (an order of
    the carried matches increasing in both versions), up to ``positional_run`` on each side:
    paired in the order of both (:func:`_in_order`), each pair on its own evidence (a word
    similarity from ``positional``, the shorter's words kept in the longer)."""
    carried = sorted((m for m in matches if m.old and m.new), key=lambda m: m.old)
    chain = longest_increasing((min(m.new), m) for m in carried)
    ends = (len(olds.keys), len(news.keys))
    bounds = [((-1,), (-1,)), *((m.old, m.new) for m in chain), ((ends[0],), (ends[1],))]
    out: list[Match] = []
    for (o0, n0), (o1, n1) in pairwise(bounds):
        run_old = [i for i in range(max(o0) + 1, min(o1)) if i not in used_old and olds.keys[i]]
        run_new = [j for j in range(max(n0) + 1, min(n1)) if j not in used_new and news.keys[j]]
        if not run_old or not run_new or max(len(run_old), len(run_new)) > t.positional_run:
            continue
        # the one paragraph left on each side, right between the two carried neighbours
        sole = (
            len(run_old) == len(run_new) == 1
            and run_old[0] == max(o0) + 1 == min(o1) - 1
            and run_new[0] == max(n0) + 1 == min(n1) - 1
        )
        paired = _in_order(olds, news, run_old, run_new, t, sole=sole)
        for score, i, j in paired:
            fate: Fate = "edited" if score >= t.edited else "rewritten"
            out.append(Match(fate, (i,), (j,), round(score, 3), _why_in_place(olds, news, i, j, t)))
            used_old.add(i)
            used_new.add(j)
        out += _joined_in_place(olds, news, run_old, run_new, paired, used_old, used_new, t)
    return out


def _beside_moved(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Paragraphs that moved with a neighbour (``Thresholds.beside_moved``): a long paragraph
    carried one to one out of the order of the carried matches (a section moved, or a whole
    section inserted before it) is a neighbour in both versions of what was next to it; the
    paragraph left over right after it (or before it) in the old version and the one left
    over right after it (before it) in the new are paired on the evidence of a pair in place
    (:func:`_kept_in_place`), and so on along the run. Textual moved its key bindings
    section twenty places down: "A widget's bindings will only be checked if it or one of
    its descendants has focus" → "A widget is only be able to handle key presses if …"."""
    carried = sorted(
        (m for m in matches if len(m.old) == 1 and len(m.new) == 1), key=lambda m: m.old
    )
    chain = {id(m) for m in longest_increasing((m.new[0], m) for m in carried)}
    out: list[Match] = []
    for m in carried:
        if id(m) in chain:
            continue
        i0, j0 = m.old[0], m.new[0]
        if min(olds.counts[i0], news.counts[j0]) < t.short_words:
            continue  # a heading or a one-line note moved is no context
        for step in (1, -1):
            i, j = i0 + step, j0 + step
            while (
                0 <= i < len(olds.keys)
                and 0 <= j < len(news.keys)
                and i not in used_old
                and j not in used_new
                and olds.keys[i]
                and news.keys[j]
            ):
                score = _kept_in_place(olds, news, i, j, t)
                if not score:
                    break
                fate: Fate = "edited" if score >= t.edited else "rewritten"
                why = _why_in_place(olds, news, i, j, t) or "beside a moved neighbour"
                out.append(Match(fate, (i,), (j,), round(score, 3), why))
                used_old.add(i)
                used_new.add(j)
                i, j = i + step, j + step
    return out


def _joined_in_place(
    olds: _Units,
    news: _Units,
    run_old: list[int],
    run_new: list[int],
    paired: list[tuple[float, int, int]],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Splits and merges in place (``Thresholds.in_place_part``): between the same two
    carried neighbours, a paragraph left over and two consecutive ones of the other version
    left over, in the order of the pairs made there, whose joined text has the evidence of
    a pair in place (a word similarity from ``positional``, the shorter keeping
    ``positional_kept`` of its words) when each part adds ``in_place_part`` of its words to
    what the other keeps (Textual's "`discover` is similar to `search` but …" cut into a
    lead-in and a list, each reworded)."""
    out: list[Match] = []

    def in_order(i: int, j: int) -> bool:
        return all((x < i) == (y < j) for _s, x, y in paired)

    for mine, other, fate in ((olds, news, "split"), (news, olds, "merged")):
        singles = run_old if fate == "split" else run_new
        doubles = run_new if fate == "split" else run_old
        used_single = used_old if fate == "split" else used_new
        used_double = used_new if fate == "split" else used_old
        for i in singles:
            if i in used_single or mine.counts[i] < t.short_words:
                continue
            for j in doubles:
                k = j + 1
                if k not in doubles or j in used_double or k in used_double:
                    continue
                o, n = (i, j) if fate == "split" else (j, i)
                if not in_order(o, n):
                    continue
                score = _parts_in_place(mine.words[i], other.words[j], other.words[k], t)
                if score:
                    used_single.add(i)
                    used_double.update((j, k))
                    match = (
                        Match("split", (i,), (j, k), round(score, 3), "in place, split")
                        if fate == "split"
                        else Match("merged", (j, k), (i,), round(score, 3), "in place, merged")
                    )
                    out.append(match)
                    break
    return out


def _parts_in_place(one: str, first: str, second: str, t: Thresholds) -> float:
    """The word similarity of ``one`` with ``first`` and ``second`` joined when it is evidence
    of a split or merge in place (0 otherwise)."""
    joined = first + second
    score = _similarity(one, joined, t.positional)
    both = _common(one, joined)
    if not score or both < t.positional_kept * min(len(one), len(joined)):
        return 0.0
    for part, alone in ((first, second), (second, first)):
        if both - _common(one, alone) < t.in_place_part * len(part):
            return 0.0
    return score


def _moved_rewritten(
    olds: _Units, news: _Units, used_old: set[int], used_new: set[int], t: Thresholds
) -> list[Match]:
    """Long paragraphs left over anywhere that share a near-identical core
    (:func:`_near_core`) and are each the other's best by it (ties: the nearer in place)."""
    rest_old = [i for i in range(len(olds.keys)) if i not in used_old and olds.keys[i]]
    rest_new = [j for j in range(len(news.keys)) if j not in used_new and news.keys[j]]
    best_old: dict[int, tuple[int, float, int]] = {}
    best_new: dict[int, tuple[int, float, int]] = {}

    def likely() -> Iterable[tuple[int, int]]:
        """Per old paragraph, the new ones that keep most of its words (the pairs come
        grouped by old paragraph)."""
        pairs = _sharing_rare_words(olds, news, rest_old, rest_new, t)
        for i, group in groupby(pairs, key=itemgetter(0)):
            a = olds.words[i]
            kept = (
                (_common(a, news.words[j]) / min(len(a), len(news.words[j])), j) for _, j in group
            )
            for _kept, j in nlargest(t.moved_candidates, kept):
                yield i, j

    for i, j in likely():
        held = _near_core(olds, news, i, j, t)
        if not held:
            continue
        rank = (held, -abs(i - j))
        if i not in best_old or rank > best_old[i][:2]:
            best_old[i] = (*rank, j)
        if j not in best_new or rank > best_new[j][:2]:
            best_new[j] = (*rank, i)
    out: list[Match] = []
    for i, (_held, _near, j) in sorted(best_old.items()):
        if best_new[j][2] == i:
            score = _similarity(olds.words[i], news.words[j], 0.0)
            out.append(Match("rewritten", (i,), (j,), round(score, 3)))
            used_old.add(i)
            used_new.add(j)
    return out


def _completed(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """``matches`` with a paragraph carried one to one grown into a merge (or a split) by a
    neighbour left over, when that neighbour keeps a long sentence of the other side near
    word for word (:func:`_near_sentences`: ``kept_sentence_words`` words at
    ``moved_sentence``) that the carried paragraph does not keep itself, on the side of it
    where it stood (FAST '25 joined two paragraphs of v3 and reworded both: the carried one
    by its own evidence, the other by a sentence kept: "Although this process seems
    straightforward, the selection policy is complex due to many restrictions."). Merges
    first, then splits (with the part after the carried one only: a split keeps the
    translation in its first part, which must be the one carried on its own evidence); each
    neighbour joins one carry, in the order of the matches."""
    out: list[Match] = []
    for m in matches:
        grown = None
        if m.fate in ("edited", "rewritten") and len(m.old) == 1 and len(m.new) == 1:
            grown = _grown(olds, news, m.old[0], m.new[0], used_old, t, (-1, 1))
            why = ""
            if grown is None:
                grown = _continued(olds, news, m.old[0], m.new[0], used_old, t)
                why = _CONTINUED
            if grown is not None:
                k = grown
                used_old.add(k)
                parts = tuple(sorted((m.old[0], k)))
                joined = olds.words[parts[0]] + olds.words[parts[1]]
                score = _similarity(joined, news.words[m.new[0]], 0.0)
                m = Match("merged", parts, m.new, round(score, 3), why)
            else:
                # a split keeps the translation in its first part: only a part after it
                grown = _grown(news, olds, m.new[0], m.old[0], used_new, t, (1,))
                why = ""
                if grown is None:
                    grown = _continued(news, olds, m.new[0], m.old[0], used_new, t)
                    why = _CONTINUED
                if grown is not None:
                    k = grown
                    used_new.add(k)
                    parts = tuple(sorted((m.new[0], k)))
                    joined = news.words[parts[0]] + news.words[parts[1]]
                    score = _similarity(olds.words[m.old[0]], joined, 0.0)
                    m = Match("split", m.old, parts, round(score, 3), why)
        out.append(m)
    return out


#: what a plan says of a merge or split by :func:`_continued`
_CONTINUED = "one sentence across a block"


def _continued(
    mine: _Units, other: _Units, i: int, j: int, used: set[int], t: Thresholds
) -> int | None:
    """The paragraph after ``mine``'s ``i`` (carried to ``other``'s ``j``) when it continues
    ``i``'s last sentence (``Thresholds.continued_kept``): ``i`` ends without a full stop
    (on a colon: a code block or a list stood between) and the next opens in lower case, so
    the two are one sentence cut by a block; left over, it joins the carry when ``j`` keeps
    ``continued_kept`` of its words beyond what ``i`` alone shares with ``j`` (Hatch's
    release notes: "For example, running the following command:", a code block, "will run
    tests in all environments in the matrix, …" became one sentence before a recording).
    None otherwise."""
    k = i + 1
    if k >= len(mine.keys) or k in used or not mine.keys[k] or not mine.keys[i]:
        return None
    if mine.keys[i][-1] in ".!?" or not _opens_lower(mine.keys[k]):
        return None
    a, b, joined = mine.words[i], other.words[j], mine.words[i] + mine.words[k]
    if _common(joined, b) - _common(a, b) < t.continued_kept * len(mine.words[k]):
        return None
    return k


def _opens_lower(key: str) -> bool:
    """Whether the first letter of ``key`` is a lower-case one."""
    for ch in key:
        if ch.isalpha():
            return ch.islower()
    return False


def _grown(
    mine: _Units,
    other: _Units,
    i: int,
    j: int,
    used: set[int],
    t: Thresholds,
    sides: tuple[int, ...],
) -> int | None:
    """The neighbour of ``mine``'s paragraph ``i`` (carried to ``other``'s ``j``; ``sides``:
    the one before, -1, and the one after, 1), left over,
    that keeps a long sentence of ``j`` near word for word which ``i`` does not keep, in the
    order of the two (the one before ``i`` keeps sentences before those ``i`` keeps), the one
    holding the most words; None when there is none."""
    own = _near_sentences(mine, other, i, j, t)
    taken = {y for _x, y, _w in own}
    best: tuple[int, int] | None = None
    for k in (i + side for side in sides):
        if k < 0 or k >= len(mine.keys) or k in used or not mine.keys[k]:
            continue
        extra = [(y, w) for _x, y, w in _near_sentences(mine, other, k, j, t) if y not in taken]
        if not extra:
            continue
        if taken and any((y > min(taken)) if k < i else (y < max(taken)) for y, _w in extra):
            continue
        held = sum(w for _y, w in extra)
        if best is None or held > best[0]:
            best = (held, k)
    return best[1] if best else None


def _in_order(
    olds: _Units,
    news: _Units,
    run_old: list[int],
    run_new: list[int],
    t: Thresholds,
    *,
    sole: bool = False,
) -> list[tuple[float, int, int]]:
    """The pairs of ``run_old`` and ``run_new`` with evidence (:func:`_kept_in_place`) that
    keep the order of both and have the largest sum of scores (a table over the two runs;
    ties go to the earlier pairs)."""
    scores = [[_kept_in_place(olds, news, i, j, t, sole=sole) for j in run_new] for i in run_old]
    rows, cols = len(run_old), len(run_new)
    # best[a][b]: the best sum over run_old[a:] and run_new[b:]
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    for a in range(rows - 1, -1, -1):
        for b in range(cols - 1, -1, -1):
            take = scores[a][b] + best[a + 1][b + 1] if scores[a][b] else 0.0
            best[a][b] = max(take, best[a + 1][b], best[a][b + 1])
    out: list[tuple[float, int, int]] = []
    a = b = 0
    while a < rows and b < cols:
        score = scores[a][b]
        if score and best[a][b] == score + best[a + 1][b + 1]:
            out.append((score, run_old[a], run_new[b]))
            a, b = a + 1, b + 1
        elif best[a][b] == best[a + 1][b]:
            a += 1
        else:
            b += 1
    return out


def _kept_in_place(
    olds: _Units, news: _Units, i: int, j: int, t: Thresholds, *, sole: bool = False
) -> float:
    """The word similarity of old ``i`` and new ``j`` when it is evidence enough for two
    paragraphs in the same place (0 otherwise)."""
    a, b = olds.words[i], news.words[j]
    score = _similarity(a, b, t.positional)
    short = min(olds.counts[i], news.counts[j]) < t.short_words
    need = t.positional_short_kept if short else t.positional_kept
    if score and _common(a, b) >= need * min(len(a), len(b)):
        return score
    if _marked(olds, news, i, j, t, short):
        return max(_similarity(a, b, 0.0), _KEPT_SENTENCE_SCORE)
    if short:
        return 0.0
    # a sentence kept: the shorter keeps half its words in near-identical sentences of the
    # other and has a long sentence of its own besides (a unit kept whole in another is no
    # evidence: Mooncake v3 glued an unrelated paragraph's footnote to another's start)
    pairs = _near_sentences(olds, news, i, j, t)
    shorter = olds if olds.counts[i] <= news.counts[j] else news
    k = i if shorter is olds else j
    held = sum(w for _x, _y, w in pairs)
    if (
        pairs
        and held >= (t.sole_kept_share if sole else t.kept_share) * shorter.counts[k]
        and len(shorter.encoded_sentences(k, t.kept_sentence_words)) > len(pairs)
    ):
        return max(_similarity(a, b, 0.0), _KEPT_SENTENCE_SCORE)
    return 0.0


def _why_in_place(olds: _Units, news: _Units, i: int, j: int, t: Thresholds) -> str:
    """What a plan says of a pair in place carried on its marks ("" for the other kinds)."""
    a, b = olds.words[i], news.words[j]
    short = min(olds.counts[i], news.counts[j]) < t.short_words
    need = t.positional_short_kept if short else t.positional_kept
    if _similarity(a, b, t.positional) and _common(a, b) >= need * min(len(a), len(b)):
        return ""
    if not _marked(olds, news, i, j, t, short):
        return "in place, a sentence kept"
    shared = sorted(olds.rare_marks(i, t.mark_units) & news.rare_marks(j, t.mark_units))
    more = f" and {len(shared) - 3} more" if len(shared) > 3 else ""
    return "in place, the same marks: " + ", ".join(shared[:3]) + more


def _marked(olds: _Units, news: _Units, i: int, j: int, t: Thresholds, short: bool) -> bool:
    """Whether old ``i`` and new ``j`` name the same things (``Thresholds.mark_units`` …):
    their rare marks shared, and the shorter's words kept in order."""
    mine, theirs = olds.rare_marks(i, t.mark_units), news.rare_marks(j, t.mark_units)
    if not mine or not theirs:
        return False
    shared = len(mine & theirs)
    if shared < (t.marks_short_shared if short else t.marks_shared):
        return False
    if shared < t.marks_share * min(len(mine), len(theirs)):
        return False
    a, b = olds.words[i], news.words[j]
    need = t.positional_short_kept if short else t.marks_kept
    return bool(_similarity(a, b, t.marks_words)) and _common(a, b) >= need * min(len(a), len(b))


#: the score of an in-place pair on a kept sentence alone when its word similarity is 0 (a
#: score of 0 means "no evidence" in :func:`_in_order`'s table)
_KEPT_SENTENCE_SCORE = 0.01


# --------------------------------------------------------------------------------------------
# The whole alignment


def align(old: Sequence[str], new: Sequence[str], thresholds: Thresholds = THRESHOLDS) -> Alignment:
    """Align the originals ``old`` (the article's paragraphs) with ``new`` (the new version's).

    An empty original never matches. Every index of either side is in exactly one match
    (``new`` and ``removed`` ones have one side empty).
    """
    old_keys = [normalise(text) for text in old]
    new_keys = [normalise(text) for text in new]
    vocabulary: dict[str, str] = {}
    olds, news = _Units(old_keys, vocabulary), _Units(new_keys, vocabulary)
    matches: list[Match] = []

    anchors = runs_win_ties(common_subsequence(old_keys, new_keys), old_keys, new_keys)
    matches += [Match("same", (i,), (j,)) for i, j in anchors]
    used_old = {i for i, _ in anchors}
    used_new = {j for _, j in anchors}

    # 3. Moves: equal keys out of the anchors' order
    waiting: dict[str, list[int]] = {}
    for j, key in enumerate(new_keys):
        if key and j not in used_new:
            waiting.setdefault(key, []).append(j)
    for i, key in enumerate(old_keys):
        if i not in used_old and waiting.get(key):
            j = waiting[key].pop(0)
            matches.append(Match("moved", (i,), (j,)))
            used_old.add(i)
            used_new.add(j)

    # 4. Between consecutive anchors
    bounds = [(-1, -1), *anchors, (len(old), len(new))]
    for (i0, j0), (i1, j1) in pairwise(bounds):
        gap_old = [i for i in range(i0 + 1, i1) if i not in used_old and old_keys[i]]
        gap_new = [j for j in range(j0 + 1, j1) if j not in used_new and new_keys[j]]
        if gap_old and gap_new:
            candidates = _gap_candidates(olds, news, gap_old, gap_new, thresholds)
            matches += _assign(candidates, used_old, used_new)

    # 5. Anywhere: long paragraphs that are still near-exact (moved and edited)
    rest_old = [i for i in range(len(old)) if i not in used_old and old_keys[i]]
    rest_new = [j for j in range(len(new)) if j not in used_new and new_keys[j]]
    candidates = []
    for i, j in _sharing_rare_words(olds, news, rest_old, rest_new, thresholds):
        result = _single(olds, news, i, j, thresholds, gap=False)
        if result:
            candidates.append(_Candidate(result[1], "edited", (i,), (j,), abs(i - j)))
    matches += _assign(candidates, used_old, used_new)

    # 5b. Short units moved a few places, near-exact, each the other's only candidate
    matches += _short_moved(olds, news, used_old, used_new, thresholds)

    # 6. In place: what is left between the same two carried neighbours
    matches += _in_place(olds, news, matches, used_old, used_new, thresholds)

    # 7. Anywhere: moved and rewritten, a core of near-identical sentences kept
    matches += _moved_rewritten(olds, news, used_old, used_new, thresholds)

    # 7b. Beside a paragraph carried out of the order: its neighbours, on their own evidence
    # (after 7, whose cores are surer evidence for the same paragraphs)
    matches += _beside_moved(olds, news, matches, used_old, used_new, thresholds)

    # 8. A carry grown by a neighbour left over that keeps one of the other side's sentences
    matches = _completed(olds, news, matches, used_old, used_new, thresholds)

    matches += [Match("removed", (i,), (), 0.0) for i in range(len(old)) if i not in used_old]
    matches += [Match("new", (), (j,), 0.0) for j in range(len(new)) if j not in used_new]
    # A removed paragraph is listed where it was: after the new place of the old one before it.
    place = [-1.0] * (len(old) + 1)
    for m in matches:
        if m.new and m.old:
            for i in m.old:
                place[i + 1] = float(max(m.new))
    for i in range(len(old)):
        place[i + 1] = max(place[i + 1], place[i])
    matches.sort(key=lambda m: (m.new[0] if m.new else place[m.old[0]] + 0.5, m.old))
    return Alignment(matches)
