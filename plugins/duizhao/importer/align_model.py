"""The alignment's settings and results (:mod:`duizhao.importer.align`): every tolerance,
named (:class:`Thresholds`), and what an alignment says (:class:`Match`, :class:`Alignment`).
Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

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
    #: a weak candidate of a gap (one to one, under ``edited``) and a paragraph left over
    #: beyond the gap's anchors (moved past a paragraph kept unchanged, and edited): from
    #: ``rival`` below the weak one's score the rival makes it give way, and within
    #: ``rival`` of it, either way, the paragraph is carried to neither (left for review)
    rival: float = 0.1
    #: look-alikes in a gap (:func:`~duizhao.importer.align._assign`): a one-to-one
    #: candidate with a rival still free that shares one of its paragraphs, within this of
    #: its score, is carried by neither (two "See X" lines of one template)
    look_alike: float = 0.02
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
    #: in the same order (:func:`~duizhao.importer.align_leftovers._in_clear_order`): in a
    #: run of 2 to ``ordered_run`` paragraphs left over on each side between the same two
    #: carried neighbours, a pair of long paragraphs of one shape at a word similarity of
    #: ``ordered``, the shorter keeping ``ordered_kept`` of its words, that beats every other
    #: pair of its row and column by ``ordered_margin``. Click's options page revised for
    #: style (the docs' "underlying function" made "decorated function", every sentence
    #: reworded): 0.50 and 0.51 beside alternatives of at most 0.26
    ordered: float = 0.45
    ordered_kept: float = 0.45
    ordered_margin: float = 0.2
    ordered_run: int = 80
    #: … and in a run of at most ``short_run`` on each side, a pair of ``run_min_words``
    #: words or more each (neither ``run_ratio`` times the other) from ``short_run_words``,
    #: the shorter keeping ``short_run_kept``: with few alternatives, beating them all by the
    #: margin says more. Of the pairs that clear the margin in such runs of the real pairs,
    #: the related ones reach 0.38-0.53 (Hugo's definitions reworded, Ollama's build notes,
    #: Jekyll's options), the unrelated ones are a footnote kept whole in a paragraph 4.6
    #: times its length (Mooncake v1, 0.35) or look-alikes of one template that step 9 undoes
    short_run: int = 6
    short_run_words: float = 0.35
    short_run_kept: float = 0.4
    #: moved and reworded, anywhere
    #: (:func:`~duizhao.importer.align_leftovers._clearly_paired`): long paragraphs left over
    #: of one shape (prose or lists) at a word similarity of ``clear`` that beat every other
    #: pair of their row and column by ``ordered_margin``. Of the real pairs' leftovers no
    #: two unrelated long ones of prose reach 0.4; related ones reach 0.41-0.55
    clear: float = 0.5
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
    #: rewritten in a run (:func:`~duizhao.importer.align_runs._rewritten_in_run`), after
    #: every step above: a section reworded sentence by sentence in the same order leaves its
    #: paragraphs alone between carried neighbours (Jekyll's step-by-step tutorial reviewed:
    #: "Objects tell Liquid where to output content" -> "… to output predefined variables as
    #: content on a page", 0.36-0.46). A pair of one shape, each of ``run_min_words`` words
    #: or more and neither more than ``run_ratio`` times the other, at a word similarity of
    #: ``run_words``, the shorter keeping ``run_kept`` of its words in order, that beats every
    #: other pair of its row and column in the run by ``run_margin`` and shares
    #: ``run_rare`` rare content words (each in at most ``run_rare_units`` units of its side:
    #: what the paragraph is about, "curly", "braces", "sidebar"); or, the one pair of the
    #: run with a short unit, ``positional``. Of the dev pairs' leftovers in runs, the
    #: unrelated ones of this shape share no rare word (Ollama's build steps, 0.33) or are a
    #: footnote kept whole in a paragraph four times its length (Mooncake v1, 0.35)
    run_words: float = 0.3
    run_kept: float = 0.35
    run_min_words: int = 6
    run_ratio: float = 3.0
    run_margin: float = 0.1
    run_rare: int = 2
    run_rare_units: int = 2
    #: … on pages of ``run_page_units`` units or more on each side (on a page of two, every
    #: word is in at most two units: the seeded edits' synthetic pages share "both" so)
    run_page_units: int = 8
    #: … and the sole pair of a run (one long paragraph left on each side, right between two
    #: carried neighbours: a paragraph written anew in its place) on less: a word similarity
    #: of ``sole_words``, the shorter keeping ``sole_kept`` of its words in order, and
    #: ``sole_rare`` rare content word shared (Click's "Click expects you to pass at least two
    #: positional arguments to the option decorator" -> "The `option()` decorator accepts
    #: parameter declarations as positional arguments …", 0.25). Of the sole pairs the real
    #: pairs leave, the related ones reach 0.21-0.49 with 0.26-0.50 kept and a rare word; the
    #: unrelated ones share no rare word (0.19-0.23) or reach 0.15 (nanoGPT's DDP sentences)
    sole_words: float = 0.2
    sole_kept: float = 0.25
    sole_rare: int = 1
    #: rewritten about the same things, anywhere
    #: (:func:`~duizhao.importer.align_runs._naming_the_same`): two long paragraphs left over
    #: of one shape and length that share ``rare_shared`` rare content words, at least
    #: ``rare_shared_over`` times as many as any other pair of their row or column, at a word
    #: similarity of ``rare_shared_words`` (NumPy's paper rewritten for Nature: the paragraph
    #: on array libraries keeps "Dask", "CuPy", "xarray" … , 11 of them, at 0.42)
    rare_shared: int = 8
    rare_shared_over: float = 3.0
    rare_shared_words: float = 0.25
    #: the same label in place (:func:`~duizhao.importer.align_runs._labelled_in_run`): a
    #: definition-list item or bold-led paragraph whose term is on no other unit of either
    #: version, between the same carried neighbours, at this word similarity. Of the real
    #: pairs' units with one such label on each side (28 definition terms, 17 bold leads),
    #: every one is the same item; Hugo's rewritten bundle items reach 0.32-0.50
    label_words: float = 0.3
    #: look-alikes of one template (:func:`~duizhao.importer.align_runs._names_changed`): a
    #: carry under ``edited`` whose two sides both name things (marks: code spans, quoted
    #: phrases, names, figures) and share none of them, nor a part of one (a path's
    #: components: `_layouts/default.html` and `default.html`), is the same sentence about
    #: something else ("First, install `X`:" -> "First, install `Y`:"): its translation
    #: would name the wrong thing, so it is removed and new, never carried. A short unit's
    #: carry is so judged at any score (the name is much of it: 0.857 for that line); marks
    #: without a letter (a version number changed) do not count
    #: a carried paragraph ending on a colon and the next opening in lower case (one sentence
    #: cut by a code block or list) are merged when the next, left over, has this share of
    #: its words kept in the carry's other side beyond what the first shares
    #: (:func:`_continued`; Hatch's two halves: 6 of 32 words, 0.19)
    continued_kept: float = 0.15
    #: a carried paragraph ending on a full stop and the short unit after it, left over,
    #: ending on a colon (a code block's lead-in), are merged when the carry's other side
    #: ends on a colon too and keeps this share of the lead-in's words beyond what the first
    #: shares (:func:`_lead_in`; MyST's "To parse to HTML, try the CLI:": 4 of its 9 words,
    #: "parse", "to", "HTML", ":"; the ends are the evidence, this the guard, stricter than
    #: ``continued_kept``)
    lead_in_kept: float = 0.4


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
