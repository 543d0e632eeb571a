"""The held-out labelled PDF corpora (tests/data/pdfcorpus-heldout, -heldout2 … -heldout8;
issue 20: "keep a quarter of the corpus aside until the end and report both halves"): real
papers the detector was never tuned on, each set labelled by ink and scored as the tuned corpus
is (``python -m bench.detect --set NAME``).

Here each set's form is checked (there, well formed, no file, sha256, title or source file
shared with any other set, the tuned corpus included), and in ``make fuzz`` (DUIZHAO_FUZZ=long)
its scores are held to floors: the first measurement, unseen, rounded down to 0.01, raised only
after classes found there were told in words to fixers who never read the set. Do not tune the
detector on these pages: a failure here is a class to reproduce and fix on a generated page or a
paper of the tuned corpus (tests/data/pdfcorpus), then re-measure here and raise the floors.
Per-template figures: bench/README.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from bench import pdfcorpus

from budget import HELD_OUT_IN_FUZZ, LONG
from heldout_pdf import assert_floors, assert_in_no_other_set, assert_well_formed


@dataclass(frozen=True)
class HeldOutSet:
    """A held-out set, what it holds at least, and its score floors."""

    name: str
    recall: float
    precision: float
    captions: float
    #: The worst template's floor (issue 20 wants 0.9).
    template: float
    min_papers: int
    min_styles: int = 1
    min_floats: int = 0
    min_tables: int = 0
    #: Both kinds labelled (the first two sets were labelled before tables were required).
    both_kinds: bool = True
    #: Each paper's JSON records its repository, file, commit, licence, template and pages.
    sourced: bool = True


SETS = (
    # 13 papers, 11 templates, 77 floats: 1.000 / 1.000 / 1.000 once the three failure classes
    # found here were reproduced on generated pages and fixed as classes
    # (tests/test_detect_classes.py); before that 0.935, 0.935, 0.922, usenix 0.833 / 0.833 /
    # 0.778, elsevier 0.750; before the reader gave each glyph the size it is drawn at (main at
    # 4ca2679): 0.597, 0.719, 0.506. Floors about two floats under the measurement.
    HeldOutSet("heldout", 0.97, 0.97, 0.97, 0.9, min_papers=13, both_kinds=False, sourced=False),
    # First measurement, unseen (main at c8fefe4, and unchanged after the first set's classes
    # were fixed: 16 papers, 12 templates, 46 pages, 91 floats): recall 0.868, precision 0.929,
    # captions 0.868. After its classes, told to the detector's author in words only and fixed
    # on generated pages (DETECT_VERSION 21): 0.967 / 0.978 / 0.967; its last two misses
    # reproduced on generated pages (a page-wide figure over a table caption in the other
    # column; line numbers every fifth line; DETECT_VERSION 22): 0.989 / 0.989 / 0.989.
    HeldOutSet(
        "heldout2",
        0.98,
        0.98,
        0.98,
        0.9,
        min_papers=16,
        min_styles=12,
        min_floats=60,
        both_kinds=False,
        sourced=False,
    ),
    # First measurement, unseen (main at 528e388 and again with the second set's last classes
    # fixed, DETECT_VERSION 22: 15 papers, 13 templates, 78 pages, 81 floats): recall 0.901,
    # precision 0.901, captions 0.889. Raised to the score after classes told in words to
    # fixers who never read the set (DETECT_VERSION 32, 2026-12-03): 0.914, 0.925, 0.901; at
    # DETECT_VERSION 47 (pdfA's body guards, session 36): 0.914, 0.949, 0.901; at 49 (pdf8: a
    # figure drawn under the running head takes none of its ink): 0.926, 0.962, 0.914. The
    # worst template at the first measurement: bmc (two legends with no body in the file were
    # given invented bodies, and a table's header row was cut off).
    HeldOutSet(
        "heldout3",
        0.925,
        0.96,
        0.91,
        0.2,
        min_papers=14,
        min_styles=8,
        min_floats=70,
        sourced=False,
    ),
    # First measurement, unseen (main at 69c99cf, 2026-12-03: 15 papers, 12 templates, 78
    # pages, 131 floats): recall 0.840, precision 0.924, captions 0.824. Raised to the score
    # after classes told in words to fixers who never read the set, on its 14 papers
    # (DETECT_VERSION 32): 0.902, 0.924, 0.893 (the 14 scored 0.852 / 0.929 / 0.836 at first).
    # The worst template at first: word-ieee at 0.000 (section-numbered labels "Fig.1.1" not
    # read), then onecol-article at 0.111 (three ruled tables captioned below: boxes of a few
    # points under each caption); after the fixes onecol-article 0.111, word-ieee 0.636. The set
    # held 15 papers, 131 floats (44 tables) when labelled; 14, 122 (39) since
    # ieeeaccess-colonsegnet went to the tuned corpus (SOURCES.md). DETECT_VERSION 50 (pdf8:
    # an underscore drawn as a rule in a caption's line is the caption's, no body under it):
    # 0.967, 0.992, 0.959 (onecol-article 0.111 -> 1.000; word-ieee 0.636 the worst).
    HeldOutSet(
        "heldout4",
        0.965,
        0.99,
        0.955,
        0.6,
        min_papers=14,
        min_styles=11,
        min_floats=120,
        min_tables=39,
    ),
    # First measurement, unseen (main at 6b6f35c's code, DETECT_VERSION 32, 2026-12-04: 13
    # papers, 11 templates, 45 pages, 67 floats, 23 tables): recall 0.881, precision 0.894,
    # captions 0.836; time per page median 0.031 s, p95 0.054 s, max 0.057 s. The worst
    # templates: acmart-acmtog at 0.500 (a table's box cut at its bottom), onecol-article at
    # 0.600 (tables of two stacked sub-tables: only the lower one boxed). tmlr-archcl left the
    # set when another version of it was tuned on (SOURCES.md): the 12 papers left (10
    # templates, 55 floats, 19 tables) scored 0.909 / 0.909 / 0.855 at DETECT_VERSION 32, and
    # 0.927 / 0.927 / 0.873 after its classes were told in words to fixers who never read the
    # set (DETECT_VERSION 39: frontiers 0.667 -> 1.000, onecol-article 0.600 -> 0.800, ijcai
    # 0.900 -> 0.800, acmart-acmtog still 0.500). DETECT_VERSION 48 (pdf8: a table's header
    # row recurring at page tops is a row, no running head): 0.964 / 0.964 / 0.909 (ijcai
    # 0.800 -> 1.000).
    HeldOutSet(
        "heldout5",
        0.96,
        0.96,
        0.905,
        0.5,
        min_papers=12,
        min_styles=10,
        min_floats=55,
        min_tables=19,
    ),
    # First measurement, unseen (DETECT_VERSION 32, main at ac0faac's code, 2026-12-04, and the
    # same at DETECT_VERSION 39: 10 papers, 10 templates, 62 pages, 90 floats, 49 tables):
    # recall 0.889, precision 0.899, captions 0.878; time per page median 0.018 s, p95 0.045 s,
    # max 0.070 s. The worst templates: libreoffice at 0.000 (page-tall double-spaced tables
    # captioned above: a strip under each caption boxed), plos at 0.500 (figures set beside
    # their captions in the left margin: boxed over the caption's column too), sn-jnl 0.867 (a
    # table's header cut at the top, a sidewaystable not found). After its classes were told
    # in words to a fixer who never read the set (pdfG, DETECT_VERSION 44): 0.956 / 0.966 /
    # 0.922; libreoffice recall 0.500 (two of four tables whole) and captions 0.000 (all four
    # cut), plos 1.000, sn-jnl unchanged at 0.867. Session 36 (classes told in words to pdfA,
    # pdfB, pdfC; DETECT_VERSION 47): 0.989 / 0.989 / 0.933 (the sidewaystable found).
    HeldOutSet(
        "heldout6",
        0.98,
        0.98,
        0.93,
        0.0,
        min_papers=10,
        min_styles=10,
        min_floats=90,
        min_tables=49,
    ),
    # First measurement, unseen (main at e09b6fd's code, DETECT_VERSION 44, 2026-12-07: 12
    # papers, 8 templates and stacks, 75 pages, 116 floats, 48 tables; labelled by two helpers
    # who never ran or read the detector): recall 0.940, precision 0.973, captions 0.914; time
    # per page median 0.036 s, p95 0.064 s, max 0.084 s. The same at DETECT_VERSION 46 (pdfA,
    # pdfC merged). The worst templates: copernicus 0.800 (a table not found, a figure boxed
    # over both columns; captions 0.700), iop 0.818 (two tables boxed over the column beside them), word-2col
    # 0.824 (a table's one-row continuation, a figure printed twice). DETECT_VERSION 48
    # (pdf8: bare page numbers rising at one height are folios, never a page-top table's
    # body): 0.957, 0.991, 0.931 (iop 1.000). DETECT_VERSION 51 (pdf8 and pdf9 merged; pdf9: a
    # table broken across columns or pages reported in parts, figures/continued.py): 0.966,
    # 0.991, 0.940 (word-2col's Table 5 continuation found).
    HeldOutSet(
        "heldout7",
        0.96,
        0.99,
        0.935,
        0.7,
        min_papers=12,
        min_styles=8,
        min_floats=116,
        min_tables=48,
    ),
    # First measurement, unseen (main at 8d2e7c0's code, DETECT_VERSION 47, 2026-12-08: 12
    # papers, 12 templates and stacks, 78 pages, 128 floats, 38 tables; labelled by two helpers
    # who never ran or read the detector): recall 0.945, precision 0.960, captions 0.930; time
    # per page median 0.059 s, p95 0.151 s, max 0.193 s (machine loaded). The worst templates:
    # vldb 0.833 (a table and a figure side by side boxed as one figure), pandoc 0.833 (a
    # table's captionless continuation on the next page), chrome 0.875 (a figure's box grown
    # over the text above it; a table caption cut: captions 0.750, the worst template's
    # lowest), IEEEtran 0.900 (a table and a figure stacked in one column boxed together).
    # Those classes told in words to pdf9, which never read the set (continued tables, a table
    # stacked over a figure, compound hyphens kept), and pdf8 merged (heldout3-7's classes):
    # the same overall at DETECT_VERSION 51, 0.945 / 0.960 / 0.930, two changes cancelling:
    # IEEEtran 0.900 -> 0.950 (the stacked table no longer runs over the figure) and icml2024
    # 1.000 -> 0.833 (the same rule cuts a page-wide table at a rule in its middle).
    HeldOutSet(
        "heldout8",
        0.94,
        0.95,
        0.92,
        0.7,
        min_papers=12,
        min_styles=12,
        min_floats=128,
        min_tables=38,
    ),
)
ALL_CORPORA = {"tuned": pdfcorpus.CORPUS} | {s.name: pdfcorpus.SETS[s.name] for s in SETS}
BY_NAME = {s.name: s for s in SETS}


def _papers(name: str) -> list[pdfcorpus.Paper]:
    return pdfcorpus.load(pdfcorpus.SETS[name])


def _others(name: str) -> tuple[Path, ...]:
    return tuple(path for other, path in ALL_CORPORA.items() if other != name)


@pytest.mark.parametrize("name", BY_NAME)
def test_the_heldout_set_is_there_and_well_formed(name: str) -> None:
    held, papers = BY_NAME[name], _papers(name)
    assert_well_formed(
        papers,
        _others(name),
        min_papers=held.min_papers,
        min_styles=held.min_styles,
        min_floats=held.min_floats,
        min_tables=held.min_tables,
    )
    if held.both_kinds:
        assert {label.kind for paper in papers for label in paper.labels} == {"figure", "table"}


@pytest.mark.parametrize("name", ["tuned", *BY_NAME])
def test_no_overlap_of_a_labelled_set_with_any_other(name: str) -> None:
    """No paper of a set (the tuned corpus too: a paper fetched for tuning must be new) is in
    another set by file name, sha256, title or source file."""
    assert_in_no_other_set(pdfcorpus.load(ALL_CORPORA[name]), _others(name))


@pytest.mark.parametrize("name", [s.name for s in SETS if s.sourced])
def test_each_paper_of_the_heldout_set_records_where_it_came_from(name: str) -> None:
    """Every paper names its repository, file, commit, licence, template and kept pages."""
    for paper in _papers(name):
        data = json.loads(paper.pdf.with_suffix(".json").read_text("utf-8"))
        source = data["source"]
        for key in ("repo", "path", "commit", "licence", "template", "title", "kept_pages"):
            assert source.get(key), (paper.slug, key)
        assert len(source["commit"]) == 40, paper.slug
        assert len(source["kept_pages"]) == data["pages"], paper.slug


def test_a_paper_cut_again_from_the_same_file_overlaps(tmp_path: Path) -> None:
    """Other pages of the same PDF (same repository and path, another sha256 and title) are the
    same paper: the overlap check refuses them (the tuned corpus took ieeeaccess-colonsegnet's
    pages 4 and 9 while the fourth set held pages 4-10, under a longer title)."""
    papers = _papers("heldout5")
    data = json.loads(papers[0].pdf.with_suffix(".json").read_text("utf-8"))
    data["sha256"], data["source"]["title"] = "0" * 64, "another title"
    (tmp_path / papers[0].pdf.with_suffix(".json").name).write_text(json.dumps(data), "utf-8")
    assert_in_no_other_set(papers[1:], (tmp_path,))
    with pytest.raises(AssertionError, match=papers[0].slug):
        assert_in_no_other_set(papers[:1], (tmp_path,))


@pytest.mark.skipif(not LONG, reason=HELD_OUT_IN_FUZZ)
@pytest.mark.parametrize("name", BY_NAME)
def test_heldout_detection_scores_hold_their_floors(name: str) -> None:
    held = BY_NAME[name]
    assert_floors(
        _papers(name),
        recall=held.recall,
        precision=held.precision,
        captions=held.captions,
        template=held.template,
    )
