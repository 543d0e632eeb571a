"""Bounded work for every number an author writes (issue 19): a count, a range, a figure
number, a page, a dpi is compared, never enumerated; an unreasonable one is a diagnostic."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Logs, Site
from test_fuzz import bounded, build_deep_page, run_cli, write_project

COMPLETE = """\
---
title: 示例
paper: {{title: A paper, license: CC-BY-4.0}}
paragraphs: {paragraphs}
status: complete
figures: {figures}
---

## 导言

引言。

/// paragraph | P001
> One.

一。
///

/// figure | {figure}
///
"""


def _article(paragraphs: str = "P001-P001", figures: object = 1, figure: object = 1) -> bytes:
    text = COMPLETE.format(paragraphs=paragraphs, figures=figures, figure=figure)
    return text.encode()


def _check(root: Path, files: dict[str, bytes]) -> list[str]:
    from figure_sources import make_pdf

    write_project(root, files)
    make_pdf(root / "papers" / "p.pdf")
    with bounded():
        return run_cli(root, "check", "docs")


def test_figures_count_of_a_billion_is_refused_in_words(tmp_path: Path) -> None:
    spec = b"source: ../papers/p.pdf\nfigures:\n  - {id: 1, page: 1, box: [0, 0, 9, 9]}\n"
    found = _check(tmp_path, {"docs/a.md": _article(figures=999999999), "docs/a.figures.yml": spec})
    dz104 = [line for line in found if " DZ104 " in line]
    assert dz104 == [
        "docs/a.md:6: DZ104 'figures: 999999999' is more figures than a paper has (at most "
        "100,000); write the paper's figure count, as in 'figures: 20'"
    ], found


def test_a_large_figures_count_reports_the_missing_figures_as_runs(tmp_path: Path) -> None:
    spec = (
        b"source: ../papers/p.pdf\nfigures:\n  - {id: 1, page: 1, box: [0, 0, 9, 9]}\n"
        b"  - {id: 5, page: 1, box: [0, 0, 9, 9]}\n"
    )
    found = _check(tmp_path, {"docs/a.md": _article(figures=99999), "docs/a.figures.yml": spec})
    assert any("figures 2-4, 6-99999 not declared" in line for line in found), found


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"docs/a.md": _article(paragraphs="P001-P999999999")}, "DZ013"),
        ({"docs/a.md": _article(figure=999999999)}, "DZ10"),
        ({"docs/a.md": _article(figure=f"table-{'9' * 12}")}, "DZ10"),
        (
            {
                "docs/a.md": _article(),
                "docs/a.figures.yml": b"source: ../papers/p.pdf\ndpi: 1000000000\nfigures:\n"
                b"  - {id: 1, page: 1, box: [0, 0, 9, 9]}\n",
            },
            "DZ105",
        ),
        (
            {
                "docs/a.md": _article(),
                "docs/a.figures.yml": b"source: ../papers/p.pdf\nfigures:\n"
                b"  - {id: 1, page: 1000000000, box: [0, 0, 9, 9], dpi: 1000000000}\n",
            },
            "DZ105",
        ),
    ],
    ids=["paragraph-range", "figure-number", "table-number", "dpi", "page"],
)
def test_huge_numbers_are_diagnostics_in_bounded_time(
    tmp_path: Path, files: dict[str, bytes], expected: str
) -> None:
    found = _check(tmp_path, files)
    assert any(f" {expected}" in line for line in found), found
    assert all(len(line) < 600 for line in found)


def test_build_with_a_billion_figures_is_bounded(tmp_path: Path, logs: Logs) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    write_project(tmp_path, {"docs/a.md": _article(figures=999999999)})
    with bounded(memory=False):  # a build's imports (jieba) are slow under tracemalloc
        build(load_config(str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site")))
    logs.take("DZ104", 1)
    logs.take(r"DZ1\d\d", None)
    assert (tmp_path / "site" / "a" / "index.html").exists()


def test_the_message_scanner_catches_python_words() -> None:
    from conftest import _LEAKS, scan_message

    before = len(_LEAKS)
    for text in (
        "lock file is not valid JSON (RecursionError)",
        "Traceback (most recent call last):",
        "got <duizhao.article.Article object at 0x7f00>",
        "cannot decode b'\\xff'",
    ):
        scan_message(text, "test")
    caught = _LEAKS[before:]
    del _LEAKS[before:]
    assert len(caught) == 4, caught
    scan_message("docs/a.md:3: DZ104 'figures: 9' disagrees with a.figures.yml", "test")
    assert len(_LEAKS) == before


def test_a_lock_nested_100000_deep_is_dz303_in_words(tmp_path: Path) -> None:
    from duizhao.lock import LockError, parse_lock

    for text in ("[" * 100_000, '{"a": "' + '\\"' * 100_000, '{"x": ' * 50_000):
        with bounded(), pytest.raises(LockError) as caught:
            parse_lock(text.encode(), tmp_path / "duizhao.lock")
        line = caught.value.diagnostic.format(tmp_path)
        assert line.startswith("duizhao.lock:1: DZ303 lock file "), line
        assert "Error" not in line


DEEP = {  # body, the line (of the page) reported
    "list": ("".join("  " * i + "- x\n" for i in range(80)), 67),
    "quote": (">" * 40 + " deep\n", 3),
    "indented-list": ("".join("    " * i + "1. x\n" for i in range(40)), 35),
}


@pytest.mark.parametrize(("body", "line"), DEEP.values(), ids=DEEP.keys())
def test_deep_markdown_is_dz020_and_the_page_builds_with_it_as_text(
    make_site: Callable[..., Site], logs: Logs, body: str, line: int
) -> None:
    site = make_site({"index.md": "# 首页\n", "deep.md": "# Deep\n\n" + body + "\nafter\n"})
    html = build_deep_page(
        site, logs, line, "DZ020", "quotes, lists or indentation nested more than 32 "
    )
    assert "after" in html


def test_markdown_depth_is_read_linearly() -> None:
    from duizhao.nesting import MAX_MARKDOWN_DEPTH, as_text, line_depth

    assert line_depth("> > - x") == 3
    assert line_depth("\t\t1. x") == 3
    assert line_depth("    " * (MAX_MARKDOWN_DEPTH + 1) + "x") == MAX_MARKDOWN_DEPTH + 1
    assert as_text(">>> - x") == "\\>>>- x"  # one escape a line (the others start nothing)
    assert as_text("      3. x") == "3\\. x"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=" \t>-1.x`", max_size=80), max_size=12), st.integers(0, 40))
def test_the_deep_line_prefilter_never_hides_a_line(lines: list[str], pad: int) -> None:
    """too_deep() looks at lines only when one starts with MAX_MARKDOWN_DEPTH markers: what it
    finds is what the test of every line finds."""
    from duizhao.nesting import (
        _MAYBE_DEEP_RE,
        MAX_MARKDOWN_DEPTH,
        _outside_fences,
        line_depth,
        too_deep,
    )

    assert _MAYBE_DEEP_RE.pattern.endswith("{%d}" % MAX_MARKDOWN_DEPTH)  # noqa: UP031

    lines = [("\t" if i % 2 else "> ") * pad + line for i, line in enumerate(lines)]
    every = [
        i
        for i in _outside_fences(lines)
        if len(lines[i]) > MAX_MARKDOWN_DEPTH and line_depth(lines[i]) > MAX_MARKDOWN_DEPTH
    ]
    assert list(too_deep(lines)) == every
    assert list(too_deep(lines, "\n".join(lines))) == every


def test_too_deep_finds_every_line_past_the_limit() -> None:
    """Its prefilter (the first characters of a line are markers) skips no deep line."""
    from hypothesis import given
    from hypothesis import strategies as st

    from duizhao.nesting import MAX_MARKDOWN_DEPTH, line_depth, too_deep

    def deep(lines: list[str]) -> list[int]:
        return [i for i, line in enumerate(lines) if line_depth(line) > MAX_MARKDOWN_DEPTH]

    pieces = st.sampled_from([">", " ", "\t", "    ", ">>>>>>>>", "- ", "1. ", "x", "*"])

    @given(st.lists(st.lists(pieces, max_size=60).map("".join), max_size=8))
    def check(lines: list[str]) -> None:
        assert list(too_deep(lines)) == deep(lines)

    check()
    edge = [">" * 32 + " - x", ">" * 32 + "x", "\t" * 32 + "- x", " " * 132 + "x", "x" + ">" * 40]
    assert list(too_deep(edge)) == deep(edge) == [0, 2, 3]


def test_a_deep_quote_a_line_longer_each_time_builds_in_linear_time() -> None:
    """Lines past the limit continue the quote's paragraph lazily: one escape each (an escape
    per marker made Python-Markdown's inline pass quadratic: 3,000 lines took 12 s)."""
    import markdown

    text = "".join("> " * min(i + 1, 40) + "x\n" for i in range(3000))
    start = time.process_time()
    html = markdown.markdown(text, extensions=["duizhao.markdown"])
    assert time.process_time() - start < 3.0
    assert html.count("&gt;" * 40 + "x") == 3000 - 39  # lines 40 on: 40 markers


BLOCKS = 40  # `///` blocks nested one in another, past MAX_BLOCK_DEPTH (32)
NESTED_BLOCKS = (
    "".join("/" * (3 + BLOCKS - i) + f" details | level {i}\n" for i in range(BLOCKS))
    + "deep text\n"
    + "".join("/" * (4 + i) + "\n" for i in range(BLOCKS))
)


def test_blocks_nested_past_the_limit_are_dz022_and_build_as_text(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = make_site({"index.md": "# 首页\n", "deep.md": "# Deep\n\n" + NESTED_BLOCKS})
    with bounded(memory=False):
        site.build()
        found = run_cli(site.root, "check", "docs")
    dz022 = [d for d in found if " DZ022 " in d]
    assert dz022 == [
        "docs/deep.md:35: DZ022 '///' blocks nested more than 32 levels deep (and 7 more): this "
        "block '/////////// details | level 32' is shown as text; nest less deeply"
    ], found
    logs.take(r"deep\.md:35: DZ022 ", 1)
    html = site.html("deep.md")
    assert "level 31</summary>" in html and "deep text" in html
    assert "&#47;//////// details | level 34" in html  # as text (&#47; is "/"), nothing lost


def test_stray_closers_under_deep_blocks_are_scanned_in_linear_time() -> None:
    """Each closer looked through every open block: 8,000 openers and 8,000 closers of another
    length took 2.2 s to scan (×4 per doubling); the stack now holds at most 32 blocks."""
    from duizhao.article import scan

    lines = ["/// details | t"] * 50_000 + ["////"] * 50_000
    start = time.process_time()
    result = scan(lines)
    assert time.process_time() - start < 1.5
    assert sum(kind == "deep-block" for _l, kind, _d in result.problems) == 50_000 - 32
