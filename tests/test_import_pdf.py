"""`duizhao import --from paper.pdf`: layout analysis of generated and real two-column papers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from conftest import Site
from duizhao.article import read_article
from duizhao.cli import main
from duizhao.figures.spec import load_spec
from duizhao.importer import PdfImport, import_pdf
from duizhao.importer.pdf import Float, figure_text
from duizhao.importer.pdf.lines import small_type as _small_type
from duizhao.pdf.captions import caption_match
from duizhao.pdf.geometry import Box, merge_boxes
from duizhao.pdf.hyphens import Joiner
from duizhao.pdf.read import Char, FontStyle, read_path
from duizhao.pdf.text import line_text, normalize_text
from duizhao.pdf.text import make_line as _make_line
from pdf_papers import make_ieee_paper

PAPERS = Path(__file__).parent / "data" / "papers"
ACM = PAPERS / "import-acm-samba.pdf"
IEEE = PAPERS / "import-ieee-raft-webrtc.pdf"
AMSART = PAPERS / "import-amsart-yellowpaper.pdf"
AMSART_MATH = PAPERS / "import-amsart-yellowpaper-p21.pdf"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> PdfImport:
    return import_pdf(make_ieee_paper(tmp_path_factory.mktemp("gen") / "paper.pdf"))


@pytest.fixture(scope="module")
def acm() -> PdfImport:
    return import_pdf(ACM)


@pytest.fixture(scope="module")
def ieee() -> PdfImport:
    return import_pdf(IEEE)


def headings(result: PdfImport) -> list[str]:
    return [c.text for c in result.chunks if c.is_heading]


def paragraphs(result: PdfImport) -> list[str]:
    return [c.text for c in result.chunks if c.is_numbered]


def references(result: PdfImport) -> list[str]:
    return [c.text for c in result.chunks if c.kind == "reference"]


def figures(result: PdfImport) -> list[tuple[int, str]]:
    """(index in the chunks, text) of each figure candidate."""
    return [(i, c.text) for i, c in enumerate(result.chunks) if c.kind == "figure"]


def authors(result: PdfImport) -> list[str]:
    found = result.paper.get("authors", [])
    return found if isinstance(found, list) else [found]


#: Artefacts of text-stream extraction that the layout import must never produce.
ARTEFACTS = {
    "space inside brackets at a font change": re.compile(r"\\\[ |(?<!\\) \\\]"),
    "space before punctuation": re.compile(r"[A-Za-z\]\)] [,.;:](?!\.)"),
    "doubled glyphs": re.compile(r"\b([A-Za-z])\1([a-z])\2([a-z])\3"),
    "hyphen left at a line break": re.compile(r"[A-Za-z0-9]- [a-z]"),
    "caption in a paragraph": re.compile(r"(?:Figure|Fig\.|Table|TABLE) [0-9IVX]+: [A-Z]"),
    "ligature": re.compile("[\ufb00-\ufb06]"),
}


def artefacts(result: PdfImport) -> list[tuple[str, str]]:
    texts = paragraphs(result) + references(result)
    found = [(name, t) for t in texts for name, rx in ARTEFACTS.items() if rx.search(t)]
    for f in result.floats:
        found.extend(("caption in a paragraph", t) for t in texts if f.caption[:40] in t)
    return found


# ---------------------------------------------------------------------------------------------
# A generated IEEE-style paper: every expectation is known exactly


def test_generated_paper_headings_paragraphs_and_references(generated: PdfImport) -> None:
    assert headings(generated) == [
        "Abstract",
        "I. INTRODUCTION",  # small capitals drawn twice (fake bold)
        "A. Related Work",
        "B. Method",
        "II. RESULTS",
        "2.1 A Rather Long Numbered Heading That Needs Two Lines of the Column",  # wrapped
        "REFERENCES",
    ]
    assert [c.level for c in generated.chunks if c.is_heading] == [2, 2, 3, 3, 2, 3, 2]
    assert paragraphs(generated) == [
        "We study how the layout of a page tells the structure of a paper: its columns, floats, "
        "headings and references. The method reads every glyph with its font.",
        # Spacing from geometry (no space at the font change of "[36]"), hyphenation joined
        # with a dictionary check, author text escaped for Markdown.
        "Serving large language models needs very fast communication between the accelerators "
        "of a cluster. Systems such as Rust \\[36\\] and its Owned&lt;T> types help us here, "
        "and the small counters of Table I are kept as 32-bit integers.",
        "The second paragraph starts with an indent of its own and ends on a short line.",
        # Interrupted by a float at the top of the next column: still one paragraph.
        "Earlier systems drew the same picture many times over, as Fig. 1 shows for three runs "
        "of the benchmark. This paragraph goes on in the right-hand column, after all of the "
        "float that stands above it, in the very same sentence, and ends here.",
        "We read the glyphs of each page with their boxes, sizes and fonts, and find the gap "
        "between the two columns of the page from the lines of body text. The lines then follow "
        "in reading order, and the floats leave the text flow together with their captions and "
        "the text drawn inside them.",
        "The method finds every heading and every float of the generated paper, and a "
        "Vector&lt;u8> stays text, literally.",
        "Wide headings wrap like this one and stay one heading.",
    ]
    assert references(generated) == [
        "\\[1\\] A. Author, B. Writer and C. Reader, “A rather long title of a paper that needs "
        "two lines,” in Proc. Examples, 2020.",
        "\\[2\\] C. Coder, “Another title,” J. Tests, 2021.",
    ]


def test_generated_paper_front_matter_and_floats(generated: PdfImport) -> None:
    assert generated.title == "Layout Analysis for Owned<T> Papers"
    assert generated.paper == {
        "title": "Layout Analysis for Owned<T> Papers",
        "authors": ["Ada Lovelace", "Alan Turing"],
    }
    assert [(f.kind, f.label, f.page) for f in generated.floats] == [
        ("figure", "Fig. 1", 1),
        ("table", "TABLE I", 2),
        ("figure", "Fig. 2", 2),
    ]
    texts = [c.text for c in generated.chunks]
    found = figures(generated)
    # Each float right after the paragraph that first refers to it (Table I is on page 2),
    # as a marker with its key, page and box in the units of .figures.yml.
    (table, marker_t), (fig, marker_f), (last, marker_2) = found
    assert marker_t.startswith("<!-- duizhao:table table-1 page: 2 box: [")
    assert "Table I" in texts[table - 1]
    assert marker_f.startswith("<!-- duizhao:figure 1 page: 1 box: [")
    assert marker_f.endswith("] Fig. 1. Throughput of three runs on one superpod. -->")
    assert "Fig. 1 shows" in texts[fig - 1]
    # The box holds the drawing and its labels, from the top-left, in points.
    x0, y0, x1, y1 = next(f.box for f in generated.floats if f.label == "Fig. 1")
    assert 320 < x0 < 340 and 140 < y0 < 155 and 520 < x1 < 545 and 265 < y1 < 280
    # Plot legends ("1 Baseline") and axis labels never become headings or paragraphs.
    assert not any("Baseline" in t or "Latency (ms)" in t for t in texts)
    assert not any("COUNTERS" in t or "64-bit" in t for t in texts if "duizhao:" not in t)
    # A float across both columns that nothing refers to stays where it stood (page 2's foot,
    # after the references), and takes none of the text above it.
    assert last == len(generated.chunks) - 1 and "Fig. 2." in marker_2
    wide = next(f.box for f in generated.floats if f.label == "Fig. 2")
    assert 590 < wide[1] < 605 and wide[0] < 100 and wide[2] > 510
    assert len(references(generated)) == 2


def test_generated_paper_notes_name_pages_and_lines(generated: PdfImport) -> None:
    notes = [n.format("paper.pdf") for n in generated.notes]
    assert [n for n in notes if "running head" in n] == [
        "paper.pdf: dropped: page 1, line 19: dropped running head/foot '1'",
        "paper.pdf: dropped: page 2, line 19: dropped running head/foot '2'",
    ]
    assert any(n.startswith("paper.pdf: warning: page 2: TABLE I found, box [") for n in notes)
    assert generated.count("heading") == 7 and generated.count("reference") == 2


def test_references_can_be_numbered(tmp_path: Path) -> None:
    result = import_pdf(make_ieee_paper(tmp_path / "p.pdf"), number_references=True)
    assert references(result) == []
    assert paragraphs(result)[-1].startswith("\\[2\\] C. Coder")


# ---------------------------------------------------------------------------------------------
# Real papers (see tests/data/papers/SOURCES.md)


def test_acm_paper(acm: PdfImport) -> None:
    assert acm.title == "Samba: Enabling Confidential and Collaborative Cloud Functions"
    assert authors(acm) == ["Matthew Berthoud", "Stephen Herwig"]
    assert headings(acm) == [
        "Abstract",
        "CCS Concepts",
        "Keywords",
        "1 Introduction",
        "2 Background",
        "3 Goals & Assumptions",
        "4 Design",
        "5 Implementation",
        "5.1 Proxy Re-encryption Library",
        "5.2 Samba Library",
        "5.3 Samba-Lite",
        "6 Evaluation",
        "7 Future Work",
        "7.1 Integration with Knative",
        "7.2 Control Flow Integrity",
        "7.3 Running Functions in TEEs",
        "8 Conclusion",
        "References",
    ]
    # 70 paragraphs of prose and list items by hand count; lists and a boxed statement vary.
    assert 65 <= len(paragraphs(acm)) <= 85
    assert artefacts(acm) == []
    # One unit per reference, in order: none merged, none split.
    refs = references(acm)
    assert [re.match(r"\\\[(\d+)\\\]", r).group(1) for r in refs] == [  # type: ignore[union-attr]
        str(n) for n in range(1, 50)
    ]
    assert [(f.label, f.page) for f in acm.floats] == [
        ("Figure 1", 3),
        ("Figure 2", 5),
        ("Figure 3", 5),
        ("Figure 4", 6),
        ("Figure 5", 6),
    ]
    # Math letters beyond the BMP arrive from PDFium as UTF-16 halves: put back together.
    assert any("private key 𝑠𝑘" in p for p in paragraphs(acm))
    # Code listings are kept verbatim and unnumbered, not as letter-spaced paragraphs.
    code = [c.text for c in acm.chunks if c.kind == "verbatim"]
    assert any("type SambaMessage struct {" in c for c in code)
    assert not any(re.search(r"\b[a-z] [a-z] [a-z] [a-z]\b", p) for p in paragraphs(acm))
    # Running heads and the copyright footnote are dropped, and said so.
    messages = [n.message for n in acm.notes if n.severity == "dropped"]
    assert "page 2, line 54: dropped running head/foot 'Berthoud et al.'" in messages
    assert not any("Berthoud et al." in p for p in paragraphs(acm))


def test_ieee_paper(ieee: PdfImport) -> None:
    assert (ieee.title or "").startswith("Peer-to-peer Browser Middleware for Communication")
    assert authors(ieee) == ["Joel Martin", "David Levine"]
    assert headings(ieee) == [
        "Abstract",
        "1. Use Case/Scenario",
        "2. Background",
        "2.1. Raft",
        "2.2. WebRTC",
        "2.2.1. WebRTC APIs",  # run-in headings of IEEE's Computer Society style
        "2.2.2. WebRTC Protocols",
        "3. Design and Implementation",
        "3.1. Raft.js Core Library",
        "3.2. PeerJS",
        "3.3. Signaling Server",
        "3.4. Client",
        "3.5. Chat Application",
        "4. Experimental Results",
        "4.1. Test Setup",
        "4.2. Outcome",
        "5. Future Work",
        "6. Conclusion",
        "Acknowledgments",
        "References",
    ]
    assert 45 <= len(paragraphs(ieee)) <= 60
    assert artefacts(ieee) == []
    assert [r.split("\\]")[0] for r in references(ieee)] == [f"\\[{n}" for n in range(1, 12)]
    assert [f.label for f in ieee.floats] == [f"Figure {n}" for n in range(1, 8)]
    # The abstract is its own unit, without its "Abstract—" lead.
    assert paragraphs(ieee)[0].startswith("We describe a browser-based peer-to-peer")


@pytest.fixture(scope="module")
def amsart() -> PdfImport:
    """amsart (the Ethereum Yellow Paper, page 1): a title in bold body-size capitals, author
    block and abstract in 7 pt (body 9 pt), run-in subsections with the number in roman."""
    return import_pdf(AMSART)


def test_amsart_title_in_body_size_capitals(amsart: PdfImport) -> None:
    assert amsart.title == (
        "ETHEREUM: A SECURE DECENTRALISED GENERALISED TRANSACTION LEDGER "
        "BYZANTIUM REVISION (b5aded7 - 2018-01-22)"
    )
    # Name, affiliation and e-mail in one size: the name is the first line of the stack.
    assert authors(amsart) == ["GAVIN WOOD"]
    assert not any(p.startswith("ETHEREUM") for p in paragraphs(amsart))


def test_amsart_abstract_in_small_type_is_kept_and_nothing_is_lost(amsart: PdfImport) -> None:
    texts = [c.text for c in amsart.chunks]
    paras = paragraphs(amsart)
    # The abstract: small type, numbered paragraphs, its lines joined (a short last line of a
    # block across the gutter does not end the paragraph), nothing before it.
    assert texts[0] == "Abstract"  # "Abstract." in small capitals, run in
    assert paras[0].startswith("The blockchain paradigm when coupled with cryptographically")
    assert paras[0].endswith("a transactional singleton machine with shared-state.")
    assert paras[1].startswith("Ethereum implements this paradigm in a generalised manner.")
    assert paras[1].endswith("the future hurdles we envisage.")
    assert texts[3] == "1. Introduction"
    # Nothing of the page is lost: every letter and digit drawn on it (but the page number)
    # is in the title, the paragraphs and headings, or the report's author block.
    pages = read_path(AMSART).pages
    drawn = Counter(
        ch.text for ch in pages[0].chars if ch.text.isalnum() and ch.y0 < 0.9 * pages[0].height
    )
    kept = [amsart.title or "", *texts]
    kept += [n.message for n in amsart.notes if "author block" in n.message]
    found = Counter(ch for t in kept for ch in t if ch.isalnum())
    assert drawn - found == Counter()
    assert not any("small text" in n.message for n in amsart.notes)


def test_amsart_run_in_subsections_with_the_number_in_roman(amsart: PdfImport) -> None:
    assert [(c.text, c.level) for c in amsart.chunks if c.is_heading] == [
        ("Abstract", 2),
        ("1. Introduction", 2),
        ("1.1. Driving Factors", 3),  # "1.1." in roman, "Driving Factors." in bold
        ("1.2. Previous Work", 3),
    ]
    texts = [c.text for c in amsart.chunks]
    # The rest of the heading's line opens the paragraph that follows it.
    after = texts[texts.index("1.1. Driving Factors") + 1]
    assert after.startswith("There are many goals of this project; one key goal is")
    after = texts[texts.index("1.2. Previous Work") + 1]
    assert after.startswith("Buterin \\[2013a\\] first proposed the kernel of this work")
    assert not any(p.startswith(("1.1.", "1.2.")) for p in paragraphs(amsart))


def test_amsart_formulas_keep_their_scripts_and_displays_are_one_unit() -> None:
    """Yellow Paper page 21: subscripts drawn off their line (``log`` + ``P`` + a 5 pt ``1``)
    and displayed equations of mixed sizes, numbered "(243)" at the left margin. The file
    has an empty page 1, so that page 21 is not read as a first page (where small type
    before the first section is kept whatever it is)."""
    result = import_pdf(AMSART_MATH)
    texts = [c.text for c in result.chunks]
    # Nothing of the page is lost: every letter and digit drawn on it (but the running head,
    # with the page number, in 6 pt at the top) is in a chunk.
    pages = read_path(AMSART_MATH).pages
    page = pages[1]
    drawn = Counter(
        c
        for ch in page.chars
        if ch.y0 > 0.1 * page.height
        for c in normalize_text(ch.text)
        if c.isalnum()
    )
    found = Counter(c for t in texts for c in t if c.isalnum())
    assert drawn - found == Counter()
    # Alone, the running head cannot be told from small type by its repeating on every page.
    small = [n.message for n in result.notes if "small text" in n.message]
    assert small == [
        "page 2, line 1: dropped small text (footnote or figure text?) "
        "'ETHEREUM: A SECURE DECENTRALISED GENERALISED TRANSACTION LE…'"
    ]
    # A script drawn off the baseline is back in its line, in reading order, and the
    # paragraph it sat in is one paragraph.
    para = next(p for p in paragraphs(result) if p.startswith("We define P1 to be a point"))
    assert "we define logP1 (P) to be the smallest natural number" in para
    assert para.endswith("logP1 (P) is at most q - 1.")
    para = next(p for p in paragraphs(result) if p.startswith("We define G2 to be"))
    assert para.endswith("With this definition, logP2 (P) is at most q - 1.")
    # Each display, from its first numbered line to its last, is one unnumbered unit.
    displays = [c.text for c in result.chunks if c.kind == "verbatim"]
    assert [d.split("\n")[1].split(")")[0] for d in displays] == [
        "(242",
        "(243",
        "(247",
        "(248",
        "(249",
        "(250",
        "(251",
        "(255",
    ]
    group = displays[1]
    for piece in ("(244)", "(245)", "(246)", "λ ≡", "X2 - X1", "(0, 0) otherwise"):
        assert piece in group
    # Verbatim: the text as drawn, not escaped for Markdown
    assert displays[-1].endswith("(259) x1 ≡ δp(x[64..95])\n(260) y1 ≡ δp(x[96..127])\n```")
    assert not any(p.startswith("(24") or p.startswith("(25") for p in paragraphs(result))
    # The words between displays stay numbered paragraphs.
    assert "We define a binary operation + on C1 with" in paragraphs(result)


# ---------------------------------------------------------------------------------------------
# The pieces


def test_a_line_with_body_size_letters_is_not_small_type() -> None:
    """Yellow Paper page 8, (65): "G" + "txcreate" + " if T" + "t" + " = ∅": most of its
    glyphs are 6 pt scripts, but the line is a formula of the body text, not a footnote."""
    fonts = [FontStyle("CMR9")]

    def glyphs(spec: list[tuple[str, float]]) -> list[Char]:
        out, x = [], 100.0
        for text, size in spec:
            for t in text:
                out.append(Char(t, x, 100.0, x + 0.5 * size, 100.0 + size, size))
                x += 0.5 * size
            x += 2.0
        return out

    formula = _make_line(
        1, glyphs([("G", 9.0), ("txcreate", 6.0), ("ifT", 9.0), ("t", 6.0)]), fonts
    )
    footnote = _make_line(1, glyphs([("1", 5.0), ("Notably", 6.0)]), fonts)
    assert formula.size == 6.0 and footnote.size == 6.0  # the most common size, by glyphs
    assert not _small_type(formula, 9.0)
    assert _small_type(footnote, 9.0)


def test_a_word_gap_narrowed_by_an_italic_overhang_is_still_a_space() -> None:
    """USENIX page 2: "process of moving" in italics; the loose box of the italic f reaches
    into the word gaps (0.06 em left between boxes, under the 0.11 em threshold). PDFium's
    generated space marks the gap; a letter-spaced listing, whose letters all stand 0.1 em
    apart with generated spaces between them, gets no space inside its words."""
    fonts = [FontStyle("NimbusRomNo9L-ReguItal", italic=True)]

    def glyphs(spec: list[tuple[str, float, bool]], sizes: str = "") -> list[Char]:
        out, x = [], 100.0
        for i, (ch, gap, generated) in enumerate(spec):
            size = 7.0 if i < len(sizes) and sizes[i] == "s" else 10.0
            x += gap * size
            out.append(Char(ch, x, 100.0, x + 0.5 * size, 100.0 + size, size, 0, False, generated))
            x += 0.5 * size
        return out

    prose = glyphs(
        [
            ("o", 0.0, False),
            ("f", -0.15, False),
            ("m", 0.06, True),
            ("o", 0.0, False),
            ("r", 0.0, False),
            ("e", 0.01, False),
            ("x", 0.06, False),
        ]
    )
    assert line_text(prose, fonts) == "of morex"  # a gap without PDFium's space stays shut
    listing = glyphs([(ch, 0.105, i in (2, 4)) for i, ch in enumerate("ReEncrypt")])
    assert line_text(listing, fonts) == "ReEncrypt"
    script = glyphs([("t", 0.0, False), ("l", 0.0, False), ("a", 0.06, True)], "bss")
    assert line_text(script, fonts) == "tla"  # a math script's italic correction


def test_usenix_tight_italic_line_keeps_its_word_spaces(usenix: PdfImport) -> None:
    text = paragraphs(usenix)
    assert any(
        "the overall orchestration and process of moving a cloud service from the source" in p
        for p in text
    )


def test_hyphenation_is_joined_with_a_dictionary_check() -> None:
    joiner = Joiner(whole={"communication", "bit"}, compounds={"well-known"})
    assert joiner.join(["fast commu-", "nication"]) == "fast communication"
    assert joiner.join(["a 32-", "bit counter"]) == "a 32-bit counter"
    assert joiner.join(["state-of-the-", "art"]) == "state-of-the-art"
    assert joiner.join(["a well-", "known fact"]) == "a well-known fact"
    assert joiner.join(["GPU-", "NPU links"]) == "GPU-NPU links"
    assert joiner.join(["see https://x.org/a-", "b/"]) == "see https://x.org/a-b/"
    assert joiner.uncertain == []
    assert joiner.join(["unseen hyphen-", "ation"]) == "unseen hyphenation"
    assert joiner.uncertain == [(0, 0, "hyphen-ation")]


def test_a_compound_broken_at_its_hyphen_keeps_it() -> None:
    """USENIX: "goal-" + "oriented" (the paper prints "network-oriented", never
    "goaloriented") and "end-" + "users" (it prints "end-user") keep their hyphens; a
    syllable that is no word of the paper ("Mi-", "cus-", "trans-") is joined."""
    whole = {"the", "migrators", "formation", "tomer", "process"}
    compounds = {"network-oriented", "end-user"}
    joiner = Joiner(whole, compounds)
    assert joiner.join(["and goal-", "oriented relocation"]) == "and goal-oriented relocation"
    assert joiner.join(["the end-", "users services"]) == "the end-users services"
    assert joiner.join(["The Mi-", "grators take"]) == "The Migrators take"
    assert joiner.join(["a cus-", "tomer"]) == "a customer"
    assert joiner.join(["trans-", "formation"]) == "transformation"
    assert joiner.join(["pro-", "cess"]) == "process"
    assert joiner.kept == [(0, 0, "goal-oriented")]


def test_usenix_compounds_broken_at_a_line_end_keep_their_hyphen(usenix: PdfImport) -> None:
    text = " ".join(paragraphs(usenix))
    assert "goal-oriented service instance relocation" in text
    assert "aware of the end-users service instances" in text
    assert "goaloriented" not in text and "endusers" not in text
    assert "The Migrators take care of" in text


def test_unicode_is_normalised_where_safe() -> None:
    assert normalize_text("\ufb01nd e\ufb03cient \uff21\uff22 a\u00a0b") == "find efficient AB a b"
    # Meaning-bearing characters stay: superscripts, ℝ, ½, ∗, math italic letters.
    assert normalize_text("x² ∈ ℝ, ½, a∗b, 𝑠𝑘") == "x² ∈ ℝ, ½, a∗b, 𝑠𝑘"


def test_caption_lines() -> None:
    assert caption_match("Figure 3: Overview.") == ("figure", "Figure 3", 3)
    assert caption_match("Fig. 12. Latency") == ("figure", "Fig. 12", 12)
    assert caption_match("TABLE II") == ("table", "TABLE II", 2)
    assert caption_match("Table 4 Sizes") is None  # a sentence, not a caption
    assert caption_match("Figure 3 shows the design.") is None


def test_figure_candidates_become_placements_or_markers() -> None:
    fig = Float(4, "figure", "Figure 3", 3, "Figure 3: A -- B.", (72.4, 96, 540, 380), (0, 0, 1, 1))
    assert figure_text(fig) == (
        "<!-- duizhao:figure 3 page: 4 box: [72, 96, 540, 380] Figure 3: A - - B. -->"
    )
    assert figure_text(fig, {"3"}) == "/// figure | 3\n///"
    table = Float(2, "table", "TABLE II", 2, "TABLE II", (0, 0, 1, 1), (0, 0, 1, 1))
    assert figure_text(table, {"3", "table-2"}) == "/// figure | table-2\n///"


# ---------------------------------------------------------------------------------------------
# The command, and a strict build of what it wrote


def test_cli_creates_the_article_with_paper_fields_and_builds_strictly(
    make_site: Callable[..., Site], chdir: Callable[[Path], None]
) -> None:
    site = make_site({"index.md": "# Home\n"})
    chdir(site.root)
    (site.docs / "papers").mkdir()
    pdf = make_ieee_paper(site.root / "paper.pdf")
    result = CliRunner().invoke(main, ["import", "docs/papers/layout.md", "--from", str(pdf)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "docs/papers/layout.md: imported 7 paragraphs (P001-P007) and 7 headings; "
        "paragraphs: P001-P007\n"
    )
    report = result.stderr.splitlines()
    assert report[0] == (
        f"import report for {pdf}: 7 paragraphs, 7 headings, 3 figure candidates, "
        "0 code/HTML blocks, 0 footnotes, 2 references; 9 notes to review:"
    )
    assert f"{pdf}: dropped: page 2, line 19: dropped running head/foot '2'" in report
    article = read_article(site.docs / "papers/layout.md")
    assert article.title == "Layout Analysis for Owned<T> Papers"
    assert article.meta["paper"] == {
        "title": "Layout Analysis for Owned<T> Papers",
        "authors": ["Ada Lovelace", "Alan Turing"],
    }
    assert [p.id for p in article.paragraphs] == [f"P00{n}" for n in range(1, 8)]
    text = (site.docs / "papers/layout.md").read_text(encoding="utf-8")
    # The paper lies in the project: its floats go into layout.figures.yml and are placed
    # where the text first refers to them, and the article counts its figures.
    assert "/// figure | 1\n///" in text and "/// figure | table-1\n///" in text
    assert "<!-- duizhao:figure" not in text and "<!-- duizhao:table" not in text
    assert article.meta["figures"] == 2
    spec = load_spec(site.docs / "papers/layout.figures.yml", site.root)
    assert spec.diagnostics == [] and sorted(spec.declared) == ["1", "2", "table-1"]
    assert "docs/papers/layout.figures.yml: 3 figure and table entries added" in result.stderr
    # The author states the licence (the PDF does not) and writes the 导言 where the import
    # left its to-do marker (else DZ009); then the strict build passes.
    text = text.replace("  authors:", "  license: CC-BY-4.0\n  authors:", 1)
    text = text.replace("## 导言\n\n<!-- duizhao:todo -->", "## 导言\n\n导言。", 1)
    (site.docs / "papers/layout.md").write_text(text, encoding="utf-8")
    site.build(strict=True)
    page = site.html("papers/layout.md")
    assert 'id="fig-1"' in page and 'id="table-1"' in page  # cropped and captioned
    assert "Owned&lt;T&gt; types" in page and "<T>" not in page
    assert "Vector&lt;u8&gt;" in page
    assert "[1] A. Author, B. Writer and C. Reader" in page  # a plain, unnumbered reference


def test_a_figure_detector_adds_to_the_caption_search(tmp_path: Path, generated: PdfImport) -> None:
    """``detect=duizhao.figures.detect.detect_figures`` has this shape: boxes from the
    top-left; the lines inside them leave the text flow. A float the detector missed but whose
    caption the layout reading finds (Table I, Fig. 2 here) is kept too."""
    pdf = make_ieee_paper(tmp_path / "p.pdf")
    seen: list[Path] = []
    box = (330.0, 148.0, 540.0, 275.0)

    def detect(path: Path) -> list[Float]:
        seen.append(path)
        return [
            Float(
                1,
                "figure",
                "Fig. 1",
                1,
                "Fig. 1. Throughput of three runs on one superpod.",
                box,
                (311, 282, 473, 293),
            ),
        ]

    result = import_pdf(pdf, detect=detect)
    assert seen == [pdf]
    assert [f.label for f in result.floats] == [f.label for f in generated.floats]
    assert result.floats[0].box == box  # the detector's box wins for the float it found
    assert len(figures(result)) == len(figures(generated))
    assert headings(result) == headings(generated)
    assert paragraphs(result) == paragraphs(generated)


def test_acm_sample_with_ruled_tables_appendices_and_unmapped_ligatures() -> None:
    result = import_pdf(PAPERS / "import-acm-sigconf-sample.pdf")
    assert result.title == "SIG Proceedings Paper in LaTeX Format"  # its footnote mark dropped
    # This PDF maps no Unicode to the "Th" ligature: "2.6 Theorem-like Constructs" and
    # "A.2 The Body of the Paper" read "2.6 eorem…" and "A.2 e Body…", which no heading rule
    # may accept. The report says so, page by page.
    assert headings(result) == [
        "Abstract",
        "CCS CONCEPTS",
        "1 INTRODUCTION",
        "2 THE BODY OF THE PAPER",
        "2.1 Type Changes and Special Characters",
        "2.2 Math Equations",
        "2.2.1 Inline (In-text) Equations",
        "2.2.2 Display Equations",
        "2.3 Citations",
        "2.4 Tables",
        "2.5 Figures",
        "3 CONCLUSIONS",
        "4 ACKNOWLEDGMENTS",
        "A HEADINGS IN APPENDICES",  # an appendix is a section: ##
        "A.1 Introduction",
        "A.3 Conclusions",
        "A.4 Acknowledgments",
        "A.5 References",
        "B MORE HELP FOR THE HARDY",
        "REFERENCES",
    ]
    levels = {c.text: c.level for c in result.chunks if c.is_heading}
    assert (levels["A HEADINGS IN APPENDICES"], levels["A.1 Introduction"]) == (2, 3)
    assert any("no Unicode mapping" in n.message for n in result.notes)
    # Ruled tables (booktabs): caption above, the body down to the last rule, rows out of the
    # text even where they are set in body type.
    tables = {f.label: f for f in result.floats if f.kind == "table"}
    assert sorted(tables) == ["Table 1", "Table 2"]
    assert 165 < tables["Table 1"].box[3] < 175
    assert not any("Frequency Comments" in p or "1 in 1,000" in p for p in paragraphs(result))
    assert [r.split("\\]")[0] for r in references(result)] == [f"\\[{n}" for n in range(1, 9)]
    # Small type at a column's foot stays dropped: the permission block, the footnotes.
    assert not any("Permission to make digital" in p for p in paragraphs(result))
    assert not any("is a footnote" in p for p in paragraphs(result))


def test_cli_places_figures_the_spec_declares(
    make_site: Callable[..., Site], chdir: Callable[[Path], None]
) -> None:
    """An entry the author wrote is kept as written; the floats the spec lacks are added
    (merged as `figures detect --write` does); all of them are placed."""
    site = make_site({"index.md": "# Home\n"})
    chdir(site.root)
    make_ieee_paper(site.root / "paper.pdf")
    site.write(
        "x.figures.yml",
        "source: ../paper.pdf\n"
        "figures:\n"
        "  - id: 1\n"
        "    page: 1\n"
        "    box: [330, 148, 540, 275]\n"
        "    caption: {en: Throughput., zh: 吞吐量。}\n",
    )
    result = CliRunner().invoke(main, ["import", "docs/x.md", "--from", "paper.pdf"])
    assert result.exit_code == 0, result.output
    text = (site.docs / "x.md").read_text(encoding="utf-8")
    assert "/// figure | 1\n///\n" in text
    assert "<!-- duizhao:figure 1" not in text
    assert "/// figure | table-1\n///\n" in text  # added to the spec, which lacked it
    spec = (site.docs / "x.figures.yml").read_text(encoding="utf-8")
    assert spec.startswith("source: ../paper.pdf\nfigures:\n  - id: 1\n    page: 1\n")
    assert "x.figures.yml: Fig. 1 kept as written; differs in" in result.stderr


boxes_st = st.lists(
    st.tuples(
        st.integers(0, 600), st.integers(0, 800), st.integers(1, 120), st.integers(1, 120)
    ).map(lambda t: (float(t[0]), float(t[1]), float(t[0] + t[2]), float(t[1] + t[3]))),
    max_size=40,
)


@given(boxes_st)
def test_merged_drawings_cover_every_box_and_do_not_touch(boxes: list[Box]) -> None:
    merged = merge_boxes(boxes)
    for b in boxes:
        assert any(m[0] <= b[0] and m[1] <= b[1] and b[2] <= m[2] and b[3] <= m[3] for m in merged)
    for i, a in enumerate(merged):
        for o in merged[i + 1 :]:
            apart = a[2] + 1 < o[0] or o[2] + 1 < a[0] or a[3] + 1 < o[1] or o[3] + 1 < a[1]
            assert apart, (a, o)


def test_real_paper_imports_into_an_article_that_builds_strictly(
    make_site: Callable[..., Site], chdir: Callable[[Path], None]
) -> None:
    """The ACM paper: code listings, 49 references, five figure markers, then mkdocs --strict."""
    site = make_site({"index.md": "# Home\n"})
    chdir(site.root)
    result = CliRunner().invoke(main, ["import", "docs/samba.md", "--from", str(ACM)])
    assert result.exit_code == 0, result.output
    path = site.docs / "samba.md"
    text = path.read_text(encoding="utf-8")
    assert text.count("<!-- duizhao:figure ") == 5
    assert text.count("\n```text\n") == 3
    text = text.replace("## 导言\n\n<!-- duizhao:todo -->", "## 导言\n\n导言。", 1)
    path.write_text(text.replace("  authors:", "  license: CC-BY-4.0\n  authors:", 1), "utf-8")
    site.build(strict=True)
    page = site.html("samba.md")
    assert page.count('class="dz-paragraph') >= 70 or page.count('id="P0') >= 70
    assert "type SambaMessage struct {" in page


USENIX = PAPERS / "import-usenix-fluidcloud.pdf"


@pytest.fixture(scope="module")
def usenix() -> PdfImport:
    return import_pdf(USENIX)


def test_usenix_list_item_runs_on_under_its_hanging_indent(usenix: PdfImport) -> None:
    """A sentence that ends at a line's end inside a list item does not end the item: the next
    line, set in as far as the one before it, is no paragraph indent."""
    text = paragraphs(usenix)
    item = next(p for p in text if p.startswith("• Broker"))
    assert item.endswith("Also orchestrates the deployment of the Migrators.")
    assert not any(
        p.startswith(("Also orchestrates", "Multiple Migrators", "The motivation")) for p in text
    )


def test_usenix_footnote_at_a_column_foot_leaves_the_paragraph_whole(usenix: PdfImport) -> None:
    """A footnote under a paragraph that runs on into the next page is dropped, and the
    paragraph (broken mid-word above it) is one unit: "The Mi-" + "grators"."""
    text = paragraphs(usenix)
    assert any("make up the Viaduct. The Migrators take care of" in p for p in text)
    assert any("realise interoperability but they do not necessarily" in p for p in text)
    assert not any("www.smartos.org" in p or "The migrators were executed" in p for p in text)
    dropped = [n.message for n in usenix.notes if "dropped small text" in n.message]
    assert any("1http://www.smartos.org" in d for d in dropped)
