"""The leftovers' passes of the alignment (:mod:`duizhao.importer.align`, steps 6 to 8): what
the exact matches and the gaps' similarity leave over, paired on weaker evidence in place
(between the same two carried neighbours), moved and rewritten (a core of near-identical
sentences), beside a paragraph moved, and a carry completed into a merge or split. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from heapq import nlargest
from itertools import groupby, pairwise
from operator import itemgetter

from .align_model import Fate, Match, Thresholds
from .similarity import (
    _common,
    _near_core,
    _near_sentences,
    _similarity,
    _Units,
    longest_increasing,
)


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


def _runs(
    olds: _Units, news: _Units, matches: list[Match], used_old: set[int], used_new: set[int]
) -> Iterable[tuple[list[int], list[int], bool]]:
    """The paragraphs left over between the same two carried neighbours (an order of the
    carried matches increasing in both versions), of each side, and whether they are the one
    paragraph left on each side right between the two (*sole*). Each run is read when the
    one before it has been paired (the caller marks what it pairs as used)."""
    carried = sorted((m for m in matches if m.old and m.new), key=lambda m: m.old)
    chain = longest_increasing((min(m.new), m) for m in carried)
    ends = (len(olds.keys), len(news.keys))
    bounds = [((-1,), (-1,)), *((m.old, m.new) for m in chain), ((ends[0],), (ends[1],))]
    for (o0, n0), (o1, n1) in pairwise(bounds):
        run_old = [i for i in range(max(o0) + 1, min(o1)) if i not in used_old and olds.keys[i]]
        run_new = [j for j in range(max(n0) + 1, min(n1)) if j not in used_new and news.keys[j]]
        if not run_old or not run_new:
            continue
        sole = (
            len(run_old) == len(run_new) == 1
            and run_old[0] == max(o0) + 1 == min(o1) - 1
            and run_new[0] == max(n0) + 1 == min(n1) - 1
        )
        yield run_old, run_new, sole


def _in_place(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Old and new paragraphs left over between the same two carried neighbours
    (:func:`_runs`), up to ``positional_run`` on each side: paired in the order of both
    (:func:`_in_order`), each pair on its own evidence (a word similarity from
    ``positional``, the shorter's words kept in the longer)."""
    out: list[Match] = []
    for run_old, run_new, sole in _runs(olds, news, matches, used_old, used_new):
        if max(len(run_old), len(run_new)) > t.positional_run:
            continue
        paired = _in_order(olds, news, run_old, run_new, t, sole=sole)
        for score, i, j in paired:
            fate: Fate = "edited" if score >= t.edited else "rewritten"
            out.append(Match(fate, (i,), (j,), round(score, 3), _why_in_place(olds, news, i, j, t)))
            used_old.add(i)
            used_new.add(j)
        out += _joined_in_place(olds, news, run_old, run_new, paired, used_old, used_new, t)
    return out


def _run_table(
    olds: _Units, news: _Units, run_old: list[int], run_new: list[int], floor: float
) -> tuple[dict[tuple[int, int], float], dict[int, list[float]], dict[int, list[float]]]:
    """Every pair's word similarity in a run (0 under ``floor``), and each row's and each
    column's scores, to tell a pair that beats the rest of both (:func:`_clearly_best`)."""
    table = {
        (i, j): _similarity(olds.words[i], news.words[j], floor) for i in run_old for j in run_new
    }
    rows: dict[int, list[float]] = {}
    cols: dict[int, list[float]] = {}
    for (i, j), s in table.items():
        rows.setdefault(i, []).append(s)
        cols.setdefault(j, []).append(s)
    return table, rows, cols


def _in_clear_order(
    olds: _Units,
    news: _Units,
    matches: list[Match],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Paragraphs reworded in place, on their order alone (``Thresholds.ordered``): in a run
    left over between the same two carried neighbours (:func:`_runs`) of two or more on each
    side and at most ``ordered_run``, a long old paragraph and a long new one of the same
    shape (:func:`_shape`) whose word similarity reaches ``ordered``, whose shorter keeps
    ``ordered_kept`` of its words in the longer, and which beats every other pair of its row
    and of its column in the run by ``ordered_margin``, are paired, in the order of both (the
    pairs of the longest increasing chain). Click's options page revised for style: "If an
    identifier for the callback argument is not declared, then Click will try to infer it …"
    (0.50, every other pair of its row or column at most 0.22). Look-alikes (two paragraphs
    of one template) beat no alternative clearly and are left. In a short run (at most
    ``short_run`` on each side) a pair needs less: ``short_run_words``, the shorter keeping
    ``short_run_kept``, from ``run_min_words`` words each and neither ``run_ratio`` times the
    other (Hugo's leaf-bundle definition reworded and grown by an analogy: 0.38, every other
    pair of its row and column at most 0.14)."""
    out: list[Match] = []
    for run_old, run_new, _sole in _runs(olds, news, matches, used_old, used_new):
        if min(len(run_old), len(run_new)) < 2 or max(len(run_old), len(run_new)) > t.ordered_run:
            continue
        # a pair under ``ordered`` - ``ordered_margin`` neither qualifies nor stands in the way
        floor = t.ordered - t.ordered_margin
        short_run = max(len(run_old), len(run_new)) <= t.short_run
        floor = min(floor, t.short_run_words - t.ordered_margin) if short_run else floor
        table, rows, cols = _run_table(olds, news, run_old, run_new, floor)
        chosen: list[tuple[int, int, float]] = []
        for (i, j), s in table.items():
            if not _clearly_best(s, rows[i], cols[j], t.ordered_margin):
                continue
            if _shape(olds.keys[i]) != _shape(news.keys[j]):
                continue
            a, b = olds.words[i], news.words[j]
            fewer, more = sorted((olds.counts[i], news.counts[j]))
            if s >= t.ordered and fewer >= t.short_words:
                kept = t.ordered_kept
            elif short_run and s >= t.short_run_words and fewer >= t.short_words:
                # a short run: fewer alternatives to beat, the pair of one length
                if more > t.run_ratio * fewer:
                    continue
                kept = t.short_run_kept
            else:
                continue
            if _common(a, b) < kept * min(len(a), len(b)):
                continue
            chosen.append((i, j, s))
        for i, j, s in longest_increasing((j, (i, j, s)) for i, j, s in sorted(chosen)):
            out.append(Match("rewritten", (i,), (j,), round(s, 3), "in place, in the same order"))
            used_old.add(i)
            used_new.add(j)
    return out


def _leftover_similarities(
    olds: _Units, news: _Units, used_old: set[int], used_new: set[int], t: Thresholds
) -> dict[tuple[int, int], float]:
    """The word similarity of each pair of long paragraphs left over that share a rare word
    (:func:`_sharing_rare_words`), from ``clear`` - ``ordered_margin`` (under it, no pair
    qualifies for steps 7d and 7e or stands in the way of one that does)."""
    rest_old = [i for i in range(len(olds.keys)) if i not in used_old and olds.keys[i]]
    rest_new = [j for j in range(len(news.keys)) if j not in used_new and news.keys[j]]
    floor = t.clear - t.ordered_margin
    return {
        (i, j): score
        for i, j in _sharing_rare_words(olds, news, rest_old, rest_new, t)
        if (score := _similarity(olds.words[i], news.words[j], floor))
    }


def _clearly_paired(
    olds: _Units,
    news: _Units,
    table: dict[tuple[int, int], float],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Moved and reworded, anywhere (``Thresholds.clear``): of the long paragraphs left over
    on both sides (those sharing a rare word: :func:`_sharing_rare_words`), a pair of one
    shape (prose or a list: two tables of one shape share their words whatever they say, and
    so do code blocks) at a word similarity of ``clear``, the shorter keeping
    ``ordered_kept`` of its words, that beats every other pair of its row and of its column
    by ``ordered_margin``. FAST '25 moved its trace section to the appendix and reworded it
    (0.55, the others of its row and column at most 0.30)."""
    rows: dict[int, list[float]] = {}
    cols: dict[int, list[float]] = {}
    for (i, j), s in table.items():
        rows.setdefault(i, []).append(s)
        cols.setdefault(j, []).append(s)
    out: list[Match] = []
    for (i, j), s in sorted(table.items()):
        if s < t.clear or not _clearly_best(s, rows[i], cols[j], t.ordered_margin):
            continue
        shape = _shape(olds.keys[i])
        if shape not in ("prose", "list") or shape != _shape(news.keys[j]):
            continue
        a, b = olds.words[i], news.words[j]
        if _common(a, b) < t.ordered_kept * min(len(a), len(b)):
            continue
        fate: Fate = "edited" if s >= t.edited else "rewritten"
        out.append(Match(fate, (i,), (j,), round(s, 3), "moved and reworded, clearly the best"))
        used_old.add(i)
        used_new.add(j)
    return out


def _clearly_joined(
    olds: _Units,
    news: _Units,
    table: dict[tuple[int, int], float],
    used_old: set[int],
    used_new: set[int],
    t: Thresholds,
) -> list[Match]:
    """Merged or split and reworded, anywhere (``Thresholds.clear``): two consecutive
    paragraphs left over on one side and a long one left over on the other, all prose, whose
    joined text reaches a word similarity of ``clear`` with it, the shorter keeping
    ``ordered_kept`` of its words, each part adding ``in_place_part`` of its words to what
    the other part alone keeps, and no other paragraph left over within ``ordered_margin`` of
    it (a paper's two paragraphs merged into one, reworded, moved into another section)."""
    # the pairs still left over (a part sharing too little with the one paragraph, under
    # the table's floor, is not half of it)
    single = {(i, j): s for (i, j), s in table.items() if i not in used_old and j not in used_new}
    of_old: dict[int, list[tuple[int, float]]] = {}  # old i: (new j, similarity)
    of_new: dict[int, list[tuple[int, float]]] = {}  # new j: (old i, similarity)
    for (i, j), s in single.items():
        of_old.setdefault(i, []).append((j, s))
        of_new.setdefault(j, []).append((i, s))
    found: list[tuple[float, str, tuple[int, int], int]] = []
    for i, j in sorted(single):
        for fate, parts, one in (
            ("merged", (i, i + 1), j),
            ("merged", (i - 1, i), j),
            ("split", (j, j + 1), i),
            ("split", (j - 1, j), i),
        ):
            pair_units, one_units = (olds, news) if fate == "merged" else (news, olds)
            used_pair = used_old if fate == "merged" else used_new
            if parts[0] < 0 or parts[1] >= len(pair_units.keys) or used_pair & set(parts):
                continue
            if not all(pair_units.keys[k] for k in parts) or one_units.counts[one] < t.short_words:
                continue
            if any(
                _shape(u.keys[k]) != "prose"
                for u, k in ((one_units, one), *((pair_units, k) for k in parts))
            ):
                continue
            first, second = (pair_units.words[k] for k in parts)
            score = _parts_clearly(one_units.words[one], first, second, t)
            if not score:
                continue
            rivals = (of_new if fate == "merged" else of_old).get(one, [])
            if all(score - s >= t.ordered_margin for k, s in rivals if k not in parts):
                found.append((score, fate, parts, one))
    out: list[Match] = []
    for score, fate, parts, one in sorted(found, key=lambda f: (-f[0], f[2], f[3])):
        if fate == "merged":
            if used_old & set(parts) or one in used_new:
                continue
            used_old.update(parts)
            used_new.add(one)
            out.append(Match("merged", parts, (one,), round(score, 3), "merged and reworded"))
        else:
            if used_new & set(parts) or one in used_old:
                continue
            used_new.update(parts)
            used_old.add(one)
            out.append(Match("split", (one,), parts, round(score, 3), "split and reworded"))
    return out


def _parts_clearly(one: str, first: str, second: str, t: Thresholds) -> float:
    """The word similarity of ``one`` with ``first`` and ``second`` joined when it reaches
    ``clear``, the shorter keeps ``ordered_kept`` and each part adds ``in_place_part`` of its
    words (0 otherwise)."""
    return _parts_score(one, first, second, t.clear, t.ordered_kept, t.in_place_part)


def _clearly_best(score: float, row: list[float], col: list[float], margin: float) -> bool:
    """Whether ``score`` (one cell of ``row`` and of ``col``) beats the others of both by
    ``margin``."""
    others = sorted(row, reverse=True)[1:2] + sorted(col, reverse=True)[1:2]
    return all(score - other >= margin for other in others)


def _shape(key: str) -> str:
    """What a unit is made of, by its first characters: a list, a table, a code block, a
    heading or prose (a list reworded is still a list)."""
    head = key[:4]
    if head[:2] in ("- ", "* ", "+ ") or (head[:1].isdigit() and ". " in key[:4]):
        return "list"
    if head[:1] == "|":
        return "table"
    if head[:3] in ("```", "~~~"):
        return "code"
    if head[:1] == "#":
        return "heading"
    return "prose"


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
    return _parts_score(one, first, second, t.positional, t.positional_kept, t.in_place_part)


def _parts_score(
    one: str, first: str, second: str, floor: float, kept: float, part_share: float
) -> float:
    """The word similarity of ``one`` with ``first`` and ``second`` joined when it reaches
    ``floor``, the shorter of the two keeps ``kept`` of its words in common and each part adds
    ``part_share`` of its own words to what they have in common (0 otherwise)."""
    joined = first + second
    score = _similarity(one, joined, floor)
    both = _common(one, joined)
    if not score or both < kept * min(len(one), len(joined)):
        return 0.0
    for part, alone in ((first, second), (second, first)):
        if both - _common(one, alone) < part_share * len(part):
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
            grown = _grown_or_continued(olds, news, m.old[0], m.new[0], used_old, t, (-1, 1))
            if grown is not None:
                k, why = grown
                used_old.add(k)
                parts = tuple(sorted((m.old[0], k)))
                joined = olds.words[parts[0]] + olds.words[parts[1]]
                score = _similarity(joined, news.words[m.new[0]], 0.0)
                m = Match("merged", parts, m.new, round(score, 3), why)
            else:
                # a split keeps the translation in its first part: only a part after it
                grown = _grown_or_continued(news, olds, m.new[0], m.old[0], used_new, t, (1,))
                if grown is not None:
                    k, why = grown
                    used_new.add(k)
                    parts = tuple(sorted((m.new[0], k)))
                    joined = news.words[parts[0]] + news.words[parts[1]]
                    score = _similarity(olds.words[m.old[0]], joined, 0.0)
                    m = Match("split", m.old, parts, round(score, 3), why)
        out.append(m)
    return out


def _grown_or_continued(
    mine: _Units,
    other: _Units,
    i: int,
    j: int,
    used: set[int],
    t: Thresholds,
    sides: tuple[int, ...],
) -> tuple[int, str] | None:
    """The neighbour of ``mine``'s ``i`` (carried to ``other``'s ``j``) that joins it, by a
    sentence kept (:func:`_grown`, on ``sides``) or else by one sentence going on across a
    block (:func:`_continued`), with what the plan says of it; None when neither."""
    grown = _grown(mine, other, i, j, used, t, sides)
    if grown is not None:
        return grown, ""
    grown = _continued(mine, other, i, j, used, t)
    if grown is not None:
        return grown, _CONTINUED
    # a heading glued on joins only the unit after it, and a split keeps the translation
    # in its first part: only a merge (the side before among ``sides``)
    grown = _glued_heading(mine, other, i, j, used, t) if -1 in sides else None
    if grown is not None:
        return grown, _GLUED
    grown = _lead_in(mine, other, i, j, used, t)
    return (grown, _LEAD_IN) if grown is not None else None


#: what a plan says of a merge or split by :func:`_continued`
_CONTINUED = "one sentence across a block"
#: … and of a merge by :func:`_glued_heading`
_GLUED = "a heading glued to its paragraph"


#: … and of a merge or split by :func:`_lead_in`
_LEAD_IN = "a block's lead-in joined"


def _lead_in(
    mine: _Units, other: _Units, i: int, j: int, used: set[int], t: Thresholds
) -> int | None:
    """The short unit after ``mine``'s ``i`` (carried to ``other``'s ``j``), left over, when it
    is the lead-in of a block that ``j`` now ends with (``Thresholds.lead_in_kept``): ``i``
    ends on a full stop, the next unit and ``j`` on a colon, and ``j`` keeps ``lead_in_kept``
    of the next unit's words beyond what ``i`` alone shares with it (MyST's "To start off,
    create an empty file …" and "To parse to HTML, try the CLI:" became one paragraph ending
    "… to parse this file to HTML:"). None otherwise."""
    k = i + 1
    if k >= len(mine.keys) or k in used or not mine.keys[k] or not mine.keys[i]:
        return None
    if mine.counts[k] >= t.short_words or mine.keys[i][-1] != ".":
        return None
    if mine.keys[k][-1] != ":" or not other.keys[j] or other.keys[j][-1] != ":":
        return None
    a, b, joined = mine.words[i], other.words[j], mine.words[i] + mine.words[k]
    if _common(joined, b) - _common(a, b) < t.lead_in_kept * len(mine.words[k]):
        return None
    return k


def _glued_heading(
    mine: _Units, other: _Units, i: int, j: int, used: set[int], t: Thresholds
) -> int | None:
    """The short unit before ``mine``'s ``i`` (carried to ``other``'s ``j``), left over, when
    ``j`` opens with its very words: a heading that the other import glued to the paragraph
    after it (SymPy's LaTeX: "\\subsection{The Core} \\label{sec:core} A computer algebra
    system …"). None otherwise."""
    k = i - 1
    if k < 0 or k in used or not mine.keys[k] or mine.counts[k] >= t.short_words:
        return None
    if not other.keys[j].casefold().startswith(mine.keys[k].casefold() + " "):
        return None
    return k


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
