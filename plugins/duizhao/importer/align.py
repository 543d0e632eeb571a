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
   with one paragraph split in two and two merged into one found by concatenation. A weak
   candidate gives way to a clearly more similar one left over beyond the anchors, and
   within ``rival`` of one, or of a look-alike in the gap, neither is carried (:class:`_Rivals`).
5. What is left, anywhere: a long paragraph that is still near-exact (moved and edited).
   (5c) Items of a term list in place: between the same two carried neighbours, a unit of
   each side with the same label (a definition term, a bold lead) that no other unit of
   either version has, at a low word similarity (each bundle of an example tree described
   anew under its name).
6. In place: what is left between the same two carried neighbours of both versions (up to
   ten on each side), paired in the order of both on weaker evidence: a word similarity and
   the shorter's words kept in the longer, or the same rare *marks* (code spans, quoted
   options, names, figures), or a kept sentence; then one paragraph and two consecutive
   ones of the other side whose joined text has that evidence (split or merged in place).
7. Moved and rewritten, anywhere: what is left and shares a core of near-identical sentences,
   in order, when each is the other's best. Then (7b) the neighbours of a paragraph carried
   out of the order, on the evidence of step 6: they moved with it.
   (7c) In place on the order alone: in a run left over between the same carried
   neighbours, a long pair of one shape that beats every other pair of its row and column
   clearly; (7d) the same test over every long leftover, prose or lists only; (7e) two
   consecutive leftovers whose joined text is clearly the best of another (merged, split).
   (7f) Rewritten in a run: between the same carried neighbours, a pair clearly the best of
   its run that keeps two of the page's rare content words (a section reworded sentence by
   sentence, in order).
   (7g) 7c again, on the runs 7d to 7f cut shorter: in a run of at most six on each side
   a pair clearly the best of its row and column needs less similarity.
   (7h) Rewritten about the same things, anywhere: two long paragraphs of one shape and
   length sharing many of the page's rare content words, clearly more than any other pair.
8. Completed: a paragraph carried one to one and a neighbour left over that keeps a long
   sentence of the other side near word for word become a merge (or a split); so do a
   heading left over and the paragraph after it when the other side opens with the heading's
   very words (glued to it by an import), and a paragraph and the short lead-in of a block
   after it when the other side ends on the block's colon and keeps the lead-in's words.
9. No look-alikes: a weak carry (or a short unit's) whose two sides name things and share
   none of them (one template sentence about another extension) is undone.

Everything else is new (in the new version) or removed (from the old one). The thresholds are
named in :class:`Thresholds`; the scores are reported with each match so that a plan explains
itself. Steps 6 to 8 are in :mod:`.align_leftovers` (5c, 7f, 7h and 9 in :mod:`.align_runs`), the
settings and results in :mod:`.align_model` (both re-exported here).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .align_leftovers import (
    _beside_moved,
    _clearly_joined,
    _clearly_paired,
    _completed,
    _in_clear_order,
    _in_place,
    _kept_in_place,
    _leftover_similarities,
    _moved_rewritten,
    _sharing_rare_words,
)
from .align_model import FATES, THRESHOLDS, Alignment, Fate, Match, Thresholds
from .align_runs import (
    _labelled_in_run,
    _naming_the_same,
    _rewritten_in_run,
    _without_look_alikes,
)
from .similarity import _common, _kept_core, _near_core, _similarity, _Units, longest_increasing

__all__ = [
    "FATES",
    "THRESHOLDS",
    "Alignment",
    "Fate",
    "Match",
    "Thresholds",
    "_Units",
    "_kept_in_place",
    "_near_core",
    "align",
    "common_subsequence",
    "normalise",
    "runs_win_ties",
]


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


class _Rivals:
    """Candidates beyond the anchors (``Thresholds.rival``): each long paragraph left over
    after the exact matches, with the long ones left over on the other side that share one
    of its rarest words (:func:`_sharing_rare_words`), compared by words when a weak
    candidate of a gap needs it."""

    def __init__(
        self, olds: _Units, news: _Units, used_old: set[int], used_new: set[int], t: Thresholds
    ) -> None:
        rest_old = [i for i in range(len(olds.keys)) if i not in used_old and olds.keys[i]]
        rest_new = [j for j in range(len(news.keys)) if j not in used_new and news.keys[j]]
        self.olds, self.news, self.t = olds, news, t
        self.of_old: dict[int, list[int]] = {}
        self.of_new: dict[int, list[int]] = {}
        for i, j in _sharing_rare_words(olds, news, rest_old, rest_new, t):
            self.of_old.setdefault(i, []).append(j)
            self.of_new.setdefault(j, []).append(i)

    def best(
        self, k: int, *, old: bool, outside: set[int], used: set[int], floor: float
    ) -> tuple[float, int]:
        """The best word similarity (from ``floor``, else 0) of old ``k`` (new ``k`` when not
        ``old``) with a paragraph of the other side left over that is not in ``outside``, and
        that paragraph (-1 when none)."""
        mine, theirs = (self.olds, self.news) if old else (self.news, self.olds)
        found = (0.0, -1)
        for other in (self.of_old if old else self.of_new).get(k, ()):
            if other in outside or other in used:
                continue
            score = _similarity(mine.words[k], theirs.words[other], floor)
            found = max(found, (score, -other))
        return found[0], -found[1]

    def contest(
        self,
        candidates: list[_Candidate],
        gap: tuple[list[int], list[int]],
        used: tuple[set[int], set[int]],
        contested: list[Match],
        winners: list[_Candidate],
    ) -> list[_Candidate]:
        """``candidates`` of one gap (its old and new paragraphs: ``gap``) without the weak
        ones (one to one, under ``edited``) that a long paragraph left over beyond the gap's
        anchors rivals at ``rival`` below the weak one's score or more. A rival ``rival``
        more similar than the weak one wins (``winners``, carried when the gaps are done);
        one within ``rival`` of it, either way, leaves the paragraph carried to neither, for
        review (``contested``, as removed or new with the reason)."""
        t, kept = self.t, []
        inside_old, inside_new = set(gap[0]), set(gap[1])
        used_old, used_new = used
        for c in candidates:
            if len(c.old) != 1 or len(c.new) != 1 or not t.rewritten <= c.score < t.edited:
                kept.append(c)
                continue
            (i,), (j,) = c.old, c.new
            if min(self.olds.counts[i], self.news.counts[j]) < t.short_words:
                kept.append(c)
                continue
            floor = c.score - t.rival
            beyond_new = self.best(i, old=True, outside=inside_new, used=used_new, floor=floor)
            beyond_old = self.best(j, old=False, outside=inside_old, used=used_old, floor=floor)
            if not beyond_new[0] and not beyond_old[0]:
                kept.append(c)
                continue
            for k, (beyond, other), mine in (
                (i, beyond_new, used_old),
                (j, beyond_old, used_new),
            ):
                if not beyond or k in mine:
                    continue
                if beyond >= c.score + t.rival:
                    fate: Fate = "edited" if beyond >= t.edited else "rewritten"
                    pair = ((k,), (other,)) if mine is used_old else ((other,), (k,))
                    winners.append(_Candidate(beyond, fate, *pair, abs(k - other)))
                    continue
                why = f"two candidates of near-equal similarity ({c.score:.2f}, {beyond:.2f})"
                contested.append(
                    Match("removed", (k,), (), 0.0, why)
                    if mine is used_old
                    else Match("new", (), (k,), 0.0, why)
                )
        return kept

    @staticmethod
    def settle(contested: list[Match], used_old: set[int], used_new: set[int]) -> list[Match]:
        """The ``contested`` paragraphs the gap's other candidates (a split, a merge, another
        pairing) left over, kept from every later step: left for review."""
        out = []
        for m in contested:
            used, k = (used_old, m.old[0]) if m.old else (used_new, m.new[0])
            if k not in used:
                used.add(k)
                out.append(m)
        return out


def _assign(
    candidates: list[_Candidate],
    used_old: set[int],
    used_new: set[int],
    *,
    look_alike: float = 0.0,
    contested: list[Match] | None = None,
    keys: tuple[list[str], list[str]] = ([], []),
) -> list[Match]:
    """Best first, one to one: the highest score, then the nearest to the diagonal. With
    ``look_alike`` (``Thresholds.look_alike``), a one-to-one candidate that has a rival still
    free (one to one, sharing its old or its new paragraph) within ``look_alike`` of its
    score is taken by neither: the paragraphs of both are left for review (``contested``,
    as removed or new with the reason): two near-duplicate lines ("See X") are not paired
    crosswise by a similarity that cannot tell them apart. A rival with the very words of the
    candidate's other paragraph (``keys``: a passage said twice) is no look-alike: either
    place has the words the translation was made for."""

    def twin(c: _Candidate, r: _Candidate) -> bool:
        if r.old == c.old:
            return keys[1][r.new[0]] == keys[1][c.new[0]]
        return keys[0][r.old[0]] == keys[0][c.old[0]]

    by_old: dict[int, list[_Candidate]] = {}
    by_new: dict[int, list[_Candidate]] = {}
    for c in candidates:
        if look_alike and len(c.old) == len(c.new) == 1:
            by_old.setdefault(c.old[0], []).append(c)
            by_new.setdefault(c.new[0], []).append(c)
    out: list[Match] = []
    for c in sorted(candidates, key=lambda c: (-c.score, c.distance, c.old, c.new)):
        if not (used_old.isdisjoint(c.old) and used_new.isdisjoint(c.new)):
            continue
        single = len(c.old) == len(c.new) == 1
        rivals = [
            r
            for r in (*by_old.get(c.old[0], ()), *by_new.get(c.new[0], ()))
            if single
            and r is not c
            and r.old[0] not in used_old
            and r.new[0] not in used_new
            and r.score >= c.score - look_alike
            and not twin(c, r)
        ]
        if rivals and contested is not None:
            why = f"look-alikes of near-equal similarity ({c.score:.2f}, {rivals[0].score:.2f})"
            for r in (c, *rivals):
                if r.old[0] not in used_old:
                    used_old.add(r.old[0])
                    contested.append(Match("removed", r.old, (), 0.0, why))
                if r.new[0] not in used_new:
                    used_new.add(r.new[0])
                    contested.append(Match("new", (), r.new, 0.0, why))
            continue
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


# --------------------------------------------------------------------------------------------
# The whole alignment


def _in_gaps(
    olds: _Units,
    news: _Units,
    anchors: list[tuple[int, int]],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> tuple[list[Match], list[Match]]:
    """Step 4: between consecutive anchors, one to one by similarity, best first
    (:func:`_gap_candidates`, :func:`_assign`), a weak candidate giving way to a rival beyond
    the anchors (:class:`_Rivals`); the matches, and the paragraphs left for review (two
    candidates of near-equal similarity, look-alikes)."""
    matches: list[Match] = []
    rivals = _Rivals(olds, news, used_old, used_new, t)
    contested: list[Match] = []
    held: list[Match] = []
    winners: list[_Candidate] = []
    bounds = [(-1, -1), *anchors, (len(olds.keys), len(news.keys))]
    for (i0, j0), (i1, j1) in pairwise(bounds):
        gap_old = [i for i in range(i0 + 1, i1) if i not in used_old and olds.keys[i]]
        gap_new = [j for j in range(j0 + 1, j1) if j not in used_new and news.keys[j]]
        if gap_old and gap_new:
            candidates = _gap_candidates(olds, news, gap_old, gap_new, t)
            candidates = rivals.contest(
                candidates, (gap_old, gap_new), (used_old, used_new), contested, winners
            )
            matches += _assign(
                candidates,
                used_old,
                used_new,
                look_alike=t.look_alike,
                contested=held,
                keys=(olds.keys, news.keys),
            )
            held += _Rivals.settle(contested, used_old, used_new)
            contested.clear()
    matches += _assign(winners, used_old, used_new)
    return matches, held


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

    # 4. Between consecutive anchors, a weak candidate giving way to a rival beyond them
    gaps, held = _in_gaps(olds, news, anchors, used_old, used_new, thresholds)
    matches += gaps

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

    # 5c. In place: units with the same label (a definition term), one on each side
    matches += _labelled_in_run(olds, news, matches, used_old, used_new, thresholds)

    # 6. In place: what is left between the same two carried neighbours
    matches += _in_place(olds, news, matches, used_old, used_new, thresholds)

    # 7. Anywhere: moved and rewritten, a core of near-identical sentences kept
    matches += _moved_rewritten(olds, news, used_old, used_new, thresholds)

    # 7b. Beside a paragraph carried out of the order: its neighbours, on their own evidence
    # (after 7, whose cores are surer evidence for the same paragraphs)
    matches += _beside_moved(olds, news, matches, used_old, used_new, thresholds)

    # 7c. In place, on the order alone: a pair that clearly beats every other of its run
    matches += _in_clear_order(olds, news, matches, used_old, used_new, thresholds)

    # 7d, 7e. Anywhere, reworded, clearly the best: moved; merged or split
    table = _leftover_similarities(olds, news, used_old, used_new, thresholds)
    matches += _clearly_paired(olds, news, table, used_old, used_new, thresholds)
    matches += _clearly_joined(olds, news, table, used_old, used_new, thresholds)

    # 7f. In place, reworded one by one in a run: rare content words kept, clearly the best
    matches += _rewritten_in_run(olds, news, matches, used_old, used_new, thresholds)
    # 7g. 7c again: what 7d to 7f carried cuts the runs shorter, and a short run needs less
    matches += _in_clear_order(olds, news, matches, used_old, used_new, thresholds)

    # 7h. Anywhere, rewritten about the same things: many rare content words, clearly
    matches += _naming_the_same(olds, news, used_old, used_new, thresholds)

    # 8. A carry grown by a neighbour left over that keeps one of the other side's sentences
    matches = _completed(olds, news, matches, used_old, used_new, thresholds)

    # 9. No carry between look-alikes of one template that name different things
    matches = _without_look_alikes(matches, olds, news, used_old, used_new, thresholds)

    matches += held
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
