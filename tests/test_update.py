"""`duizhao update`: alignment, the plan, the write, refusals, the lock, the site (issue 22)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from duizhao.article import parse
from duizhao.importer.align import align, normalise
from duizhao.importer.similarity import words
from test_cli import project, run

ARTICLE = """\
---
title: T  # the article
paper:
  title: P
  license: CC-BY-4.0
  version: v1
paragraphs: P001-P008
status: draft
---

# T

## 导言

先读 [](#P003)。

## 1 Intro

/// paragraph | P001
> The scheduler keeps every prefill instance busy while the decoding instances stream tokens back to the users who asked for them.

T001 调度器让每个 prefill 实例都忙碌。
///

/// paragraph | P002
> Early rejection drops a request before its prefill starts when the decoding instances will not have room for it in time.

T002 提前拒绝。
///

译注：这里说的是过载。

/// paragraph | P003
> The cache pool lives in the CPU memory of every node and is shared over RDMA by all the prefill instances of the cluster.

T003 缓存池。
///

## 2 Design

/// paragraph | P004
> We measured 8 GPUs per node in the first cluster, with one prefill group of two nodes and three decoding nodes beside it.

T004 第一个集群每节点 8 块 GPU。
///

/// paragraph | P005
> The conductor picks the prefill instance with the longest prefix match. It then estimates the queueing time of that instance. It also estimates the transfer time of the missing blocks. Finally it chooses the instance with the shortest time to first token.

T005 Conductor 选择前缀最长的实例。
///

/// paragraph | P006
> Hot blocks are replicated to several nodes so that no single node becomes a point of congestion for the whole cluster.

T006 热块被复制。
///

/// paragraph | P007
> Cold blocks are swapped out to the SSD of the node when the memory pool runs short of space for new requests.

T007 冷块被换出。
///

/// paragraph | P008
> The trace will be published later, after the internal review of its contents has finished.

<!-- duizhao:todo -->
///
"""

NEW = """\
# T

## 1 Intro

The scheduler keeps every prefill instance busy while the decoding instances stream tokens back to the users who asked for them.

The cache pool lives in the CPU memory of every node and is shared over RDMA by all the prefill instances of the cluster.

A brand new paragraph about fault tolerance explains how the conductor restarts a failed prefill group without losing requests.

## 2 Design

We measured 16 GPUs per node in the first cluster, with one prefill group of two nodes and three decoding nodes beside it.

The conductor picks the prefill instance with the longest prefix match. It then estimates the queueing time of that instance.

It also estimates the transfer time of the missing blocks. Finally it chooses the instance with the shortest time to first token.

Hot blocks are replicated to several nodes so that no single node becomes a point of congestion for the whole cluster. Cold blocks are swapped out to the SSD of the node when the memory pool runs short of space for new requests.

The trace will be published later, after the internal review of its contents has finished.
"""

OTHER = "---\ntitle: O\n---\n\n见 [第二段](a.md#P002)、[](a.md#P004) 与 [](a.md#P006)。\n"


def _site(tmp_path: Path) -> Path:
    root = project(
        tmp_path,
        {"docs/a.md": ARTICLE, "docs/o.md": OTHER, "new.md": NEW},
        "docs_dir: docs\nplugins: [duizhao]\n",
    )
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".lock.lock" not in p.name
    }


def _accept(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _out, err = run(["status", "--accept", "docs/a.md"], root, monkeypatch)
    assert code == 0, err


# --------------------------------------------------------------------------------------------
# Alignment


def test_reimport_noise_is_no_change() -> None:
    old = "The ﬁrst commu-\nnication is “state-of-the-art” \\*here\\* [^orig-1], see [x](y)."
    new = 'The first communication is "state-of-the-art" *here* [^orig2-1], see [x](y).'
    assert normalise(old) == normalise(new)
    assert [m.fate for m in align([old], [new]).matches] == ["same"]


def test_every_fate() -> None:
    article = parse(ARTICLE)
    old = [p.original for p in article.paragraphs]
    new = [p.strip() for p in NEW.split("\n\n") if p.strip() and not p.startswith("#")]
    fates = {(m.fate, m.old, m.new) for m in align(old, new).matches}
    assert fates == {
        ("same", (0,), (0,)),
        ("removed", (1,), ()),
        ("same", (2,), (1,)),
        ("new", (), (2,)),
        ("edited", (3,), (3,)),
        ("split", (4,), (4, 5)),
        ("merged", (5, 6), (6,)),
        ("same", (7,), (7,)),
    }
    by = {m.old: m for m in align(old, new).matches if m.old}
    assert by[(3,)].fate == "edited" and 0.85 <= by[(3,)].score < 1
    assert by[(4,)].fate == "split" and by[(4,)].new == (4, 5)
    assert by[(5, 6)].fate == "merged" and by[(5, 6)].new == (6,)
    assert by[(1,)].fate == "removed"


def test_moved_paragraphs_are_found() -> None:
    texts = [
        f"Paragraph number {n} talks about a different subject of its own, at length."
        for n in range(6)
    ]
    new = [texts[0], texts[4], texts[1], texts[2], texts[3], texts[5]]
    fates = {m.old: m.fate for m in align(texts, new).matches}
    assert fates[(4,)] == "moved" and all(fates[(i,)] == "same" for i in (0, 1, 2, 3, 5))


def test_a_passage_said_twice_anchors_where_it_continues_the_order() -> None:
    """mkdocs-deploying's class (runs_win_ties): a paragraph and the edited one after it, said
    again word for word in a new section; the old one is the same as the first place, next
    to its neighbour, not the copy the subsequence took, and the edited one follows it."""
    say = [
        f"Paragraph {name} of the deployment guide says something of its own, at some length."
        for name in ("one", "aware", "never", "last", "user", "pages", "domain")
    ]
    edited = say[2].replace("of its own", "of its very own")
    old = [say[0], say[1], say[2], say[3]]
    new = [say[0], say[1], edited, say[4], say[5], say[1], edited, say[6], say[3]]
    carried = {m.old: (m.fate, m.new) for m in align(old, new).matches if m.old and m.new}
    assert carried == {
        (0,): ("same", (0,)),
        (1,): ("same", (1,)),
        (2,): ("edited", (2,)),
        (3,): ("same", (8,)),
    }


def test_a_neighbour_keeping_a_sentence_completes_a_merge() -> None:
    """FAST '25's class (align step 8): two paragraphs joined and both reworded, the second
    carried on its own, the first keeping one long sentence only: a merge (one sentence of a
    paragraph that is not next to the carried one is no evidence)."""
    first = "The conductor sends each request to the prefill instance that holds it."
    last = "Every figure of this section was measured on the cluster of the testbed."
    kept = "Although this process seems straightforward, the selection policy is complex due to many restrictions."
    dropped = (
        " Waiting for the cache of a lower tier may violate the objective of the first token."
        " High demand on the cache server leads to congestion of the network, which prolongs"
        " the wait. The hottest blocks are replicated and the coldest ones are swapped out."
    )
    carried = (
        "In the decoding stage the main objective is to keep the time between tokens under its"
        " bound, which limits the size of the batch that the decoding instances may take."
    )
    old = [first, kept + dropped, carried, last]
    new = [first, kept + " The pool faces challenges of capacity and latency. " + carried, last]
    fates = {(m.fate, m.old, m.new) for m in align(old, new).matches if m.old and m.new}
    assert ("merged", (1, 2), (1,)) in fates
    # the same sentence in a paragraph two places away is not taken
    away = [first, kept + dropped, last, carried, last]
    fates = {(m.fate, m.old) for m in align(away, [first, last, new[1], last]).matches}
    assert ("removed", (1,)) in fates


def test_a_paragraph_keeping_one_sentence_in_place_is_carried() -> None:
    """rust-impl-trait's class (`_kept_in_place`): a paragraph that keeps its first sentence
    word for word, rewrites the rest and grows to three times its length, in its place, is
    carried; a unit kept whole (a footnote the PDF reader glued to another) is not."""
    before = "The example below shows the new rules at work on a function that returns a closure."
    after = "These rules are the default in the new edition, and the older ones remain available."
    kept = "This example demonstrates the way that editions can help us to remove complexity from Rust."
    old = [before, kept + " The new capture rules of this edition mean that:", after]
    grown = (
        " In the old edition the default rules for lifetime parameters had not aged well."
        " They frequently did not express what users needed and led to obscure workarounds."
        " They led to other inconsistencies between asynchronous functions and the others."
        " Return-position types in top-level functions and in trait functions differed too,"
        " which surprised readers of the reference and writers of libraries alike."
    )
    new = [
        before,
        "A new paragraph about something else entirely is put here.",
        kept + grown,
        after,
    ]
    fates = {(m.fate, m.old, m.new) for m in align(old, new).matches if m.old and m.new}
    assert ("rewritten", (1,), (2,)) in fates
    footnote = (
        "1This threshold is currently adjusted manually but can be adaptively adjusted later."
    )
    old = [before, footnote, after]
    new = [before, footnote + grown, after]
    assert [m.fate for m in align(old, new).matches if m.old == (1,)] == ["removed"]


def test_a_paragraph_rewritten_in_depth_keeping_its_marks_is_carried_in_place() -> None:
    """drf-throttling's class (`_marked`): between the same two neighbours, a paragraph whose
    words mostly changed but that names the same setting and values (code spans) is carried,
    and the plan says why; one that shares a single mark, or two marks but few of its
    words, is not."""
    before = "The default policy may be set globally, using the `RATES` setting. For example."
    after = "You can also set the policy on a per-view basis, using the class-based views."
    old_text = (
        "The rate descriptions used in `RATES` may include `second`, `minute`, `hour` or "
        "`day` as the throttle period."
    )
    new_text = (
        "The rates used in `RATES` can be specified over a period of second, minute, hour or "
        "day. The period must be specified after the `/` separator using `s`, `m`, `h` or "
        "`d`, respectively. For increased clarity, extended units such as `second`, `minute`, "
        "`hour`, `day` or even abbreviations like `sec`, `min`, `hr` are allowed, as only the "
        "first character is relevant to identify the rate."
    )
    match = next(
        m
        for m in align([before, old_text, after], [before, new_text, after]).matches
        if m.old == (1,)
    )
    assert (match.fate, match.new) == ("rewritten", (1,))
    assert match.why.startswith("in place, the same marks: ")
    one_mark = (
        "A burst of requests from one client is refused with a status of `429` until the "
        "period of the rates ends, and the response says when to retry after the period."
    )
    fates = [m.fate for m in align([before, old_text, after], [before, one_mark, after]).matches]
    assert fates.count("removed") == 1 and fates.count("new") == 1
    other = (
        "Each `day` the `RATES` counters are reset for every client of the service, "
        "which the operators of large deployments have asked to be able to change."
    )
    fates = [m.fate for m in align([before, old_text, after], [before, other, after]).matches]
    assert fates.count("removed") == 1 and fates.count("new") == 1


def test_a_paragraph_split_in_place_with_both_halves_reworded_is_carried() -> None:
    """textual-command-palette's class (`_joined_in_place`): a paragraph cut into a lead-in
    and a list of its points, each reworded, between the same neighbours, is a split; two
    unrelated new paragraphs in its place are not."""
    before = "Hits are shown the moment the palette opens, so they should be quick to make."
    after = "The shutdown method is called when the palette is closed, to close what you made."
    old_text = (
        "Discover is similar to search but with the difference that no search value is "
        "passed to it, and it should yield instances of hits. There is no matching and no "
        "match score is needed. The hit contains information about how it should be "
        "displayed, and an optional help string; discovery hits are sorted in ascending "
        "alphabetical order. It also contains a callback, which will be run if the user "
        "selects that command."
    )
    lead = "Discover is similar to search, but no search value is passed to it, with these differences:"
    points = (
        "- discover accepts no parameters (instead of the search value);\n- discover yields "
        "instances of hits;\n- discovery hits are sorted in ascending alphabetical order "
        "because there is no matching and no match score is generated. Hits contain "
        "information about how they should be displayed, an optional help string, and a "
        "callback which will be run if the user selects that command."
    )
    match = next(
        m
        for m in align([before, old_text, after], [before, lead, points, after]).matches
        if m.old == (1,)
    )
    assert (match.fate, match.new, match.why) == ("split", (1, 2), "in place, split")
    unrelated = [
        "Providers are loaded when the palette starts, each from the class named in the app.",
        "- a provider may be slow;\n- a provider may fail, and its error is shown in the log "
        "of the application with the name of the provider and the time it took to fail.",
    ]
    fates = [m.fate for m in align([before, old_text, after], [before, *unrelated, after]).matches]
    assert fates.count("removed") == 1 and fates.count("new") == 2


def test_the_sole_paragraph_left_in_place_needs_less_of_a_kept_sentence() -> None:
    """textual-screens' class (``sole_kept_share``): the one paragraph left on each side right
    between two carried neighbours, a long sentence kept (a third of its words) and the
    rest reworded, is carried; with a third paragraph new beside it, the sole rule does not
    apply, and it is carried only as the clear best of the leftovers (``_clearly_paired``:
    a word similarity of 0.5, the new paragraph beside it far below), to the right one."""
    before = "The app class has a new class variable that names screens for the screen API."
    after = "You can also install new named screens dynamically with the install method."
    kept = (
        "The name of the screen may be used interchangeably with screen objects in much of the API."
    )
    old_text = (
        "Named screens can be defined with the app's class variables of its own kind. This is "
        "typically used for screens that exist for the lifetime of your app. " + kept
    )
    new_text = (
        "You can associate a screen with a name by defining a class variable in your app, "
        "which should be a dict that maps names on to screen objects. " + kept
    )
    match = next(
        m
        for m in align([before, old_text, after], [before, new_text, after]).matches
        if m.old == (1,)
    )
    assert (match.fate, match.new, match.why) == ("rewritten", (1,), "in place, a sentence kept")
    other = "A paragraph about the modes of an app, which switch between sets of screens at once."
    matches = align([before, old_text, after], [before, other, new_text, after]).matches
    carried = [(m.old, m.new, m.why) for m in matches if m.fate == "rewritten"]
    assert carried == [((1,), (2,), "moved and reworded, clearly the best")]
    assert [m.fate for m in matches if m.new == (1,)] == ["new"]


def test_a_neighbour_of_a_paragraph_moved_far_moves_with_it() -> None:
    """textual-widgets' class (`_beside_moved`): a section moved far down (out of the order),
    its first paragraph near-exact, the next reworded, is carried whole; the paragraph that
    follows the moved one in the new version only is not paired with an unrelated one."""
    filler = [
        f"Paragraph {k} of the guide explains one more part of the widget API in enough words."
        for k in range(1, 9)
    ]
    first = (
        "Widgets can have a list of associated key bindings, which enable it to call actions in "
        "response to key presses."
    )
    second = "A widget's bindings will only be checked if it or one of its descendants has focus."
    old = [first, second, *filler]
    new = [
        *filler,
        first.replace("which enable it", "which let them"),
        "A widget is only able to handle key presses if it or one of its descendants has focus.",
    ]
    by_old = {m.old: m for m in align(old, new).matches if m.old}
    assert (by_old[(0,)].fate, by_old[(0,)].new) == ("edited", (8,))
    match = by_old[(1,)]
    assert (match.fate, match.new, match.why) == ("rewritten", (9,), "beside a moved neighbour")
    unrelated = "The counter example shows how a focused widget is highlighted by its CSS rule."
    fates = [m.fate for m in align(old, [*new[:9], unrelated]).matches]
    assert fates.count("removed") == 1 and fates.count("new") == 1


def test_a_sentence_cut_by_a_code_block_the_new_version_removed_is_merged() -> None:
    """hatch-release-1100's class (`_continued`): "For example, running the following
    command:", a code block, "will run tests in all environments …" became one reworded
    sentence; the continuation (it opens in lower case after a colon) joins the carry. A
    paragraph after a full stop, or one that keeps none of its words, does not."""
    head = (
        "The command is designed to be both simple to use while also satisfying the needs "
        "of most projects. For example, running the following command:"
    )
    tail = (
        "will run tests in all environments in the matrix, with parallelized test execution "
        "in each, with a randomized test order and will report the code coverage at the end."
    )
    after = "See the tutorial for a detailed walk-through and the config reference for options."
    one = (
        "The command is designed to be both simple to use while also satisfying the needs "
        "of most projects. For example, the following shows Hatch running tests for Jinja in "
        "all environments in the default matrix:"
    )
    by_old = {m.old: m for m in align([head, tail, after], [one, after]).matches if m.old}
    match = by_old[(0, 1)]
    assert (match.fate, match.new, match.why) == ("merged", (0,), "one sentence across a block")
    stopped = head[:-1] + "."
    fates = {m.old: m.fate for m in align([stopped, tail, after], [one, after]).matches}
    assert fates[(1,)] == "removed"
    elsewhere = "will be shown in the log as soon as it starts, with its arguments and its host."
    fates = {m.old: m.fate for m in align([head, elsewhere, after], [one, after]).matches}
    assert fates[(1,)] == "removed"


def test_a_heading_glued_to_its_paragraph_by_the_new_import_is_merged() -> None:
    """sympy-paper's class (`_glued_heading`): the new version's LaTeX glued
    "\\subsection{The Core}" and a `\\label` to the paragraph after it, which is carried on
    its own evidence; the old heading, left over, opens the new unit with its very words and
    joins the carry as a merge. A heading the new unit does not open with stays removed."""
    before = "Importantly, SymPy expressions are immutable, which simplifies the design of SymPy."
    heading = "\\subsection{The Core}"
    body = (
        "A computer algebra system (CAS) represents mathematical expressions as data "
        "structures. For example, the mathematical expression x + y is represented as a tree "
        "with three nodes, +, x and y."
    )
    glued = (
        "\\subsection{The Core} \\label{sec:core} A computer algebra system stores "
        "mathematical expressions as data structures: the expression x + y, for one, is kept "
        "as a tree with three nodes, +, x and y, each an object of its own class."
    )
    by_old = {m.old: m for m in align([before, heading, body], [before, glued]).matches if m.old}
    match = by_old[(1, 2)]
    assert (match.fate, match.new, match.why) == (
        "merged",
        (1,),
        "a heading glued to its paragraph",
    )
    renamed = glued.replace("The Core", "The Kernel")
    fates = {m.old: m.fate for m in align([before, heading, body], [before, renamed]).matches}
    assert fates[(1,)] == "removed"


def test_a_block_lead_in_folded_into_the_paragraph_before_it_is_merged() -> None:
    """myst-intro's class (`_lead_in`): "To start off, create an empty file …" and the short
    lead-in of a code block after it, "To parse to HTML, try the CLI:", became one paragraph
    ending "… to parse this file to HTML:"; the lead-in joins the carry as a merge. When the
    new paragraph no longer introduces the block (a full stop), the lead-in stays removed."""
    first = "To start off, create an empty file called `myfile.md` and give it a markdown title and text."
    lead = "To parse to HTML, try the CLI:"
    after = "To include this document within a Sphinx project, add it to a `toctree` directive."
    one = (
        "To start off, create an empty file called `example.md` and give it a Markdown title and "
        "text. We can now use the `myst-docutils-demo` CLI tool, from the installed package, to "
        "parse this file to HTML:"
    )
    by_old = {m.old: m for m in align([first, lead, after], [one, after]).matches if m.old}
    match = by_old[(0, 1)]
    assert (match.fate, match.new, match.why) == ("merged", (0,), "a block's lead-in joined")
    stopped = one[:-1] + "."
    fates = {m.old: m.fate for m in align([first, lead, after], [stopped, after]).matches}
    assert fates[(1,)] == "removed"


def test_an_edited_line_moved_a_few_places_is_carried() -> None:
    """ollama-development's class (`_short_moved`): a one-line item, edited, moved a few
    places across unchanged paragraphs, is carried when it is the only near-exact
    candidate both ways; a line said twice in the new version is not."""
    body = [
        f"Paragraph {k} of the build guide describes one more step of the build in words."
        for k in range(1, 7)
    ]
    line = "Requires the Metal toolchain. Install Xcode first, then:"
    old = [*body[:2], *body[2:], line]
    new = [
        *body[:2],
        "MLX Metal requires the Metal toolchain. Install Xcode first, then:",
        *body[2:],
    ]
    match = next(m for m in align(old, new).matches if m.old == (6,))
    assert (match.fate, match.new, match.why) == ("edited", (2,), "a line moved, near-exact")
    twice = [*new[:3], *body[2:4], new[2], *body[4:]]
    assert [m.fate for m in align(old, twice).matches if m.old == (6,)] == ["removed"]


def test_renumbered_references_are_no_change_of_a_sentence() -> None:
    """A new version renumbers its references (Mooncake FAST '25): a bracketed list of them is
    one word, the same in both versions; a bracket with other words stays as it is."""
    old = normalise(r"proposed sequence parallelism (SP) \[17, 18, 19, 20, 21, 22, 23\].")
    new = normalise(r"proposed sequence parallelism (SP) \[21–27\].")
    assert words(old) == words(new)
    assert words(old)[-3:] == [")", "[#]", "."]
    assert words("see [Table 2] and [x]") == ["see", "[", "Table", "2", "]", "and", "[", "x", "]"]
    assert words("[] [1,2]") == ["[", "]", "[#]"]  # an empty bracket is no reference


def test_short_units_need_a_near_exact_match() -> None:
    old = ["3 Results", "See Table 2.", "Table 2: Settings of each run in the cluster."]
    new = ["4 Results", "See Figure 5.", "Table 3: Settings of each run in the cluster."]
    by = {m.old: m for m in align(old, new).matches if m.old}
    assert by[(0,)].fate == "removed"  # one character in nine: not near-exact
    assert by[(1,)].fate == "removed"
    assert by[(2,)].fate == "edited"


def test_a_line_wrapped_in_inline_html_emphasis_is_the_same_line_edited() -> None:
    """tuning-playbook-faq's class: "[Click to expand]" made "<em>[Click to expand]</em>"
    (a short line, compared by characters without its inline tags) is carried in place."""
    old = [
        "A question of the FAQ, long enough to be a paragraph of its own here.",
        "[Click to expand]",
    ]
    new = [old[0], "<em>[Click to expand]</em>"]
    assert [(m.fate, m.old, m.new) for m in align(old, new).matches] == [
        ("same", (0,), (0,)),
        ("edited", (1,), (1,)),
    ]


def test_unrelated_paragraphs_are_not_matched() -> None:
    old = [
        "Early rejection drops a request before its prefill starts when the decoding instances "
        "will not have room for it in time."
    ]
    new = [
        "The conductor restarts a failed prefill group from its last checkpoint so that no "
        "request of the cluster is lost in time."
    ]
    assert [m.fate for m in align(old, new).matches] == ["removed", "new"]


#: filler kept unchanged (anchors) for the tests of a weak candidate in a gap
_ANCHORS = [
    f"Paragraph {k} of the guide explains one more part of the scheduler in enough words to be long."
    for k in range(1, 6)
]
_MOVED = (
    "The scheduler assigns each request to the prefill instance with the shortest queue, and the "
    "decoding instance streams the tokens back once the cache has been transferred to it."
)
_NEAR = (
    "The scheduler assigns each new request to a prefill node chosen by its expected wait, while "
    "the decoding node streams the tokens back once the cache has been transferred to it."
)


def test_a_moved_and_edited_paragraph_beyond_an_anchor_wins_over_a_weak_candidate() -> None:
    """The lead's unseen set, class 1: a paragraph moved down past a paragraph kept unchanged
    and reworded (0.82) was carried to a new one beside its old place (0.72); the rival
    beyond the anchor, clearly more similar, now wins."""
    edited = _MOVED.replace(
        "once the cache has been transferred to it", "as soon as the cache is in"
    )
    old = [_ANCHORS[0], _MOVED, *_ANCHORS[1:]]
    new = [_ANCHORS[0], _NEAR, *_ANCHORS[1:4], edited, _ANCHORS[4]]
    by_old = {m.old: m for m in align(old, new).matches if m.old}
    assert (by_old[(1,)].fate, by_old[(1,)].new) == ("rewritten", (5,))
    assert [m.fate for m in align(old, new).matches if m.new == (1,)] == ["new"]


def test_two_candidates_of_near_equal_similarity_carry_neither() -> None:
    """When the rival beyond the anchors is about as similar as the weak one in the gap, no
    similarity tells which is the paragraph: neither is carried, and the plan says why."""
    rival = _NEAR.replace("streams the tokens back", "streams its tokens back")
    old = [_ANCHORS[0], _MOVED, *_ANCHORS[1:]]
    new = [_ANCHORS[0], _NEAR, *_ANCHORS[1:4], rival, _ANCHORS[4]]
    matches = align(old, new).matches
    moved = next(m for m in matches if m.old == (1,))
    assert moved.fate == "removed" and "near-equal" in moved.why
    assert not [m for m in matches if m.new in ((1,), (5,)) and m.old]


def test_look_alike_lines_are_not_paired_crosswise() -> None:
    """The lead's unseen set: two "See X" lines of one template, both edited, paired crosswise
    by a similarity that cannot tell them apart; now neither is carried."""
    old = [
        _ANCHORS[0],
        "See the [options reference](ref.md#one) for more.",
        "A paragraph the new version removes, long enough to count as a paragraph here.",
        "See the [options reference](ref.md#two) for more.",
        _ANCHORS[1],
    ]
    new = [
        _ANCHORS[0],
        "See the [options reference](options.md#one) for more.",
        "See the [options reference](options.md#two) for more.",
        _ANCHORS[1],
    ]
    matches = align(old, new).matches
    assert not [m for m in matches if m.old and m.new and m.fate != "same"]
    assert all(
        "look-alikes" in m.why for m in matches if m.fate in ("removed", "new") and m.old != (2,)
    )


def test_paragraphs_reworded_in_place_are_carried_on_their_order() -> None:
    """click-options' class (`_in_clear_order`): a run of paragraphs reworded for style
    between the same neighbours; a pair at a word similarity of 0.5 that beats every other
    of its row and column by far is carried in the order of both."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.update import DATA, read_units

    old = read_units(DATA / "click-options" / "old.units")
    new = read_units(DATA / "click-options" / "new.units")
    by_old = {m.old: m for m in align(old, new).matches if m.old}
    for i in (4, 6):  # P005, P007
        match = by_old[(i,)]
        assert (match.fate, match.new, match.why) == (
            "rewritten",
            (i,),
            "in place, in the same order",
        )
    # a run of one on a side has no alternative to beat: the order alone is no evidence
    assert align(old[4:5], new[4:5]).matches[0].fate == "removed"


def test_items_of_a_term_list_rewritten_in_place_are_carried_by_their_term() -> None:
    """Hugo's page bundles (`_labelled_in_run`): each bundle of the example tree described
    anew under the same term, the items one template (look-alikes: "does not contain any
    page resources" twice), at word similarities of 0.32-0.50 and with no code span in
    common; the term, on one item only of each version, says which is which. A term said
    on two items ("**Note**") names nothing, and so is no evidence."""
    from duizhao.importer.align_runs import label

    intro = (
        "Page bundles group a page's content with the resources it uses, such as images "
        "and data files."
    )
    outro = (
        "The hierarchy depth at which a leaf bundle is created does not matter, as long as it "
        "is not inside another leaf bundle."
    )
    old = [
        intro,
        "about : This leaf bundle is at the root level (directly under `content` directory) "
        "and has only the `index.md`.",
        "my-post : This leaf bundle has the `index.md`, two other content Markdown files and "
        "two image files.",
        "my-other-post : This leaf bundle has only the `index.md`.",
        outro,
    ]
    new = [
        intro,
        "about : This leaf bundle does not contain any page resources.",
        "my-post : This leaf bundle contains an index file, two resources of resource type "
        "`page`, and two resources of resource type `image`.",
        "my-other-post : This leaf bundle does not contain any page resources.",
        outro,
    ]
    by_old = {m.old: m for m in align(old, new).matches if m.old}
    for i in (1, 2, 3):
        assert (by_old[(i,)].fate, by_old[(i,)].new) == ("rewritten", (i,)), i
        assert by_old[(i,)].why == "in place, the same label"
    assert (label(old[2]), label("**Note:** Use it."), label("Use it: now.")) == (
        "my-post",
        "note",
        "",
    )
    # the term renamed: nothing says which item it is
    renamed = [
        *new[:1],
        "privacy : This leaf bundle does not contain any page resources.",
        *new[2:],
    ]
    assert {m.old: m for m in align(old, renamed).matches if m.old}[(1,)].fate == "removed"
    # one term on two items of a version: no evidence
    noted = [intro, "**Note** Bundles nest.", "**Note** A leaf bundle has no children.", outro]
    noted_new = [intro, "**Note** Bundles may nest.", "**Note** Leaves have no descendants.", outro]
    assert [
        m.fate for m in align(noted, noted_new).matches if m.why == "in place, the same label"
    ] == []
    # with no place to be in (nothing carried), the term alone is not carried
    assert {m.fate for m in align(old[1:4], new[1:4]).matches} == {"removed", "new"}


def test_the_sole_paragraph_written_anew_in_its_place_is_carried() -> None:
    """click-options' P004 (``Thresholds.sole_words``): the one paragraph left on each side
    right between two carried neighbours, written anew ("Click expects you to pass at least
    two positional arguments to the option decorator." -> "The `option()` decorator accepts
    parameter declarations as positional arguments. …", 0.25), keeps a rare word
    ("positional") and a quarter of its words: carried. With a new paragraph beside it, it is
    no longer alone in its place and needs the run's evidence; an unrelated paragraph put
    in its place shares no rare word and is not carried."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.update import DATA, read_units

    old = read_units(DATA / "click-options" / "old.units")
    new = read_units(DATA / "click-options" / "new.units")

    def carried(new: list[str]) -> object:
        return {m.old: m for m in align(old, new).matches if m.old}[(3,)]

    match = carried(new)
    assert (match.fate, match.new, match.why) == (  # type: ignore[attr-defined]
        "rewritten",
        (3,),
        "in place, reworded in a run",
    )
    beside = [*new[:3], "Options are listed in the help page in the order declared.", *new[3:]]
    assert carried(beside).fate == "removed"  # type: ignore[attr-defined]
    other = "Environment variables can also supply values, read when the command line has none."
    assert carried([*new[:3], other, *new[4:]]).fate == "removed"  # type: ignore[attr-defined]


def test_a_paragraph_reworded_in_a_short_run_is_carried_on_a_clear_lead() -> None:
    """jekyll-markdown-options' P002 (``Thresholds.short_run``): "Kramdown is the default
    Markdown renderer for Jekyll. Below is a list of the currently supported options:" ->
    "…, and often works well with no additional configuration. However, it does support many
    configuration options." (0.435, under ``ordered``) in a run of 2 old and 6 new
    paragraphs, every other pair of its row and column at most 0.2 below it: carried in the
    order. With one more new paragraph in the run, it is not short and the pair needs
    ``ordered``."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.update import DATA, read_units

    old = read_units(DATA / "jekyll-markdown-options" / "old.units")
    new = read_units(DATA / "jekyll-markdown-options" / "new.units")

    def carried(new: list[str]) -> object:
        return {m.old: m for m in align(old, new).matches if m.old}[(1,)]

    match = carried(new)
    assert (match.fate, match.new, match.why) == (  # type: ignore[attr-defined]
        "rewritten",
        (1,),
        "in place, in the same order",
    )
    more = "Jekyll passes these options to the renderer when it builds each page of the site."
    assert carried([*new[:4], more, *new[4:]]).fate == "removed"  # type: ignore[attr-defined]


#: a paper's paragraphs, kept in both versions (the anchors of the next test)
_NUMPY_ANCHORS = [
    "NumPy is the primary array programming library for the Python language and underpins the "
    "scientific software stack.",
    "Array programming provides a powerful, compact and expressive syntax for accessing, "
    "manipulating and operating on data.",
    "The NumPy project was founded in 2005 to unify two earlier array packages that had diverged "
    "over the years.",
    "Its central data structure is the n-dimensional array, described by a data pointer, a shape "
    "and strides.",
    "Operations that act element by element are vectorised, so that loops run in compiled code "
    "rather than Python.",
    "Broadcasting lets arrays of different shapes be combined in one expression without copying "
    "data.",
    "The project is developed in the open by a community of volunteers and a few funded "
    "contributors.",
    "The paper closes with the challenges the project faces over the next decade of scientific "
    "computing.",
]


def test_a_paragraph_moved_and_rewritten_naming_the_same_things_is_carried() -> None:
    """NumPy's paper rewritten for Nature (``Thresholds.rare_shared``): the paragraph on the
    arrays of other libraries moved past three kept ones and rewritten (0.46, under step 7d's
    0.5), naming the same libraries: it shares 18 of the page's rare content words with it
    and none with any other leftover. A second new paragraph naming them too leaves it
    unclear, and it is not carried."""
    old_p = (
        "The community's efforts to fill these gaps led to a proliferation of arrays: distributed "
        "arrays in Dask, GPU arrays in CuPy and MXNet, labelled arrays in xarray, sparse arrays in "
        "PyData Sparse, and the tensors of PyTorch, TensorFlow and JAX, each with an API close to "
        "NumPy's but not the same."
    )
    new_p = (
        "The community's efforts to fill this gap led to a proliferation of new array "
        "implementations: each deep learning framework (PyTorch, TensorFlow, JAX, MXNet) created "
        "its own arrays, and Dask, CuPy, xarray and PyData Sparse added distributed, GPU, "
        "labelled and sparse arrays, all close to NumPy's API."
    )
    anchors = _NUMPY_ANCHORS
    old = [*anchors[:3], old_p, *anchors[3:]]
    new = [*anchors[:6], new_p, *anchors[6:]]
    match = {m.old: m for m in align(old, new).matches if m.old}[(3,)]
    assert (match.fate, match.new, match.why) == (
        "rewritten",
        (6,),
        "rewritten, naming the same things",
    )
    also = (
        "We benchmarked Dask, CuPy, xarray, PyData Sparse, PyTorch, TensorFlow, JAX and MXNet "
        "arrays against NumPy's own on distributed, GPU, labelled and sparse workloads."
    )
    match = {m.old: m for m in align(old, [*new, also]).matches if m.old}[(3,)]
    assert match.fate == "removed"


def test_a_paragraph_reworded_and_clearly_the_best_of_the_leftovers_is_carried() -> None:
    """`_clearly_paired`: textual-styles' `2fr`/`1fr` explanation reworded (0.53, no other
    leftover near it) is carried; ds-autotp's two tables of one shape (0.84) are not: a table
    says nothing by its words."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.update import DATA, read_units

    def carried(name: str) -> dict[tuple[int, ...], object]:
        old = read_units(DATA / name / "old.units")
        new = read_units(DATA / name / "new.units")
        return {m.old: m for m in align(old, new).matches if m.old}

    match = carried("textual-styles")[(34,)]
    assert (match.new, match.why) == ((34,), "moved and reworded, clearly the best")  # type: ignore[attr-defined]
    assert carried("ds-autotp")[(8,)].fate == "removed"  # type: ignore[attr-defined]


def test_two_paragraphs_merged_and_reworded_far_away_are_carried_as_a_merge() -> None:
    """`_clearly_joined`: FAST '25 joined two paragraphs of v3's algorithm section and
    reworded them (v3 53+54 -> 63): the joined text is clearly the best of the leftovers."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.update import DATA, read_units

    old = read_units(DATA / "mooncake-v3-fast25" / "old.units")
    new = read_units(DATA / "mooncake-v3-fast25" / "new.units")
    merged = [m for m in align(old, new).matches if m.why == "merged and reworded"]
    assert [(m.fate, m.old, m.new) for m in merged] == [("merged", (52, 53), (62,))]


# --------------------------------------------------------------------------------------------
# The command


def test_plan_then_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _site(tmp_path)
    _accept(root, monkeypatch)
    before = _snapshot(root)
    code, out, err = run(
        ["update", "docs/a.md", "--from", "new.md", "--version", "v2"], root, monkeypatch
    )
    assert code == 0, err
    assert _snapshot(root) == before  # a dry run writes nothing
    assert "8 → 8 paragraphs: 3 same, 1 edited, 1 split, 1 merged, 1 new, 1 removed\n" in err
    assert "dry run: would change 4 files; apply with --write" in err
    assert (
        "P002        -           removed         removed: block moved to docs/a.removed.yml" in out
    )
    assert "P005        P005+P006   split" in out
    assert "P006+P007   P007        merged" in out
    assert "--- a/docs/a.md" in out and "+++ b/docs/o.md" in out

    code, out, err = run(
        ["update", "docs/a.md", "--from", "new.md", "--version", "v2", "--write"],
        root,
        monkeypatch,
    )
    assert code == 0, err
    assert "docs/o.md:5: DZ305 link to P002, which the new version of docs/a.md" in err
    text = (root / "docs/a.md").read_text(encoding="utf-8")
    article = parse(text)
    ids = [p.id for p in article.paragraphs]
    assert ids == [f"P{n:03d}" for n in range(1, 9)]
    assert 'version: "v2"' in text and "paragraphs: P001-P008" in text
    assert "title: T  # the article" in text  # the front matter's comment stays
    translations = {p.id: p.translation for p in article.paragraphs}
    assert translations["P001"].startswith("T001")
    assert translations["P002"].startswith("T003")  # moved up: P002 was removed
    assert translations["P003"] == "<!-- duizhao:todo -->"  # new, at its place
    assert translations["P004"].startswith("T004")
    assert translations["P005"].startswith("T005")  # split: the translation stays first
    assert translations["P006"] == "<!-- duizhao:todo -->"
    assert translations["P007"] == "T006 热块被复制。\n\nT007 冷块被换出。"  # merged
    assert "16 GPUs" in article.paragraphs[3].original
    assert text.index("A brand new paragraph") < text.index("## 2 Design")
    assert "译注：这里说的是过载。" in text  # the translator's note between blocks stays
    assert "先读 [](#P002)。" in text  # the intro's link follows P003 → P002

    other = (root / "docs/o.md").read_text(encoding="utf-8")
    assert (
        other == "---\ntitle: O\n---\n\n见 [第二段](a.md#P002)、[](a.md#P004) 与 [](a.md#P007)。\n"
    )

    removed = yaml.safe_load((root / "docs/a.removed.yml").read_text(encoding="utf-8"))
    (entry,) = removed["removed"]
    assert entry["id"] == "P002" and entry["was_in"] == "v1" and entry["removed_in"] == "v2"
    assert "T002 提前拒绝。" in entry["block"] and entry["block"].startswith("/// paragraph | P002")

    lock = json.loads((root / "duizhao.lock").read_text(encoding="utf-8"))
    (record,) = lock["updates"]["a.md"]
    assert record["from"] == "v1" and record["to"] == "v2"
    assert record["ids"] == {
        "P001": "P001",
        "P002": None,
        "P003": "P002",
        "P004": "P004",
        "P005": "P005",
        "P006": "P007",
        "P007": "P007",
        "P008": "P008",
    }
    previous = lock["previous"]["a.md"]
    assert set(previous) == {"P004", "P005", "P007"}
    assert "8 GPUs" in previous["P004"]
    assert previous["P007"].count("\n\n") == 1  # both originals of the merge
    assert set(lock["articles"]["a.md"]) == {"P001", "P002", "P004", "P005", "P007"}
    assert "aliases" not in lock  # every old ID is in use again

    code, _out, err = run(["status"], root, monkeypatch)
    stale = [line.split(" DZ301 ")[1][:18] for line in err.splitlines() if " DZ301 " in line]
    assert stale == ["the original of P0"] * 3
    assert sum(f"of {pid} changed" in err for pid in ("P004", "P005", "P007")) == 3

    code, out, _err = run(["status", "--diff", "docs/a.md#P004"], root, monkeypatch)
    assert code == 0 and "We measured [-8-]{+16+} GPUs per node" in out

    # idempotent, and renumber has nothing left to do
    after = _snapshot(root)
    code, _out, err = run(
        ["update", "docs/a.md", "--from", "new.md", "--version", "v2", "--write"],
        root,
        monkeypatch,
    )
    assert code == 0 and "already matches" in err
    code, _out, err = run(["renumber", "docs/a.md"], root, monkeypatch)
    assert code == 0 and "already sequential" in err
    assert _snapshot(root) == after


def test_accept_clears_the_earlier_original(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _site(tmp_path)
    _accept(root, monkeypatch)
    run(["update", "docs/a.md", "--from", "new.md", "--write"], root, monkeypatch)
    run(["status", "--accept", "docs/a.md#P004"], root, monkeypatch)
    lock = json.loads((root / "duizhao.lock").read_text(encoding="utf-8"))
    assert "P004" not in lock["previous"]["a.md"] and "P005" in lock["previous"]["a.md"]
    code, out, _err = run(["status", "--diff", "docs/a.md#P004"], root, monkeypatch)
    assert code == 0 and "not stale" in out


def test_diff_of_a_new_or_unaccepted_paragraph_says_why_there_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``status --diff`` said "its translation was accepted for this original" of a new block
    (to translate) and of a translation never accepted."""
    root = _site(tmp_path)
    _accept(root, monkeypatch)
    run(["update", "docs/a.md", "--from", "new.md", "--write"], root, monkeypatch)
    code, out, _err = run(["status", "--diff", "docs/a.md#P003"], root, monkeypatch)
    assert code == 0
    assert out == "docs/a.md#P003: not translated yet (a block to translate); nothing to compare\n"
    text = (root / "docs/a.md").read_text(encoding="utf-8")
    (root / "docs/a.md").write_text(text.replace("<!-- duizhao:todo -->", "新译文。", 1), "utf-8")
    code, out, _err = run(["status", "--diff", "docs/a.md#P003"], root, monkeypatch)
    assert code == 0 and "P003: its translation was never accepted" in out
    assert "accepted for this original" not in out


def test_old_ids_no_paragraph_uses_become_aliases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _site(tmp_path)
    short = NEW.replace(
        "A brand new paragraph about fault tolerance explains how the conductor restarts a "
        "failed prefill group without losing requests.\n\n",
        "",
    )
    (root / "new.md").write_text(short, encoding="utf-8")
    code, _out, err = run(["update", "docs/a.md", "--from", "new.md", "--write"], root, monkeypatch)
    assert code == 0, err
    lock = json.loads((root / "duizhao.lock").read_text(encoding="utf-8"))
    # 8 → 7 paragraphs: old P008 is now P007; no paragraph is P008 any more
    assert lock["aliases"]["a.md"] == {"P008": "P007"}
    assert "paragraphs: P001-P007" in (root / "docs/a.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "code_word"),
    [
        (
            lambda root: (root / "docs/a.md").write_text(
                ARTICLE.replace("T007 冷块被换出。\n///", "T007"), "utf-8"
            ),
            "DZ007",
        ),
        (lambda root: (root / "duizhao.lock").write_text("{not json", "utf-8"), "DZ303"),
        (
            lambda root: (root / "docs/a.md").write_text(
                ARTICLE.replace("/// paragraph | P005", "/// paragraph | P004"), "utf-8"
            ),
            "DZ304",
        ),
        (lambda root: (root / "new.md").write_text("# Only a heading\n", "utf-8"), "DZ304"),
        (
            lambda root: (root / "docs/a.removed.yml").write_text("removed: [unclosed", "utf-8"),
            "DZ304",
        ),
    ],
    ids=["unclosed-block", "unreadable-lock", "duplicate-id", "empty-original", "bad-removed-file"],
)
def test_refusals_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: object, code_word: str
) -> None:
    root = _site(tmp_path)
    assert callable(change)
    change(root)
    before = _snapshot(root)
    code, _out, err = run(["update", "docs/a.md", "--from", "new.md", "--write"], root, monkeypatch)
    assert code == 1, err
    assert f" {code_word} " in err and "nothing written" in err
    assert _snapshot(root) == before


def test_crlf_and_bom_survive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _site(tmp_path)
    (root / "docs/a.md").write_bytes(b"\xef\xbb\xbf" + ARTICLE.replace("\n", "\r\n").encode())
    code, _out, err = run(["update", "docs/a.md", "--from", "new.md", "--write"], root, monkeypatch)
    assert code == 0, err
    data = (root / "docs/a.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\n" not in data.replace(b"\r\n", b"")


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("paper:\n  title: P\n", 'paper:\n  title: P\n  version: "v9"\n'),
        (
            "paper:\n  title: P\n  version: v1  # arXiv\n",
            'paper:\n  title: P\n  version: "v9"  # arXiv\n',
        ),
        ("status: draft\n", 'status: draft\npaper:\n  version: "v9"\n'),
    ],
)
def test_version_is_written_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, front: str, expected: str
) -> None:
    article = (
        "---\ntitle: T\n"
        + front
        + "---\n\n/// paragraph | P001\n> A long enough original sentence for the test here.\n\n译文。\n///\n"
    )
    root = project(
        tmp_path,
        {"docs/a.md": article, "new.md": "A long enough original sentence for the test here.\n"},
    )
    code, _out, err = run(
        ["update", "docs/a.md", "--from", "new.md", "--version", "v9", "--write"], root, monkeypatch
    )
    assert code == 0, err
    assert (root / "docs/a.md").read_text(encoding="utf-8").startswith("---\ntitle: T\n" + expected)


@pytest.mark.parametrize(
    ("paper", "expected"),
    [
        ("{title: P, version: v1}", '{title: P, version: "v2"}'),
        ("{title: P, license: MIT}", '{title: P, license: MIT, version: "v2"}'),
        ("{}", '{version: "v2"}'),
    ],
)
def test_a_flow_paper_mapping_gets_its_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, paper: str, expected: str
) -> None:
    article = (
        f"---\ntitle: T\npaper: {paper}\n---\n\n"
        "/// paragraph | P001\n> A long enough original sentence for the test here.\n\n译文。\n///\n"
    )
    root = project(
        tmp_path,
        {"docs/a.md": article, "new.md": "A long enough original sentence for the test here.\n"},
    )
    code, _out, err = run(
        ["update", "docs/a.md", "--from", "new.md", "--version", "v2", "--write"],
        root,
        monkeypatch,
    )
    assert code == 0, err
    assert f"\npaper: {expected}\n" in (root / "docs/a.md").read_text(encoding="utf-8")


def test_a_paper_mapping_over_lines_in_flow_style_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    article = (
        "---\ntitle: T\npaper: {title: P,\n  license: MIT}\n---\n\n"
        "/// paragraph | P001\n> Original.\n\n译文。\n///\n"
    )
    root = project(tmp_path, {"docs/a.md": article, "new.md": "Original.\n"})
    before = (root / "docs/a.md").read_bytes()
    code, _out, err = run(
        ["update", "docs/a.md", "--from", "new.md", "--version", "v2", "--write"],
        root,
        monkeypatch,
    )
    assert code == 1 and "DZ304 cannot write 'paper: version:'" in err
    assert (root / "docs/a.md").read_bytes() == before


def test_a_template_sentence_about_another_thing_is_not_carried() -> None:
    """Step 9 (`_without_look_alikes`): a tutorial whose example changed keeps its sentences'
    frame and changes every name in them; the old translation names the wrong thing, so the
    old paragraphs are removed and the new ones new. A rewording that keeps a name (or a part
    of a path) is still carried."""
    intro = "This tutorial walks through a small documentation project from the first page on."
    outro = "When the build finishes, open the generated pages in a browser to check the result."
    old = [
        intro,
        "Next, let's install the `sphinx-autobuild` extension, which will let us rebuild the "
        "pages on every change and reload them in the browser.",
        "First, install `sphinx-autobuild`:",
        outro,
    ]
    new = [
        intro,
        "Next, let's install the `myst-parser` extension, which will let us write the pages in "
        "Markdown and mix them with reStructuredText ones.",
        "First, install `myst-parser`:",
        outro,
    ]
    fates = {m.old: m.fate for m in align(old, new).matches if m.old}
    assert fates[(1,)] == fates[(2,)] == "removed"
    kept = [old[0], "Create `_layouts/default.html` with the page's frame in it now.", old[3]]
    moved = [old[0], "Create the `_layouts` folder and a `default.html` file in it now.", old[3]]
    assert {m.old: m.fate for m in align(kept, moved).matches if m.old}[(1,)] != "removed"
