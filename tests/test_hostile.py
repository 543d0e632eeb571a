"""Hostile and malformed input (issue 12): parsing, bounds, the lock, concurrency, paths.

Every input here once ended in a traceback, a hang or an exhausted machine. Each must now give
``PATH:LINE: CODE message`` (or a clean refusal), in ``duizhao check`` and the build alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import markdown
import pytest
from click.testing import CliRunner, Result
from hypothesis import example, given
from hypothesis import strategies as st
from markdown.inlinepatterns import LinkInlineProcessor

from conftest import ROOT, Logs, Site
from duizhao.article import parse
from duizhao.blockscan import _strip_code_spans
from duizhao.checks import check_local
from duizhao.cli import main
from duizhao.diagnostics import CODES
from duizhao.links import InlineLink
from duizhao.markdown import _BracketMatcher, linear_links
from duizhao.source import project_lock
from duizhao.yamlsafe import (
    MAX_DEPTH,
    MAX_JSON_DEPTH,
    MAX_NODES,
    InputError,
    load_json,
    load_yaml,
    read_bytes,
)

PLUGINS = str(ROOT / "plugins")

ARTICLE = """\
---
title: 示例
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P002
status: draft
---

## 导言

引言。

/// paragraph | P001
> One.

一。
///
"""


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(main, list(args))


def project(root: Path, files: dict[str, str | bytes]) -> Path:
    (root / "mkdocs.yml").write_text("site_name: t\ndocs_dir: docs\n", encoding="utf-8")
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def laughs(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The one YAML loader


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("title: a\ndate: 2026-13-45\n", 2, "cannot read the value '2026-13-45' (month must"),
        ("title: a\nx: !foo bar\n", 2, "could not determine a constructor for the tag '!foo'"),
        ("x: !!python/name:os.system\n", 1, "could not determine a constructor"),
        ("x: " + "[" * 10_000 + "]" * 10_000 + "\n", 1, f"nesting deeper than {MAX_DEPTH}"),
        ("".join("  " * i + "k:\n" for i in range(200)), MAX_DEPTH, "nesting deeper than"),
        (laughs(), 6, f"aliases expand to more than {MAX_NODES:,} values"),
        ("a: &a [*a]\n", 1, "an alias refers to the collection that contains it"),
        ("n: " + "1" * 5000 + "\n", 1, "cannot read the value '111"),
        ("title: a\nx: a\x07b\n", 2, "the control character U+0007 is not allowed"),
        ("? [1]\n: 2\n", 1, "found unhashable key"),
        ("title: [unclosed\n", 2, "expected ',' or ']'"),
    ],
    ids=[
        "date",
        "tag",
        "python",
        "deep-flow",
        "deep-block",
        "laughs",
        "recursive",
        "bigint",
        "control",
        "unhashable",
        "unclosed",
    ],
)
def test_yaml_problems_have_a_line(text: str, line: int, message: str) -> None:
    with pytest.raises(InputError) as info:
        load_yaml(text)
    assert (info.value.line, info.value.message[: len(message)]) == (line, message)


def test_yaml_allows_ordinary_aliases_and_mkdocs_tags() -> None:
    data, _node = load_yaml("base: &b {a: 1}\nother: *b\n")
    assert data == {"base": {"a": 1}, "other": {"a": 1}}
    config, _node = load_yaml(
        "site_url: !ENV [SITE_URL, 'http://x/']\nf: !!python/name:pymdownx.x\n",
        permissive_tags=True,
    )
    assert config == {"site_url": ["SITE_URL", "http://x/"], "f": ""}


def test_yaml_over_the_size_limit() -> None:
    with pytest.raises(InputError, match="over the limit of 1 KB"):
        load_yaml("a: " + "x" * 2000, limit=1024)


@pytest.mark.parametrize(
    ("front", "line", "start"),
    [
        ("title: a\ndate: 2026-13-45", 3, "unreadable front matter: cannot read the value"),
        ("title: a\nx: !foo bar", 3, "unreadable front matter: could not determine"),
        ("title: a\nx: " + "[" * 10_000, 3, "unreadable front matter: nesting deeper"),
        ("title: a\n" + laughs(), 8, "unreadable front matter: aliases expand"),
    ],
    ids=["date", "tag", "deep", "laughs"],
)
def test_front_matter_problems_are_dz010(
    front: str, line: int, start: str, tmp_path: Path, run: Callable[..., Result]
) -> None:
    text = f"---\n{front}\nparagraphs: P001-P002\n---\n\n## 导言\n\n引言。\n"
    project(tmp_path, {"docs/a.md": text})
    result = run("check", "docs/a.md")
    assert result.exit_code == 1, result.output
    assert f"docs/a.md:{line}: DZ010 {start}" in result.stdout
    assert len(result.stdout) < 2000  # the hostile line is not quoted whole


# ---------------------------------------------------------------------------------------------
# Files that are not plain, or too big, or outside the project


def test_read_bytes_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "x.md"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="a FIFO"):
        read_bytes(fifo)


def test_read_bytes_refuses_dev_zero_behind_a_symlink(tmp_path: Path) -> None:
    link = tmp_path / "zero.md"
    link.symlink_to("/dev/zero")
    with pytest.raises(InputError, match="a device, not a regular file"):
        read_bytes(link)


def test_read_bytes_refuses_a_file_over_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(InputError, match=r"is 4\.9 KB, over the limit of 4 KB"):
        read_bytes(big, 4096)
    assert read_bytes(big, 5000) == b"x" * 5000


def test_check_reports_fifo_device_and_outside_symlink(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("---\ntitle: SECRET-CONTENT [\n---\n", encoding="utf-8")
    (tmp_path / "p").mkdir()
    root = project(tmp_path / "p", {"docs/a.md": ARTICLE})
    os.mkfifo(root / "docs" / "fifo.md")
    (root / "docs" / "zero.md").symlink_to("/dev/zero")
    (root / "docs" / "leak.md").symlink_to(outside)
    os.chdir(root)
    result = CliRunner().invoke(main, ["check"])
    assert result.stdout.splitlines() == [
        "docs/fifo.md:1: DZ011 refused: not a regular file (a FIFO, device or socket); left out",
        "docs/leak.md:1: DZ018 refused: the file resolves (through a symlink) outside the "
        "project; left out unread: copy it into the project instead",
        "docs/zero.md:1: DZ011 refused: not a regular file (a FIFO, device or socket); left out",
    ]
    assert "SECRET" not in result.output


def test_build_leaves_out_fifo_device_and_outside_symlink(
    make_site: Callable[..., Site], logs: Logs, tmp_path: Path
) -> None:
    site = make_site({"index.md": "# 首页\n", "a.md": ARTICLE})
    (tmp_path / "secret.md").write_text("# SECRET-CONTENT\n", encoding="utf-8")
    os.mkfifo(site.docs / "fifo.md")
    (site.docs / "zero.bin").symlink_to("/dev/zero")
    (site.docs / "leak.md").symlink_to(tmp_path / "secret.md")
    site.build()
    logs.take(r"docs/fifo\.md:1: DZ011 refused: not a regular file", count=1)
    logs.take(r"docs/zero\.bin:1: DZ011 refused: not a regular file", count=1)
    logs.take(r"docs/leak\.md:1: DZ018 refused: the file resolves", count=1)
    logs.take(r"not included in the \"nav\" configuration", count=None)
    assert not (site.site_dir / "leak").exists() and not (site.site_dir / "zero.bin").exists()
    assert "SECRET" not in "".join(p.read_text("utf-8") for p in site.site_dir.rglob("*.html"))


def test_build_of_a_docs_folder_without_pages(make_site: Callable[..., Site], logs: Logs) -> None:
    site = make_site({}, plugins=[{"duizhao": {"site": {"sections": {"x": "X"}}}}])
    site.build()  # was: ValueError: zip() argument 2 is shorter than argument 1
    logs.take(r"", count=None)  # MkDocs may say the site has no index page
    assert (site.site_dir / "404.html").exists()


def test_import_from_a_fifo_is_refused_not_blocked(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, {"docs/a.md": ARTICLE})
    os.mkfifo(tmp_path / "paper.txt")
    result = run("import", "docs/a.md", "--from", "paper.txt")
    assert result.exit_code == 2
    assert "cannot read paper.txt: refused: a FIFO (named pipe)" in result.stderr


def test_unreadable_mkdocs_yml_is_dz019(tmp_path: Path, run: Callable[..., Result]) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nnav: [unclosed\n", encoding="utf-8")
    result = run("check")
    assert result.exit_code == 2
    assert "mkdocs.yml:3: DZ019 cannot read the MkDocs configuration: expected ','" in (
        result.stderr
    )


def test_bad_seed_is_dz207(tmp_path: Path, run: Callable[..., Result]) -> None:
    project(tmp_path, {"seeds/x.yml": "slug: x\ndate: 2026-13-45\n"})
    result = run("new", "--from-seed", "seeds/x.yml")
    assert result.exit_code == 1
    assert "seeds/x.yml:2: DZ207 not valid YAML: cannot read the value '2026-13-45'" in (
        result.stderr
    )


# ---------------------------------------------------------------------------------------------
# Numbers from authors


def test_huge_range_and_long_ids_are_bounded() -> None:
    long_id = "P" + "1" * 4300
    text = (
        "---\ntitle: a\nparagraphs: P001-P999999999\nstatus: complete\n"
        "paper: {title: t, license: CC-BY-4.0}\n---\n\n## 导言\n\n引言。\n\n"
        f"/// paragraph | P001\n> a\n\n一\n///\n\n/// paragraph | {long_id}\n> b\n\n二\n///\n\n"
        f"[x](#P{'2' * 4400})\n"
    )
    found = [d.format() for d in sorted(check_local(parse(text, "a.md")))]
    assert found == [
        "a.md:3: DZ013 range 'paragraphs: P001-P999999999' declares more than 100,000 "
        "paragraphs; declare the paper's real range, as in 'paragraphs: P001-P129'",
        f"a.md:18: DZ001 paragraph ID '{long_id[:39]}…' has 4,300 digits; IDs are 'P' and "
        "3 to 9 ASCII digits, as in '/// paragraph | P001'",
    ]


def test_a_complete_article_with_far_apart_ids_reports_gaps_without_walking_them() -> None:
    text = (
        "---\ntitle: a\nstatus: complete\n---\n\n## 导言\n\n引言。\n\n"
        "/// paragraph | P001\n一\n///\n\n/// paragraph | P999999999\n二\n///\n"
    )
    found = [d.format() for d in check_local(parse(text, "a.md")) if d.code == "DZ004"]
    assert found == [
        "a.md:14: DZ004 missing paragraph IDs P002-P999999998 in a complete article; add the "
        "blocks, renumber, or set 'status: draft'"
    ]


# ---------------------------------------------------------------------------------------------
# The lock


TRUNCATED = '{\n  "articles": {\n    "a.md": {\n      "P001": "3f0c'


def test_truncated_lock_is_reported_with_the_way_out_everywhere(
    tmp_path: Path, run: Callable[..., Result], make_site: Callable[..., Site], logs: Logs
) -> None:
    project(tmp_path, {"docs/a.md": ARTICLE, "duizhao.lock": TRUNCATED})
    status = run("status")
    renumber = run("renumber", "docs/a.md", "--write")
    for result in (status, renumber):
        assert result.exit_code == 1
        assert result.stderr.startswith("duizhao.lock:4: DZ303 lock file is not valid JSON: ")
        assert "(truncated?)" in result.stderr
        assert "rebuild it with 'duizhao status --accept docs/'" in result.stderr
    check = run(
        "check"
    )  # as the build does, below: a check that passes, a build that does not warn
    assert check.exit_code == 1
    assert "duizhao.lock:4: DZ303 lock file is not valid JSON: " in check.stdout
    site = make_site({"a.md": ARTICLE})
    (site.root / "duizhao.lock").write_text(TRUNCATED, encoding="utf-8")
    site.build()
    logs.take(r"duizhao\.lock:4: DZ303 .*'duizhao status --accept docs/'", count=1)


def test_accept_rebuilds_a_truncated_lock(tmp_path: Path, run: Callable[..., Result]) -> None:
    project(tmp_path, {"docs/a.md": ARTICLE, "docs/b/c.md": ARTICLE, "duizhao.lock": TRUNCATED})
    result = run("status", "--accept", "docs/")
    assert result.exit_code == 0, result.output
    assert "is rebuilt from the articles accepted now" in result.stderr
    lock = json.loads((tmp_path / "duizhao.lock").read_text(encoding="utf-8"))
    assert sorted(lock["articles"]) == ["a.md", "b/c.md"]
    assert run("status").exit_code == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "lock file is empty (truncated?)"),
        ('{"articles": {"a.md": {"P001": 7}}, "version": 1}', "has a malformed paragraph"),
        ('{"articles": {"a.md": {"p1": "0123456789abcdef"}}, "version": 1}', "malformed"),
        ('{"articles": {"../x.md": {}}, "version": 1}', "is not a path inside the docs"),
        (
            '{"articles": {}, "version": ' + "9" * 5000 + "}",
            "not valid JSON (a number too long to read)",
        ),
        ("[" * 100_000 + "]" * 100_000, "lock file nests more than 32 levels of brackets"),
    ],
    ids=["empty", "digest", "pid", "path", "bigint", "deep"],
)
def test_malformed_lock_entries(
    content: str, message: str, tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, {"docs/a.md": ARTICLE, "duizhao.lock": content})
    result = run("status")
    assert result.exit_code == 1 and "duizhao.lock:" in result.stderr
    assert message in result.stderr and "DZ303" in result.stderr


# ---------------------------------------------------------------------------------------------
# Concurrency: the project's writer lock


def _cli(root: Path, *args: str, timeout: str = "60") -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": PLUGINS, "DUIZHAO_LOCK_TIMEOUT": timeout}
    return subprocess.Popen(
        [sys.executable, "-m", "duizhao.cli", *args],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_second_writer_waits_then_refuses(tmp_path: Path) -> None:
    root = project(tmp_path, {"docs/a.md": ARTICLE})
    with project_lock(root / "duizhao.lock"):
        busy = _cli(root, "status", "--accept", "docs/a.md", timeout="0.3")
        _out, err = busy.communicate(timeout=60)
    assert busy.returncode == 1
    assert "another duizhao command is changing this project (it holds .duizhao.lock.lock)" in err
    assert not (root / "duizhao.lock").exists()
    done = _cli(root, "status", "--accept", "docs/a.md")
    assert done.communicate(timeout=60) and done.returncode == 0


def test_concurrent_writers_lose_no_edit(tmp_path: Path) -> None:
    """Four processes accept four articles at once: the lock ends with all four (without the
    writer lock, each read-modify-write could overwrite another's)."""
    files = {f"docs/a{i}.md": ARTICLE for i in range(4)}
    root = project(tmp_path, files)
    procs = [_cli(root, "status", "--accept", f"docs/a{i}.md") for i in range(4)]
    procs.append(_cli(root, "renumber", "docs/a0.md", "--write"))
    for proc in procs:
        proc.communicate(timeout=120)
        assert proc.returncode == 0
    lock = json.loads((root / "duizhao.lock").read_text(encoding="utf-8"))
    assert sorted(lock["articles"]) == [f"a{i}.md" for i in range(4)]


# ---------------------------------------------------------------------------------------------
# The linear scanner (speed itself is measured in bench/longline.py)


def _original_get_text(data: str, index: int) -> tuple[str, int, bool]:
    return LinkInlineProcessor.getText(None, data, index)  # type: ignore[arg-type]


@given(st.text(alphabet="[]a(\\", max_size=40), st.data())
@example("[a[b]c]d", None)
def test_bracket_matcher_equals_python_markdowns_scan(
    text: str, data: st.DataObject | None
) -> None:
    matcher = _BracketMatcher()
    for index in range(1, len(text) + 1):
        if text[index - 1] == "[":
            assert matcher.get_text(text, index) == _original_get_text(text, index)


@given(st.text(alphabet="[]a(\\", max_size=40), st.lists(st.integers(0, 3), max_size=20))
@example("[]()[]()[a[]()", [0, 1, 2])
@example("[[]]", [])
def test_bracket_matcher_follows_the_strings_the_inline_processor_makes(
    text: str, cuts: list[int]
) -> None:
    """As Python-Markdown does after a match, each found ``[…]`` (and up to 3 characters after
    it) becomes a placeholder in a new string; the matcher answers every "[" after it, in
    every such string, as the original scan does (its pairs are reused by suffix)."""
    matcher = _BracketMatcher()
    original = text
    index, step = 1, 0
    while index <= len(text):
        if text[index - 1] == "[":
            got = matcher.get_text(text, index)
            assert got == _original_get_text(text, index)
            if got[2]:
                cut = min(len(text), got[1] + (cuts[step % len(cuts)] if cuts else 0))
                step += 1
                placeholder = f"\x02klzzwxh:{step:04d}\x03"
                text = text[: index - 1] + placeholder + text[cut:]
                index = index - 1 + len(placeholder) + 1
                continue
        index += 1
    # the next pattern's pass: a string of the same length whose text after some "[" changed
    for again in (original, original.replace("]", "a", 1)):
        for index in range(1, len(again) + 1):
            if again[index - 1] == "[":
                assert matcher.get_text(again, index) == _original_get_text(again, index)


def test_bracket_matcher_reads_a_line_of_links_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``[]()`` repeated (the scaling family's brackets): after each link the inline processor
    hands over a new string, and checking that its text after the next "[" is the one paired
    read the rest of the line once per link (×3 per doubling of a 160 KB line's build, issue
    19). A "[" whose "]" is near is answered without it; the characters compared stay within
    a small multiple of the line."""
    compared = 0
    suffix_known = _BracketMatcher._suffix_known

    def counting(self: _BracketMatcher, data: str, at: int) -> bool:
        nonlocal compared
        compared += len(data) - at
        return suffix_known(self, data, at)

    monkeypatch.setattr(_BracketMatcher, "_suffix_known", counting)
    line = "[]()\\[a" * 2_000
    md = markdown.Markdown()
    linear_links(md)
    assert md.convert(line) == markdown.Markdown().convert(line)
    assert compared <= 4 * len(line), f"{compared:,} characters compared for {len(line):,}"


def test_the_renderer_does_not_read_the_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """The renderer asks the scanner for the blocks only: the article's links are read once,
    by :func:`duizhao.article.parse` (the renderer read them again: a second pass over every
    link of a line of thousands, issue 19)."""
    from duizhao import blockscan

    found = 0
    inline_links = blockscan.inline_links

    def counting(line: str, images: bool = False) -> Iterator[InlineLink]:
        nonlocal found
        for match in inline_links(line, images=images):
            found += 1
            yield match

    monkeypatch.setattr(blockscan, "inline_links", counting)
    text = "/// paragraph | P001\n> [a](#P001) [b](x.md)\n\n[c](#P001)\n///\n"
    html = markdown.markdown(text, extensions=["duizhao"])
    assert 'href="#P001"' in html and found == 0
    assert len(parse(text).links) == 3 and found == 3


@given(st.text(alphabet="[]()<>\"' a`*!\n", max_size=60))
@example('[a](b "c") [x](<y>) ![i](j) [r][] [[n]](o(p))')
def test_linear_links_render_like_python_markdown(text: str) -> None:
    plain = markdown.Markdown()
    linear = markdown.Markdown()
    linear_links(linear)
    assert linear.convert(text) == plain.convert(text)


@pytest.mark.parametrize("length", [1_000, 5_000, 50_000])
def test_long_links_render_like_python_markdown(length: int) -> None:
    """A mermaid.live state or a data: image is a link of several KB on a real page: within the
    page's scan budget it renders as Python-Markdown renders it (not as text)."""
    url = "https://mermaid.live/edit#pako:" + "eNp" * (length // 3)
    text = f'See [the diagram]({url} "title") and ![a dot](data:image/png;base64,{"A" * length}).\n'
    linear = markdown.Markdown()
    linear_links(linear)
    html = linear.convert(text)
    assert html == markdown.Markdown().convert(text)
    assert html.count("href=") == 1 and html.count("<img") == 1


def test_link_scan_is_bounded_past_the_budget() -> None:
    """Unclosed `[x](` each scan to the end of the line in Python-Markdown: once the page's
    budget is spent, a scan reads at most the window (the line still renders)."""
    from duizhao.markdown import EXACT_SCAN_BUDGET, _BoundedLinks

    md = markdown.Markdown()
    linear_links(md)
    line = "[x](<" * 40_000  # 200,000 characters
    assert md.convert(line)
    scans = [
        p.getLink
        for p in md.inlinePatterns
        if isinstance(getattr(p, "getLink", None), _BoundedLinks)
    ]
    # an exact scan is charged what it read; none ran once the budget was spent
    assert scans and all(s.budget >= -len(line) for s in scans)
    assert any(s.budget < EXACT_SCAN_BUDGET for s in scans)
    linear_links(md)  # the next page starts with a full budget
    assert all(s.budget == EXACT_SCAN_BUDGET for s in scans)


def test_markdown_with_linear_links_is_freed() -> None:
    """MkDocs makes a Markdown per page: the linear scans must not keep one (and its page's
    text) alive once the page is converted. A registry of processors held each one, 18 MB
    over 20 bench articles."""
    import gc
    import weakref

    md = markdown.Markdown()
    linear_links(md)
    md.convert("[a](b) " * 100)
    gone = weakref.ref(md)
    del md
    gc.collect()
    assert gone() is None


def _code_spans_reference(line: str) -> str:
    import re

    pattern = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
    return pattern.sub(lambda m: " " * len(m.group(0)), line)


@given(st.text(alphabet="`a ", max_size=40))
@example("``a`b``c`")
def test_code_spans_match_exact_length_runs(line: str) -> None:
    assert _strip_code_spans(line) == _code_spans_reference(line)


def test_codes_registry_has_the_new_codes() -> None:
    for code in ("DZ018", "DZ019", "DZ207"):
        assert code in CODES


def test_long_hostile_line_checks_and_renders(tmp_path: Path) -> None:
    """Correctness on the benchmark's input (its speed is bench/longline.py's business)."""
    from bench.longline import article, line_of

    for kind in ("backticks", "brackets", "angle", "mixed"):
        text = article(line_of(kind, 20_000))
        found = check_local(parse(text, tmp_path / "long.md"))
        assert all(d.line >= 1 for d in found)
        assert markdown.markdown(textwrap.dedent(text), extensions=["duizhao"])


# ---------------------------------------------------------------------------------------------
# Figures: numbers, sizes and kinds of sources are checked before any pixel


def _big_page_pdf(path: Path, points: float = 20_000) -> Path:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    pdf.new_page(points, points)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.save(str(path))
    pdf.close()
    return path


def _figure_check(root: Path, spec: str, article: str | None = None) -> list[str]:
    from duizhao.checks import Corpus, check_corpus
    from duizhao.figures.catalog import Catalog

    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    text = article or "---\ntitle: a\nfigures: 1\n---\n\n/// figure | 1\n///\n"
    (docs / "a.md").write_text(text, encoding="utf-8")
    if not (docs / "a.figures.yml").is_symlink():
        (docs / "a.figures.yml").write_text(spec, encoding="utf-8")
    found = check_corpus([parse(text, docs / "a.md")], Corpus(docs, figures=Catalog(root)))
    return [d.format(root) for d in found if d.code.startswith(("DZ1", "DZ018"))]


@pytest.mark.parametrize(
    ("box", "message"),
    [
        ("[.nan, 0, 10, 10]", "DZ109 box [nan, 0, 10, 10] must be four finite numbers"),
        ("[0, 0, .inf, 10]", "DZ109 box [0, 0, inf, 10] must be four finite numbers"),
        ("[0, 0, 1.0e+400, 10]", "DZ109 box [0, 0, inf, 10] must be four finite numbers"),
        (f"[0, 0, {'9' * 400}, 10]", "DZ109 box [0, 0, 99999999999"),
    ],
    ids=["nan", "inf", "overflow", "400-digit"],
)
def test_non_finite_boxes_are_refused(tmp_path: Path, box: str, message: str) -> None:
    from figure_sources import make_pdf

    make_pdf(tmp_path / "papers" / "paper.pdf")
    spec = f"source: ../papers/paper.pdf\nfigures:\n  - {{id: 1, page: 1, box: {box}}}\n"
    found = _figure_check(tmp_path, spec)
    assert len(found) == 1 and found[0].startswith(f"docs/a.figures.yml:3: {message}"), found


def test_huge_numbers_in_a_spec_and_a_placement(tmp_path: Path) -> None:
    from figure_sources import make_pdf

    make_pdf(tmp_path / "papers" / "paper.pdf")
    spec = f"source: ../papers/paper.pdf\nfigures:\n  - {{id: {'7' * 4000}, page: 1, box: [0, 0, 9, 9]}}\n"
    article = f"---\ntitle: a\n---\n\n/// figure | {'8' * 5000}\n///\n[x](#fig-{'9' * 5000})\n"
    found = _figure_check(tmp_path, spec, article)
    assert found[0].startswith("docs/a.figures.yml:3: DZ105 figure id 7777"), found
    assert "must be between 1 and 100000" in found[0]
    assert all(len(line) < 600 for line in found)


def test_a_20000_pt_page_is_refused_not_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _big_page_pdf(tmp_path / "papers" / "big.pdf")
    spec = "source: ../papers/big.pdf\nfigures:\n  - {id: 1, page: 1, box: [0, 0, 100, 100]}\n"
    found = _figure_check(tmp_path, spec)
    assert found == [
        "docs/a.figures.yml:3: DZ111 page 1 of source '../papers/big.pdf' is 20000 × 20000 "
        "points, over the 14400 pt (200 in) a PDF page may measure; refused, not rendered"
    ]
    # The preview refuses it too, before PDFium renders a pixel.
    import pypdfium2 as pdfium

    def no_render(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("rendered")

    monkeypatch.setattr(pdfium.PdfPage, "render", no_render)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["figures", "preview", "docs/a.md", "--dpi", "100"])
    assert result.exit_code == 1
    assert "big.pdf page 1: 20000 × 20000 points at 100 dpi is too large to draw" in result.stderr


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n", "eps"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "gif"),
        (b"BM" + b"\x00" * 60, "bmp"),
        (b"\x00\x00\x01\x00" + b"\x00" * 40, "ico"),
    ],
    ids=["eps", "gif", "bmp", "ico"],
)
def test_only_pdf_png_jpeg_webp_by_content(tmp_path: Path, data: bytes, name: str) -> None:
    path = tmp_path / "papers" / "fig.png"  # the name says PNG; the content decides
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    spec = "source: ../papers/fig.png\nfigures:\n  - {id: 1, box: [0, 0, 1, 1]}\n"
    assert _figure_check(tmp_path, spec) == [
        "docs/a.figures.yml:1: DZ110 source '../papers/fig.png': not a PDF, PNG, JPEG or WebP "
        "file (judged by its content, not its name); convert it to one of these"
    ]


def test_pillow_is_never_asked_for_another_format() -> None:
    from duizhao.figures.sources import open_image

    eps = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n"
    with pytest.raises(OSError, match="cannot identify image file"):
        open_image(eps)


def test_fifo_source_and_outside_spec_do_not_block_or_leak(tmp_path: Path) -> None:
    outside = tmp_path / "outside.yml"
    outside.write_text("SECRET: [\n", encoding="utf-8")
    root = tmp_path / "p"
    (root / "papers").mkdir(parents=True)
    os.mkfifo(root / "papers" / "paper.pdf")
    spec = "source: ../papers/paper.pdf\nfigures:\n  - {id: 1, page: 1, box: [0, 0, 9, 9]}\n"
    found = _figure_check(root, spec)
    assert len(found) == 1 and "DZ106 source '../papers/paper.pdf' does not exist" in found[0]
    (root / "docs" / "a.figures.yml").unlink()
    (root / "docs" / "a.figures.yml").symlink_to(outside)
    found = _figure_check(root, "")
    assert found[0] == (
        "docs/a.figures.yml:1: DZ018 refused: the figure spec resolves (through a symlink) "
        "outside the project; left out unread"
    )
    assert "SECRET" not in "".join(found)


# ---------------------------------------------------------------------------------------------
# Characters no UTF-8 page can hold: YAML escapes, configuration, file names (issue 12, pass 5)


def _is_non_printable(char: str) -> bool:
    from duizhao.yamlsafe import NON_PRINTABLE_RE

    return NON_PRINTABLE_RE.fullmatch(char) is not None


@given(st.characters(codec=None).filter(_is_non_printable), st.sampled_from(["u", "x", "U"]))
@example("\udcff", "u")
@example("\x00", "x")
def test_yaml_escapes_cannot_make_what_the_reader_refuses(char: str, form: str) -> None:
    """A double-quoted escape made lone surrogates and control characters (``"\\udcff"``,
    ``"\\0"``) that the reader refuses written raw; a surrogate crashed the UTF-8 write of
    every page and file it reached (the progress page, the 导言 index, the lock)."""
    code = ord(char)
    if form == "x" and code > 0xFF:
        form = "u"
    escape = {"x": f"\\x{code:02X}", "u": f"\\u{code:04X}", "U": f"\\U{code:08X}"}[form]
    with pytest.raises(InputError) as info:
        load_yaml(f'title: ok\npaper: {{title: "a{escape}b"}}\n')
    assert info.value.line == 2
    assert info.value.message.startswith(f"the escape for U+{code:04X} is not allowed in YAML")


@given(st.characters(codec="utf-8").filter(lambda c: not _is_non_printable(c)))
def test_yaml_escapes_of_printable_characters_still_read(char: str) -> None:
    assert load_yaml(f'a: "x\\U{ord(char):08X}y"\n')[0] == {"a": f"x{char}y"}


SURROGATE_ARTICLE = ARTICLE.replace("title: 示例", 'title: "T\\udcff\\0"').replace(
    "paper: {title: A paper,", 'paper: {title: "P\\ud800",'
)


def test_escaped_surrogates_in_front_matter_are_dz010_not_a_crash(
    make_site: Callable[..., Site], logs: Logs, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site(
        {"index.md": "# 首页\n\n<!-- duizhao:digest -->\n", "sec/a.md": SURROGATE_ARTICLE},
        plugins=[{"duizhao": {"progress_page": "progress.md", "site": {"sections": {"sec": "S"}}}}],
    )
    site.build()  # was: UnicodeEncodeError writing the progress page
    logs.take(r"sec/a\.md:2: DZ010 unreadable front matter: the escape for U\+DCFF", 1)
    logs.take(r"sec/a\.md:\d+: DZ01[2]|DZ201", count=None)
    assert (site.site_dir / "progress" / "index.html").exists()
    monkeypatch.chdir(site.root)
    result = CliRunner().invoke(main, ["check", "docs/sec/a.md"])
    assert result.exit_code == 1 and "docs/sec/a.md:2: DZ010" in result.stdout


def test_plugin_text_options_refuse_what_no_page_can_hold(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    """MkDocs reads mkdocs.yml with its own loader: a section name or a path option with an
    escaped surrogate or NUL is a configuration error naming the option (was: a traceback
    writing the section index, or 'embedded null byte' on the first open)."""
    from mkdocs.exceptions import Abort

    for option in ('site: {sections: {sec: "S\\udcff"}}', 'progress_page: "p\\0.md"'):
        site = make_site({"index.md": "# 首页\n"})
        (site.root / "mkdocs.yml").write_text(
            "site_name: t\ntheme: {name: material}\nplugins:\n  - duizhao:\n"
            f"      vendor_dir: {ROOT / 'node_modules'}\n      {option}\n",
            encoding="utf-8",
        )
        with pytest.raises(Abort):
            site.build()
    logs.take(r"option 'site': Sub-option 'sections': the value 'S\\udcff' holds U\+DCFF", 1)
    logs.take(r"option 'progress_page': the value 'p\\x00\.md' holds U\+0000 \(a control", 1)


BAD_NAME = os.fsdecode(b"bad\xff.md")


def test_page_names_that_are_not_utf8_are_refused(
    make_site: Callable[..., Site], logs: Logs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page named with undecodable bytes has no URL (MkDocs alone stops with a traceback):
    duizhao leaves it out with DZ011 in the build and every command, and names it printably.
    Other files keep such names (MkDocs copies them)."""
    site = make_site(
        {"index.md": "# 首页\n", "a.md": ARTICLE, BAD_NAME: ARTICLE},
        plugins=["search", {"duizhao": {"progress_page": "progress.md"}}],
    )
    (site.docs / os.fsdecode(b"img\xff.png")).write_bytes(b"x")
    site.build()  # was: UnicodeEncodeError in the progress page's link (and MkDocs' own URL)
    logs.take(r"docs/bad\\xff\.md:1: DZ011 refused: the file name is not UTF-8", 1)
    logs.take(r"DZ201", count=None)
    assert (site.site_dir / "a" / "index.html").exists()
    assert (site.site_dir / os.fsdecode(b"img\xff.png")).exists()
    monkeypatch.chdir(site.root)
    (site.root / "orig.txt").write_text("One.\n\nTwo.\n", encoding="utf-8")
    runs = {
        "check": CliRunner().invoke(main, ["check", "--format", "json"]),
        "accept": CliRunner().invoke(main, ["status", "--accept", "docs/"]),
        "import": CliRunner().invoke(
            main, ["import", os.fsdecode(b"docs/new\xff.md"), "--from", "orig.txt"]
        ),
        "renumber": CliRunner().invoke(main, ["renumber", "docs/a.md"]),
        "status": CliRunner().invoke(main, ["status", "--format", "json"]),
    }
    for name, result in runs.items():
        assert result.exception is None or isinstance(result.exception, SystemExit), name
        assert "\\xff" in result.output, (name, result.output)
        result.output.encode("utf-8")  # printable
    assert json.loads(runs["check"].stdout)[0]["path"] == "docs/bad\\xff.md"
    assert runs["accept"].exit_code == 1 and runs["import"].exit_code == 2
    assert runs["renumber"].exit_code == 1
    assert [r["article"] for r in json.loads(runs["status"].stdout)] == ["a.md"]
    assert not (site.root / "duizhao.lock").exists()


def test_writers_never_follow_a_link_out_of_the_project(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    """renumber read a page linked from outside the project, quoted it in its diff and, with
    --write, replaced the link with a copy of that file inside docs/ (to be published);
    status --accept and import read or wrote through it too."""
    secret = tmp_path / "secret.md"
    secret.write_text(ARTICLE.replace("示例", "SECRET") + "\n[x](p/docs/a.md#P001)\n", "utf-8")
    (tmp_path / "p").mkdir()
    root = project(tmp_path / "p", {"docs/a.md": ARTICLE.replace("| P001", "| P002")})
    (root / "docs" / "leak.md").symlink_to(secret)
    os.chdir(root)
    (root / "orig.txt").write_text("One.\n", encoding="utf-8")
    before = secret.read_bytes()
    for args in (
        ["renumber", "docs/a.md", "--write"],
        ["status", "--accept", "docs/leak.md"],
        ["status", "--accept", "docs/"],
        ["import", "docs/leak.md", "--from", "orig.txt"],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert "docs/leak.md:1: DZ018 refused: the file resolves" in result.stderr, args
        assert "SECRET" not in result.output, args
    assert (root / "docs" / "leak.md").is_symlink() and secret.read_bytes() == before
    assert "P002" in (root / "docs" / "a.md").read_text(encoding="utf-8")


def test_writes_go_through_symlinks_inside_the_project(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    """A lock or an article kept behind a symlink stays a symlink (was: replaced by a copy)."""
    root = project(tmp_path, {"docs/real.md": ARTICLE.replace("| P001", "| P002"), "locks/x": ""})
    (root / "locks" / "x").unlink()
    (root / "locks" / "duizhao.lock").write_text('{"articles": {}, "version": 1}\n', "utf-8")
    (root / "duizhao.lock").symlink_to("locks/duizhao.lock")
    (root / "docs" / "alias.md").symlink_to("real.md")
    assert run("renumber", "docs/alias.md", "--write").exit_code == 0
    assert run("status", "--accept", "docs/alias.md").exit_code == 0
    assert (root / "docs" / "alias.md").is_symlink() and (root / "duizhao.lock").is_symlink()
    assert "/// paragraph | P001" in (root / "docs" / "real.md").read_text(encoding="utf-8")
    lock = json.loads((root / "locks" / "duizhao.lock").read_text(encoding="utf-8"))
    assert list(lock["articles"]) == ["real.md"]


@given(
    st.lists(st.sampled_from(["\u2028", "\x85", "\u2029", " "]), min_size=1, max_size=6),
    st.integers(0, 3),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
@example(["\u2028"], 0, "\n")
def test_yaml_only_line_breaks_do_not_shift_lines(seps: list[str], extra: int, nl: str) -> None:
    """YAML ends a line at NEL, U+2028 and U+2029, where no editor (nor duizhao's scanner)
    does: a problem after one in the front matter was reported lines too far down."""
    title = "t" + "t".join(seps) + "t"
    front = [f'title: "{title}"', *[f"k{i}: v" for i in range(extra)], "paragraphs: 1-9"]
    bad = [*front, "date: 2026-13-45"]
    for lines, line, code in ((front, 3 + extra, "DZ013"), (bad, 4 + extra, "DZ010")):
        text = nl.join(["---", *lines, "---", "", "## 导言", "", "x", ""])
        found = [(d.line, d.code) for d in check_local(parse(text, "a.md"))]
        assert (line, code) in found, (found, text)


@given(
    st.one_of(
        st.integers(256, 5000).map(lambda n: "a" * n + ".md"),  # ENAMETOOLONG
        st.integers(1, 40).map(lambda n: "/".join(["d" * 200] * n) + ".md"),
        st.sampled_from(["a%00b.md", "%00.md", "x/%00/../a.md", "loop.md", "loop.md/x.md"]),
    ),
    st.sampled_from(["", "#P001", "#fig-1"]),
)
@example("a" * 300 + ".md", "#P001")
@example("a%00b.md", "#P001")
def test_links_to_names_no_file_can_have(name: str, fragment: str) -> None:
    """A link's path is the author's: a name too long for the file system or a %00 made
    'duizhao check' (and the build, and renumber) stop with OSError/ValueError. Such a page
    does not exist: DZ017."""
    import tempfile

    from duizhao.checks import Corpus, check_corpus

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        (docs / "loop.md").symlink_to("loop.md")
        text = ARTICLE + f"\n[x]({name}{fragment})\n"
        (docs / "a.md").write_text(text, encoding="utf-8")
        found = check_corpus([parse(text, docs / "a.md")], Corpus(docs))
        codes = [d.code for d in found if d.line == text.count("\n")]
        assert codes in (["DZ017"], ["DZ018"]), found
        from duizhao import renumber

        plan = renumber.plan(docs / "a.md", docs, [docs / "a.md"])
        assert not plan.changes


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, 100_000])
def test_json_is_read_to_a_bounded_depth(depth: int) -> None:
    """Every JSON duizhao reads (the lock, a --baseline, its caches) is depth-checked in one
    linear pass before json.loads, whose C decoder recurses per level: 100,000 ``[`` raised
    RecursionError (a traceback for ``check --baseline``); now a ValueError in words."""
    text = "[" * depth + "]" * depth
    if depth <= MAX_JSON_DEPTH:
        assert load_json(text) is not None
        return
    with pytest.raises(ValueError, match=f"line 1: nested more than {MAX_JSON_DEPTH} levels"):
        load_json(text)
    assert load_json('["' + "[" * 100_000 + '"]')  # brackets in a string are text
