"""`duizhao import`: originals from text, Markdown and a generated PDF become numbered blocks."""

from __future__ import annotations

import ctypes
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from duizhao.article import TODO_MARKER, read_article
from duizhao.checks import Corpus, check_corpus
from duizhao.cli import main
from duizhao.importer import Chunk, ImportRefused, chunks_from_text, import_chunks, import_pdf

PAPER = """\
# 1 Introduction

Scaled-out MoE models create new chal-
lenges for serving: a state-of-the-
art system must move tokens between
hundreds of NPUs.

Short paragraph.

- first item
- second item

```python
x = 1

y = 2
```
"""


def test_text_is_split_into_headings_and_joined_paragraphs() -> None:
    assert chunks_from_text(PAPER) == [
        Chunk("1 Introduction", 1),
        Chunk(
            "Scaled-out MoE models create new challenges for serving: a state-of-the-art "
            "system must move tokens between hundreds of NPUs."
        ),
        Chunk("Short paragraph."),
        Chunk("- first item\n- second item"),
        Chunk("```python\nx = 1\n\ny = 2\n```"),
    ]


def test_hyphen_kept_before_capitals_and_in_compounds() -> None:
    text = "GPU-\nNPU links and fine-\ngrained, well-\nknown ideas.\r\n\r\nA well-known fact."
    assert chunks_from_text(text) == [
        # Without a dictionary "fine-grained" cannot be told from "commu-nication".
        Chunk("GPU-NPU links and finegrained, well-known ideas."),
        Chunk("A well-known fact."),
    ]


ARTICLE = (
    "\ufeff---\r\n"
    "title: Demo  # kept comment\r\n"
    "paragraphs: 'P001 – P002'  # v6\r\n"
    "status: draft\r\n"
    "---\r\n"
    "\r\n"
    "## 导言\r\n"
    "\r\n"
    "引言。\r\n"
    "\r\n"
    "/// paragraph | P001\r\n"
    "> One.\r\n"
    "\r\n"
    "一。\r\n"
    "///\r\n"
)


def test_import_appends_after_last_id_and_keeps_every_other_byte(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    result = import_chunks(ARTICLE.encode(), path, chunks_from_text(PAPER))
    new = result.data.decode("utf-8")
    old_lines = ARTICLE.split("\r\n")
    new_lines = new.split("\r\n")
    # Only the range changed in the front matter; BOM, comments, quotes and CRLF survive.
    assert new_lines[2] == "paragraphs: 'P001 – P005'  # v6"
    assert new_lines[:2] == old_lines[:2] and new_lines[3:15] == old_lines[3:15]
    assert "\n" not in new.replace("\r\n", "")
    assert new.startswith("\ufeff---")
    assert (result.first, result.last, result.paragraphs, result.headings) == ("P002", "P005", 4, 1)
    assert new.split("///\r\n", 1)[1] == "\r\n".join(
        [
            "",
            "# 1 Introduction",
            "",
            "/// paragraph | P002",
            "> Scaled-out MoE models create new challenges for serving: a state-of-the-art "
            "system must move tokens between hundreds of NPUs.",
            "",
            TODO_MARKER,
            "///",
            "",
            "/// paragraph | P003",
            "> Short paragraph.",
            "",
            TODO_MARKER,
            "///",
            "",
            "/// paragraph | P004",
            "> - first item",
            "> - second item",
            "",
            TODO_MARKER,
            "///",
            "",
            "/// paragraph | P005",
            "> ```python",
            "> x = 1",
            ">",
            "> y = 2",
            "> ```",
            "",
            TODO_MARKER,
            "///",
            "",
        ]
    )
    path.write_bytes(result.data)
    article = read_article(path)
    assert [p.id for p in article.paragraphs] == ["P001", "P002", "P003", "P004", "P005"]
    assert all(p.is_todo for p in article.paragraphs[1:])
    assert article.paragraphs[4].original == "```python\nx = 1\n\ny = 2\n```"
    # A draft with to-do markers is clean for `duizhao check` (but for its missing licence).
    assert [d.code for d in check_corpus([article], Corpus(tmp_path))] == ["DZ201"]


def test_import_adds_a_range_when_there_is_none(tmp_path: Path) -> None:
    src = b"---\ntitle: T\n---\n\ntext\n"
    result = import_chunks(src, tmp_path / "a.md", [Chunk("One."), Chunk("Two.")])
    assert result.data.decode().startswith("---\ntitle: T\nparagraphs: P001-P002\n---\n\ntext\n\n")


def test_import_refuses_an_article_with_an_unclosed_block(tmp_path: Path) -> None:
    src = b"---\ntitle: T\n---\n\n/// paragraph | P001\n> x\n\ny\n"
    with pytest.raises(ImportRefused) as info:
        import_chunks(src, tmp_path / "a.md", [Chunk("One.")])
    assert info.value.diagnostic.code == "DZ007"
    assert info.value.diagnostic.line == 5


def test_cli_creates_a_draft_and_continues_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("one.txt").write_text("First para-\ngraph.\n\nSecond.\n", encoding="utf-8")
    Path("two.md").write_text("## 2 More\n\nThird.\n", encoding="utf-8")
    runner = CliRunner()
    # The article's folder does not exist yet: it is created with the article.
    result = runner.invoke(main, ["import", "docs/new-paper.md", "--from", "one.txt"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "docs/new-paper.md: imported 2 paragraphs (P001-P002) and 0 headings; "
        "paragraphs: P001-P002\n"
    )
    result = runner.invoke(main, ["import", "docs/new-paper.md", "--from", "two.md"])
    assert result.exit_code == 0, result.output
    article = read_article(Path("docs/new-paper.md"))
    assert article.title == "new paper" and article.status == "draft"
    assert [(p.id, p.original) for p in article.paragraphs] == [
        ("P001", "First paragraph."),
        ("P002", "Second."),
        ("P003", "Third."),
    ]
    assert [h.text for h in article.headings] == ["new paper", "导言", "2 More"]
    assert str(article.paragraph_range) == "P001-P003"


# ---------------------------------------------------------------------------------------------
# PDF: a real text layer made with PDFium, with running headers and page numbers to drop


def make_pdf(path: Path, pages: list[list[tuple[float, str]]]) -> None:
    """Write a PDF whose pages hold Helvetica text lines at (y, text) positions."""
    pdf = pdfium.PdfDocument.new()
    for lines in pages:
        page = pdf.new_page(612, 792)
        for y, text in lines:
            obj = pdfium_c.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", 10.0)
            buffer = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
            pdfium_c.FPDFText_SetText(obj, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)))
            pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, y)
            pdfium_c.FPDFPage_InsertObject(page.raw, obj)
        assert pdfium_c.FPDFPage_GenerateContent(page.raw)
        page.close()
    pdf.save(str(path))
    pdf.close()


def page(number: int, body: list[str], start: float = 700) -> list[tuple[float, str]]:
    lines: list[tuple[float, str]] = [(760, "xDeepServe: Model-as-a-Service on CloudMatrix384")]
    y = start
    for text in body:
        if text:
            lines.append((y, text))
        y -= 12  # an empty entry leaves a blank line: a paragraph break
    lines.append((40, str(number)))
    return lines


def test_pdf_layout_becomes_paragraphs_without_headers(tmp_path: Path) -> None:
    pdf = tmp_path / "paper.pdf"
    make_pdf(
        pdf,
        [
            page(
                1,
                [
                    "1 Introduction",
                    "",
                    "Large language models no longer fit on a single accelerator, so serving",
                    "them at scale is a systems problem that spans many machines and commu-",
                    "nication links.",
                    "",
                    "We describe the design of a serving system built for a superpod with",
                    "hundreds of accelerators connected by a unified bus that",
                ],
            ),
            page(
                2,
                [
                    "spans the whole cluster and gives every chip direct memory access.",
                    "",
                    "2.1 Disaggregated Serving",
                    "",
                    "Prefill and decode run on separate pools of accelerators here:",
                    "• prefill pools grow with the prompts,",
                    "• decode pools grow with the generated tokens.",
                ],
            ),
        ],
    )
    # One column, one font size: headings come from their numbering alone, as a paragraph
    # would not be set on one short line.
    assert import_pdf(pdf).chunks == [
        Chunk("1 Introduction", 2, kind="heading"),
        Chunk(
            "Large language models no longer fit on a single accelerator, so serving them at "
            "scale is a systems problem that spans many machines and communication links."
        ),
        Chunk(
            "We describe the design of a serving system built for a superpod with hundreds of "
            "accelerators connected by a unified bus that spans the whole cluster and gives every "
            "chip direct memory access."
        ),
        Chunk("2.1 Disaggregated Serving", 3, kind="heading"),
        Chunk("Prefill and decode run on separate pools of accelerators here:"),
        Chunk("• prefill pools grow with the prompts,"),
        Chunk("• decode pools grow with the generated tokens."),
    ]


def test_cli_imports_a_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_pdf(
        tmp_path / "p.pdf",
        [
            page(1, ["Abstract", "", "We serve large models on superpods built around a", "bus."]),
            page(2, ["Thanks."]),
        ],
    )
    Path("a.md").write_text("---\ntitle: A\nparagraphs: P001-P010\n---\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "a.md", "--from", "p.pdf"])
    assert result.exit_code == 0, result.output
    article = read_article(Path("a.md"))
    assert [(p.id, p.original) for p in article.paragraphs] == [
        ("P001", "We serve large models on superpods built around a bus."),
        ("P002", "Thanks."),
    ]
    assert [h.text for h in article.headings] == ["Abstract"]
    assert str(article.paragraph_range) == "P001-P010"  # a declared range is never narrowed


def test_cli_rejects_a_file_that_is_not_a_pdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("fake.pdf").write_bytes(b"not a pdf")
    Path("a.md").write_text("---\ntitle: A\n---\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "a.md", "--from", "fake.pdf"])
    assert result.exit_code == 2
    assert "not a readable PDF" in result.stderr
    assert Path("a.md").read_text(encoding="utf-8") == "---\ntitle: A\n---\n"


def test_cli_imports_into_the_article_s_own_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from another site's folder, an import into an article of a site judges the
    article by its own project (not refused as outside the current one) and takes that
    project's writer lock."""
    for name in ("site", "other"):
        (tmp_path / name / "docs").mkdir(parents=True)
        (tmp_path / name / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    article = tmp_path / "site" / "docs" / "a.md"
    article.write_text("---\ntitle: A\n---\n\n## 导言\n\n引言。\n", encoding="utf-8")
    (tmp_path / "one.txt").write_text("First.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "other")
    result = CliRunner().invoke(main, ["import", "../site/docs/a.md", "--from", "../one.txt"])
    assert result.exit_code == 0, result.output
    assert [p.original for p in read_article(article).paragraphs] == ["First."]
    assert (tmp_path / "site" / ".duizhao.lock.lock").exists()
    assert not (tmp_path / "other" / ".duizhao.lock.lock").exists()
