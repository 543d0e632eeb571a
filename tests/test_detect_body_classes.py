"""Body-geometry failure classes of the figure detector (issue 20), found on held-out sets and
told in words only (their pages are never opened here), each reproduced on a real paper of the
tuned corpus (tests/data/pdfcorpus, sources in its SOURCES.md) and fixed as a class:

1. A page-wide table whose caption, above it, is short and set in one column's width, its top
   rule a little more than a leading under the caption (IEEE Access): the table's own rule
   across the text width says it spans the page, not the caption's column.
2. BMC's framed figure legends (the figures supplied apart) boxed as false figures over the
   text near the top of the page: a frame's side is the rule nearest its caption (the next
   legend's frame, a line under it, has its top rule within reach too), and an underscore
   drawn as a rule in the caption's own lines ("Bla1_64") is nothing else inside the frame.
3. A BMC table captioned above whose top rule is drawn through the loose box of the
   caption's last line: the caption went on over the header row under the rule (the same
   size, no rule found between), and the table's box began under the header.
"""

from __future__ import annotations

from bench import pdfcorpus

from duizhao.figures.detect import detect_cached, detect_figures

#: the IoU at which the corpus is scored (bench.pdfcorpus)
IOU = 0.8


def _paper(slug: str) -> pdfcorpus.Paper:
    return next(p for p in pdfcorpus.load() if p.slug == slug)


def _holds(slug: str, printed: str) -> None:
    """The float ``printed`` of corpus paper ``slug`` is found on its page at IoU ≥ 0.8."""
    paper = _paper(slug)
    label = next(lb for lb in paper.labels if lb.printed == printed)
    found = [f for f in detect_figures(paper.pdf) if f.page == label.page and f.label == printed]
    assert found, (printed, "not found")
    assert pdfcorpus.iou(found[0].box, label.box) >= IOU, (printed, found[0].box, label.box)


def test_a_page_wide_table_under_a_caption_of_one_columns_width() -> None:
    _holds("ieeeaccess-colonsegnet", "TABLE 1")


def _only_labels(slug: str, pages: set[int], unboxed: set[str]) -> None:
    """On ``pages`` of corpus paper ``slug`` the detector finds its labels and nothing else,
    and reports the captions ``unboxed`` without a body."""
    paper = _paper(slug)
    found = detect_cached(paper.pdf, None)
    got = sorted((f.page, f.label) for f in found.figures if f.page in pages)
    assert got == sorted((lb.page, lb.printed) for lb in paper.labels if lb.page in pages), got
    assert {u.label for u in found.unboxed if u.page in pages} == unboxed


def test_framed_legends_stacked_a_line_apart_are_no_figures() -> None:
    legends = {"Figure 1", "Figure 2", "Figure 3", "Figure 4"}
    _only_labels("bmc-bigpint", {11, 12}, legends)


def test_framed_legends_with_underscores_drawn_as_rules_are_no_figures() -> None:
    _only_labels("bmc-sparqlbench", {17}, {"Figure 1", "Figure 2", "Figure 3", "Figure 4"})


def test_a_caption_ends_at_a_table_rule_drawn_through_its_last_line() -> None:
    paper = _paper("bmc-smlogp")
    label = next(lb for lb in paper.labels if lb.printed == "Table 2")
    found = next(f for f in detect_figures(paper.pdf) if f.label == "Table 2")
    assert found.caption.endswith("on the external test sets."), found.caption
    assert found.box[1] <= label.box[1] + 1, (found.box, label.box)  # the header row in
