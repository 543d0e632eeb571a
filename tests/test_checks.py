"""Golden diagnostics: each tests/golden/checks/*.yml holds source files and the exact report."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

from duizhao.article import read_article
from duizhao.checks import Corpus, check_corpus, check_local
from duizhao.cli import iter_markdown
from duizhao.diagnostics import CODES
from duizhao.quality.run import Quality

GOLDEN = Path(__file__).parent / "golden" / "checks"
CASES = sorted(GOLDEN.glob("*.yml"))


def run_check(root: Path, targets: list[Path]) -> str:
    files = list(iter_markdown(targets))
    quality = Quality()  # as duizhao check runs them (without a cache)
    local = functools.partial(check_local, quality=quality)
    found = check_corpus((read_article(p) for p in files), Corpus(root / "docs"), local)
    found.sort(key=lambda d: (str(d.path), d.line, d.code))
    return "".join(d.format(root) + "\n" for d in found)


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_golden(case: Path, tmp_path: Path) -> None:
    spec = yaml.safe_load(case.read_text(encoding="utf-8"))
    write_files(tmp_path, spec["files"])
    assert run_check(tmp_path, [tmp_path / "docs"]) == spec["expected"]


def test_golden_cases_cover_every_core_code() -> None:
    text = "".join(c.read_text(encoding="utf-8") for c in CASES)
    core = [code for code in CODES if code[2] == "0"]  # DZ0xx are the foundation's
    # DZ011 (unreadable bytes), DZ018 (symlinks) and DZ019 (mkdocs.yml) need files a golden
    # YAML cannot hold: tests/test_hostile.py covers them.
    missing = [
        code
        for code in core
        if f": {code} " not in text and code not in ("DZ011", "DZ018", "DZ019")
    ]
    assert missing == []


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "latin1.md").write_bytes(b"---\ntitle: x\n---\n\ncaf\xe9\n")
    assert run_check(tmp_path, [tmp_path / "docs"]) == (
        "docs/latin1.md:5: DZ011 file is not UTF-8 (byte 0xe9 at offset 21); save it as UTF-8\n"
    )


def test_bom_and_crlf_keep_line_numbers(tmp_path: Path) -> None:
    src = "\ufeff---\r\ntitle: T\r\n---\r\n\r\n## 导言\r\n\r\n引言\r\n\r\n/// paragraph | P1\r\n一\r\n///\r\n"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_bytes(src.encode("utf-8"))
    report = run_check(tmp_path, [tmp_path / "docs"])
    assert "docs/a.md:9: DZ001 malformed paragraph ID 'P1'" in report.splitlines()[1]


def test_readme_lists_every_code_with_its_severity() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (DZ\d{3}) \| (error|warning) \|", readme, re.MULTILINE))
    assert rows == {code: severity.value for code, (severity, _) in CODES.items()}


ARTICLE_P001 = (
    "---\ntitle: A\npaper: {title: P, license: MIT}\n---\n\n## 导言\n\n引言。\n\n"
    "/// paragraph | P001\n> Original.\n\n译文。\n///\n"
)


def test_links_to_anchors_of_pages_that_are_not_articles_are_mkdocs_business(
    tmp_path: Path,
) -> None:
    """`#table-2`, `#fig-1`, `#P001` on a site's own page are its headings and ids: duizhao
    checks only the anchors it emits itself, on translations."""
    write_files(
        tmp_path,
        {
            "docs/index.md": (
                "# Start\n\n## Table 2\n\n## P001 { #P001 }\n\n"
                "[t](#table-2) [p](#P001) [o](other.md#fig-3) [a](a.md#P001)\n"
            ),
            "docs/other.md": '# Other\n\n<span id="fig-3">x</span>\n',
            "docs/a.md": ARTICLE_P001 + "\n[x](index.md#table-2) [y](#P009) [z](a.md#fig-2)\n",
        },
    )
    assert run_check(tmp_path, [tmp_path / "docs"]).splitlines() == [
        "docs/a.md:16: DZ008 link [y](#P009) points to #P009, which is not in this article",
        "docs/a.md:16: DZ008 link [z](a.md#fig-2) points to #fig-2, which is not in 'a.md'",
    ]
