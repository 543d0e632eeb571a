"""`duizhao renumber`: sequential IDs, every reference across the docs tree, atomic, idempotent."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from duizhao.cli import main
from test_cli import project

A = """\
---
title: A  # the paper
paragraphs: P001-P003
status: complete
---

## 导言

先读 [](#P002) 与 [第一段](#P001)；代码 `[](#P002)` 不是链接。

/// paragraph | P001
> One.

一。
///

/// paragraph | P???
> Inserted.

插入，见 [P002](#P002)。
///

/// paragraph | P002
> Two.

二，见 [](a.md#P003)。
///

```markdown
[](#P002)
```

/// paragraph | P003
> Three.

三。
///
"""

A_NEW = (
    A.replace("paragraphs: P001-P003", "paragraphs: P001-P004")
    .replace("先读 [](#P002)", "先读 [](#P003)")
    .replace("/// paragraph | P003", "/// paragraph | P004")
    .replace("/// paragraph | P002", "/// paragraph | P003")
    .replace("/// paragraph | P???", "/// paragraph | P002")
    .replace("见 [P002](#P002)", "见 [P003](#P003)")
    .replace("见 [](a.md#P003)", "见 [](a.md#P004)")
)

# CRLF and a BOM: both must survive.
B = (
    "\ufeff---\r\ntitle: B\r\n---\r\n\r\n"
    "见 [A 的 P002](a.md#P002)、[](../papers/a.md#P003)、[C](c.md#P002) 与 [ref][r]。\r\n"
    "\r\n"
    "[r]: ./a.md#P001\r\n"
)
B_NEW = B.replace("(a.md#P002)", "(a.md#P003)").replace("a.md#P003)、[C]", "a.md#P004)、[C]")

C = """\
---
title: C
paragraphs: P001-P002
---

## 导言

引言。

/// paragraph | P001
一 [](#P002)
///

/// paragraph | P002
二
///
"""

INDEX = "# 首页\n\n[](papers/a.md#P003) [](/papers/a.md#P002) [](papers/a.md#intro)\n"
INDEX_NEW = INDEX.replace("a.md#P003", "a.md#P004").replace(
    "/papers/a.md#P002", "/papers/a.md#P003"
)

FILES = {
    "docs/papers/a.md": A,
    "docs/papers/b.md": B,
    "docs/papers/c.md": C,
    "docs/index.md": INDEX,
}


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the project but the writers' advisory lock (an empty, ignored file)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".duizhao.lock.lock"
    }


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    monkeypatch.chdir(tmp_path)
    return lambda *args: CliRunner().invoke(main, list(args))


def test_dry_run_prints_a_diff_and_writes_nothing(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, FILES)
    before = snapshot(tmp_path)
    result = run("renumber", "docs/papers/a.md")
    assert result.exit_code == 0, result.output
    assert snapshot(tmp_path) == before
    assert result.stderr == "dry run: would change 3 IDs, 7 links, 3 files; apply with --write\n"
    diff = result.stdout
    assert diff.startswith("--- a/docs/index.md\n+++ b/docs/index.md\n@@ -1,3 +1,3 @@\n")
    assert "-/// paragraph | P???\n+/// paragraph | P002\n" in diff
    assert "--- a/docs/papers/c.md" not in diff


def test_write_rewrites_ids_references_and_range(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, FILES)
    result = run("renumber", "docs/papers/a.md", "--write")
    assert result.exit_code == 0, result.output
    assert result.stderr == "docs/papers/a.md: renumbered 3 IDs, 7 links, 3 files\n"
    assert snapshot(tmp_path) == {
        "docs/index.md": INDEX_NEW.encode(),
        "docs/papers/a.md": A_NEW.encode(),
        "docs/papers/b.md": B_NEW.encode(),
        "docs/papers/c.md": C.encode(),
        "mkdocs.yml": b"site_name: t\ndocs_dir: docs\n",
    }
    # The result is clean and a second run has nothing to do.
    assert run("check").exit_code == 0
    again = run("renumber", "docs/papers/a.md", "--write")
    assert again.exit_code == 0
    assert again.stdout == ""
    assert again.stderr == "docs/papers/a.md: IDs are already sequential; nothing to change\n"
    assert snapshot(tmp_path)["docs/papers/a.md"] == A_NEW.encode()


def test_crash_between_writes_leaves_every_file_old_or_new(
    tmp_path: Path, run: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path, FILES)
    old = snapshot(tmp_path)
    (tmp_path / "expected").mkdir()
    project(tmp_path / "expected", FILES)
    monkeypatch.chdir(tmp_path / "expected")
    assert run("renumber", "docs/papers/a.md", "--write").exit_code == 0
    new = snapshot(tmp_path / "expected")
    monkeypatch.chdir(tmp_path)

    real_replace = os.replace
    calls: list[str] = []

    def crash_after_first(src: str, dst: str) -> None:
        calls.append(str(dst))
        if len(calls) > 1:
            raise OSError(28, "No space left on device (simulated)")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crash_after_first)
    result = run("renumber", "docs/papers/a.md", "--write")
    monkeypatch.setattr(os, "replace", real_replace)

    assert result.exit_code == 1
    assert "renumber stopped: [Errno 28] No space left on device (simulated)" in result.stderr
    after = {k: v for k, v in snapshot(tmp_path).items() if not k.startswith("expected/")}
    assert after.keys() == old.keys()  # nothing lost, no temporary file left behind
    rewritten = [k for k in after if after[k] != old[k]]
    assert len(rewritten) == 1 and after[rewritten[0]] == new[rewritten[0]]
    assert all(after[k] in (old[k], new[k]) for k in after)
    assert f"rewritten: {rewritten[0]}" in result.stderr


def test_duplicate_id_linked_from_elsewhere_is_refused(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    duplicated = A.replace("/// paragraph | P???", "/// paragraph | P002")
    project(tmp_path, {**FILES, "docs/papers/a.md": duplicated})
    before = snapshot(tmp_path)
    result = run("renumber", "docs/papers/a.md", "--write")
    assert result.exit_code == 1
    assert snapshot(tmp_path) == before
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "docs/index.md:3: DZ302 link [](/papers/a.md#P002) is ambiguous: P002 is the ID of the "
        "blocks at lines 17, 23 of docs/papers/a.md; give the inserted block a placeholder ID "
        "such as '/// paragraph | P???' so that renumber can tell them apart"
    )
    assert [line.split(": ")[0] for line in lines[1:-1]] == [
        "docs/papers/a.md:9",
        "docs/papers/a.md:20",
        "docs/papers/b.md:5",
    ]
    assert lines[-1] == "cannot renumber docs/papers/a.md; nothing written"


def test_unlinked_duplicates_are_numbered_apart(tmp_path: Path, run: Callable[..., Result]) -> None:
    text = C.replace("一 [](#P002)", "一").replace("| P002", "| P001")
    project(tmp_path, {"docs/c.md": text})
    assert run("renumber", "docs/c.md", "--write").exit_code == 0
    assert (tmp_path / "docs/c.md").read_text(encoding="utf-8") == C.replace("一 [](#P002)", "一")


def test_without_a_range_numbering_starts_at_the_first_block(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    text = "/// paragraph | P050\n一\n///\n\n/// paragraph | P052\n二 [](#P052)\n///\n"
    project(tmp_path, {"docs/part2.md": text})
    assert run("renumber", "docs/part2.md", "--write").exit_code == 0
    assert (tmp_path / "docs/part2.md").read_text(encoding="utf-8") == text.replace("P052", "P051")


def test_unreadable_file_in_the_tree_is_refused(tmp_path: Path, run: Callable[..., Result]) -> None:
    project(tmp_path, FILES)
    (tmp_path / "docs/latin1.md").write_bytes(b"caf\xe9 [](papers/a.md#P002)\n")
    before = snapshot(tmp_path)
    result = run("renumber", "docs/papers/a.md", "--write")
    assert result.exit_code == 1
    assert result.stderr.startswith("docs/latin1.md:1: DZ011 file is not UTF-8")
    assert snapshot(tmp_path) == before


def test_unclosed_block_is_refused(tmp_path: Path, run: Callable[..., Result]) -> None:
    project(tmp_path, {"docs/c.md": C.replace("二\n///\n", "二\n")})
    result = run("renumber", "docs/c.md")
    assert result.exit_code == 1
    assert result.stderr.startswith("docs/c.md:14: DZ007 unclosed paragraph block")


def test_accepted_digests_follow_the_new_ids(tmp_path: Path, run: Callable[..., Result]) -> None:
    project(tmp_path, {"docs/papers/a.md": A.replace("/// paragraph | P???\n", "")})
    # Accept, then insert a paragraph before P002 as an author would.
    assert run("status", "--accept", "docs/papers/a.md").exit_code == 0
    path = tmp_path / "docs/papers/a.md"
    path.write_text(A, encoding="utf-8")
    result = run("renumber", "docs/papers/a.md", "--write")
    assert result.exit_code == 0, result.output
    status = run("status", "--format", "json")
    assert status.exit_code == 0
    assert '"stale": []' in status.stdout  # digests moved with their paragraphs
    lock = (tmp_path / "duizhao.lock").read_text(encoding="utf-8")
    assert '"P002"' not in lock  # the inserted paragraph was never accepted
    assert '"P003"' in lock and '"P004"' in lock


def test_an_article_is_renumbered_in_its_own_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From another site's folder (or a monorepo root without mkdocs.yml), the article's
    project is the one of its nearest mkdocs.yml: its docs, its links, its lock."""
    site = project(tmp_path / "site", FILES)
    project(tmp_path / "other", {"docs/x.md": C})
    monkeypatch.chdir(tmp_path / "other")
    result = CliRunner().invoke(main, ["renumber", "../site/docs/papers/a.md", "--write"])
    assert result.exit_code == 0, result.output
    assert result.stderr == "../site/docs/papers/a.md: renumbered 3 IDs, 7 links, 3 files\n"
    assert snapshot(site)["docs/index.md"] == INDEX_NEW.encode()
    assert (site / ".duizhao.lock.lock").exists()
    assert not (tmp_path / "other" / ".duizhao.lock.lock").exists()
