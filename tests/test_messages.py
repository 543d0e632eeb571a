"""No Python word reaches a user (issue 19): every command run as a user runs it, in its own
process, on the hostile inputs of the suite, says what is wrong in words.

The in-process scanners of conftest.py see the diagnostics, the logged warnings and the
output of ``CliRunner``; a separate process also shows what they cannot: what Python itself
writes to stderr (an uncaught exception's traceback, a ``warnings`` line such as
``UserWarning: …`` from a library, a ``RecursionError`` at start-up), and what ``mkdocs build``
prints. stdout and stderr of each run are scanned with the same pattern as the suite's
messages (``conftest.scan_message``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bench import rawpdf

from conftest import _PYTHON_WORDS_RE, ALLOWED_WORDS
from figure_sources import make_pdf
from test_hostile import laughs

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

GOOD = """\
---
title: 示例
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P002
status: draft
figures: 1
---

## 导言

引言。

/// paragraph | P001
> One.

一。
///

/// figure | 1
///
"""

DEEP_ORIGINAL = (
    "# Deep\n\nA paragraph "
    + "<b>" * 5000
    + "deep"
    + "</b>" * 5000
    + ".\n\n"
    + "<div>" * 5000
    + "block\n\n"
    + ">" * 5000
    + " quoted\n\n"
    + "<table><tr><td>" * 2000
    + "cell\n"
)

#: The hostile files of the suite's tests (test_hostile, test_bounds, test_html_depth, the
#: fuzzers' shapes), together in one project.
FILES: dict[str, bytes] = {
    "docs/index.md": b"# Home\n",
    "docs/good.md": GOOD.encode(),
    "docs/good.figures.yml": b"source: ../papers/p.pdf\nfigures:\n"
    b"  - {id: 1, page: 1, box: [.nan, 0, .inf, 9]}\n",
    "docs/dates.md": GOOD.replace("status: draft", "status: draft\ndate: 2026-13-45").encode(),
    "docs/bigint.md": GOOD.replace("figures: 1", "figures: " + "9" * 5000).encode(),
    "docs/billion.md": GOOD.replace("figures: 1", "figures: 999999999").encode(),
    "docs/python.md": GOOD.replace("status: draft", "x: !!python/object:os.system ls").encode(),
    "docs/laughs.md": ("---\ntitle: L\n" + laughs() + "\n---\n\n# L\n").encode(),
    "docs/nested-yaml.md": ("---\ntitle: N\nx: " + "[" * 5000 + "\n---\n\n# N\n").encode(),
    "docs/surrogate.md": GOOD.replace("title: 示例", 'title: "T\\udcff\\0"').encode(),
    "docs/range.md": GOOD.replace("P001-P002", "P001-P999999999").encode(),
    "docs/long-id.md": GOOD.replace("P001\n>", "P" + "1" * 5000 + "\n>").encode(),
    "docs/not-utf8.md": b"# \xff\xfe bad bytes\n",
    os.fsdecode(b"docs/bad\xff.md"): b"# x\n",
    "docs/deep-quote.md": b"# Q\n\n" + b">" * 10000 + b" deep\n",
    "docs/deep-list.md": b"# L\n\n" + "".join("  " * i + "- x\n" for i in range(700)).encode(),
    "docs/deep-html.md": b"# H\n\n" + b'<div markdown="1">\n\n' * 1000 + b"x\n",
    "docs/deep-blocks.md": b"# B\n\n" + b"/// details | t\n" * 2000,
    "docs/long-line.md": GOOD.replace("引言。", "[`*P0](#P0 _<!-- " * 4000).encode(),
    "docs/unclosed.md": GOOD.replace("一。\n///", "一。").replace("引言。", "```\ncode").encode(),
    "docs/links.md": b"# Links\n\n[a](good.md#P999) [b](../../etc/passwd) [c](missing.md#P001)\n",
    "duizhao.lock": b"[" * 100_000,
    # every JSON duizhao reads is depth-checked before json.loads (yamlsafe.load_json)
    "deep.json": b"[" * 100_000,
    ".cache/duizhao/quality.json": b"{" * 100_000,
    # (but for check.json, the check's own cache: the decoder's RecursionError is no cache)
    ".cache/duizhao/check.json": b"[" * 100_000,
    ".cache/duizhao/figures/manifest.json": b"[" * 100_000,
    "glossary.yml": b"terms: " + b"{" * 3000 + b"\n",
    "originals/deep.md": DEEP_ORIGINAL.encode(),
    "originals/binary.md": b"\x00\xff\xfe" * 1000,
    "originals/empty.md": b"",
}


#: Python's own phrasing, which only the text of an exception carries (``str(exc)`` passed on):
#: a codec's complaint, a function to call, an errno, a recursion.
_PYTHON_PHRASES_RE = re.compile(
    r"codec can't (?:de|en)code|\bsys\.[a-z_]+\(|\[Errno [0-9]+\]|maximum recursion depth|"
    r"object has no attribute|unhashable type|invalid literal for|NoneType|"
    r"not supported between instances|positional argument"
)


def _python_words(text: str) -> list[str]:
    found = [m.group() for m in _PYTHON_WORDS_RE.finditer(text) if m.group() not in ALLOWED_WORDS]
    found += [m.group() for m in _PYTHON_PHRASES_RE.finditer(text)]
    # "Error:" inside a line is an exception's name (KeyError: …) or its text; at the start
    # of a line it is click's usage error, a sentence in words ("Error: no figure …")
    found += [line for line in text.splitlines() if "Error:" in line[1:]]
    return found


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("messages")
    (root / "mkdocs.yml").write_text(
        "site_name: Hostile\n"
        "theme: {name: material, language: zh, font: false}\n"
        f"plugins: [search, {{duizhao: {{vendor_dir: {ROOT / 'node_modules'}}}}}]\n"
        "markdown_extensions: [attr_list, md_in_html, pymdownx.blocks.details]\n",
        encoding="utf-8",
    )
    for rel, data in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (root / "papers").mkdir()
    make_pdf(root / "papers" / "p.pdf")
    # PDFs the engine refuses (tests/test_pdf_input.py): one line each, DZ113
    whole = rawpdf.write(root / "papers" / "damaged.pdf", rawpdf.text([(72, 700, "A paper.")]))
    whole.write_bytes(whole.read_bytes()[:200])
    rawpdf.encrypted(root / "papers" / "encrypted.pdf")
    rawpdf.scanned(root / "papers" / "scanned.pdf")
    rawpdf.nested_forms(root / "papers" / "nested.pdf")
    rawpdf.fanned_forms(root / "papers" / "fanned.pdf")
    os.mkfifo(root / "docs" / "fifo.md")
    os.symlink("/dev/zero", root / "docs" / "zero.md")
    return root


RUNS = {
    "check": ["duizhao", "check", "docs"],
    "check-strict": ["duizhao", "check", "--strict", "docs/deep-html.md", "docs/good.md"],
    "status": ["duizhao", "status"],
    "renumber": ["duizhao", "renumber", "docs/good.md"],
    "import-deep": ["duizhao", "import", "docs/new/deep.md", "--from", "originals/deep.md"],
    "import-binary": ["duizhao", "import", "docs/new/bin.md", "--from", "originals/binary.md"],
    "import-empty": ["duizhao", "import", "docs/new/empty.md", "--from", "originals/empty.md"],
    "import-fifo": ["duizhao", "import", "docs/new/fifo.md", "--from", "docs/fifo.md"],
    "import-missing": ["duizhao", "import", "docs/new/m.md", "--from", "originals/none.md"],
    "detect-damaged": ["duizhao", "figures", "detect", "papers/damaged.pdf"],
    "detect-nested": ["duizhao", "figures", "detect", "papers/nested.pdf"],
    "import-encrypted": ["duizhao", "import", "docs/new/e.md", "--from", "papers/encrypted.pdf"],
    "import-scanned": ["duizhao", "import", "docs/new/s.md", "--from", "papers/scanned.pdf"],
    "update-fanned": ["duizhao", "update", "docs/good.md", "--from", "papers/fanned.pdf"],
    "figures-preview": ["duizhao", "figures", "preview", "docs/good.md"],
    "glossary-check": ["duizhao", "glossary", "check"],
    "update": ["duizhao", "update", "docs/good.md", "--from", "originals/deep.md"],
    "check-baseline": ["duizhao", "check", "--baseline", "deep.json", "docs/good.md"],
    "bad-option": ["duizhao", "check", "--no-such-option"],
    "mkdocs-build": ["mkdocs", "build", "--site-dir", "site"],
    "status-accept": ["duizhao", "status", "--accept", "docs/good.md"],  # (rebuilds the lock)
}


@pytest.mark.parametrize("command", RUNS.values(), ids=RUNS.keys())
def test_no_python_word_in_what_a_command_prints(hostile: Path, command: list[str]) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONWARNINGS": "default"}
    done = subprocess.run(
        [str(BIN / command[0]), *command[1:]],
        cwd=hostile,
        env=env,
        capture_output=True,
        text=True,
        errors="backslashreplace",
        timeout=180,
        check=False,
    )
    printed = done.stdout + done.stderr
    assert done.returncode in (0, 1, 2), printed[-3000:]
    leaked = _python_words(printed)
    where = [line for line in printed.splitlines() if _python_words(line)]
    assert not leaked, "\n".join(line[:300] for line in where[:10])
