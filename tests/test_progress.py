"""Stale and missing translations: the lock, `duizhao status`, the 进度 page, the stale mark."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from mkdocs.exceptions import Abort

from conftest import ROOT, Logs, Site
from duizhao.cli import main
from test_cli import project

ARTICLE = """\
---
title: 示例论文
paragraphs: P001-P005  # the paper has five
status: draft
figures: 2
---

## 导言

引言。

/// paragraph | P001
> Serving is a systems problem.

服务是一个系统问题。
///

/// paragraph | P002
> Tokens move between experts.

token 在专家之间移动。
///

/// figure | 1
///

/// paragraph | P003
> Not translated yet.

<!-- duizhao:todo -->
///
"""

OTHER = """\
---
title: 另一篇
paragraphs: P001-P001
status: complete
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


#: the 进度 page is generated where the site asks for it
PROGRESS = {"duizhao": {"progress_page": "progress.md"}}


def edit_original(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("between experts.", "between expert groups."), encoding="utf-8")


def test_stale_after_an_original_edit_and_current_after_accept(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, {"docs/papers/a.md": ARTICLE, "docs/b.md": OTHER})
    before = run("status")
    assert before.exit_code == 0
    assert before.stdout == (
        "ARTICLE      DECLARED  TRANSLATED  STALE  MISSING  FIGURES  PROGRESS\n"
        "b.md                1           1      0        0      0/-  ████████████████████ 100%\n"
        "papers/a.md         5           2      0        3      1/2  ████████░░░░░░░░░░░░  40%\n"
    )
    # Nothing accepted yet: an edit cannot be told from the original text.
    edit_original(tmp_path / "docs/papers/a.md")
    assert run("status").stderr == ""

    accepted = run("status", "--accept", "docs/papers/a.md", "--accept", "docs/b.md")
    assert accepted.exit_code == 0, accepted.output
    assert accepted.stdout == (
        "docs/papers/a.md: accepted 2 paragraphs\ndocs/b.md: accepted 1 paragraph\n"
    )
    lock = (tmp_path / "duizhao.lock").read_text(encoding="utf-8")
    data = json.loads(lock)
    assert list(data) == ["articles", "version"] and data["version"] == 1
    assert sorted(data["articles"]) == ["b.md", "papers/a.md"]
    assert sorted(data["articles"]["papers/a.md"]) == ["P001", "P002"]  # P003 is still to do
    assert lock == json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"

    # The paper's revision changes P002's original: P002 is stale.
    path = tmp_path / "docs/papers/a.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("expert groups.", "expert groups (v6)."),
        encoding="utf-8",
    )
    stale = run("status")
    assert stale.stdout.splitlines()[2] == (
        "papers/a.md         5           2      1        3      1/2  ████▒▒▒▒░░░░░░░░░░░░  40%"
    )
    assert stale.stderr == (
        "docs/papers/a.md:18: DZ301 the original of P002 changed after its translation was "
        "accepted; review the translation, then run "
        "'duizhao status --accept docs/papers/a.md#P002'\n"
    )
    report = json.loads(run("status", "--format", "json").stdout)
    assert report[1] == {
        "article": "papers/a.md",
        "title": "示例论文",
        "declared": 5,
        "translated": 2,
        "stale": ["P002"],
        "missing": ["P003", "P004", "P005"],
        "unaccepted": 0,
        "figures": {"declared": 2, "placed": 1, "captions_untranslated": 0},
    }

    # Re-wrapping the original is not a change; accepting the one paragraph clears it.
    assert run("status", "--accept", "docs/papers/a.md#P002").exit_code == 0
    path.write_text(
        path.read_text(encoding="utf-8").replace("> Tokens move", ">   Tokens\n> move"),
        encoding="utf-8",
    )
    assert json.loads(run("status", "--format", "json").stdout)[1]["stale"] == []


def test_accept_refuses_unknown_and_untranslated_paragraphs(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, {"docs/a.md": ARTICLE})
    todo = run("status", "--accept", "docs/a.md#P003")
    assert todo.exit_code == 2 and "P003 in docs/a.md has no translation yet" in todo.stderr
    unknown = run("status", "--accept", "docs/a.md#P009")
    assert unknown.exit_code == 2 and "docs/a.md has no paragraph P009" in unknown.stderr
    outside = run("status", "--accept", "mkdocs.yml")
    assert outside.exit_code == 2
    assert not (tmp_path / "duizhao.lock").exists()


def test_conflicted_lock_is_reported_not_overwritten(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    project(tmp_path, {"docs/a.md": ARTICLE})
    conflicted = '{\n<<<<<<< HEAD\n  "articles": {},\n=======\n>>>>>>> other\n  "version": 1\n}\n'
    (tmp_path / "duizhao.lock").write_text(conflicted, encoding="utf-8")
    result = run("status", "--accept", "docs/a.md")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "duizhao.lock:2: DZ303 lock file is not valid JSON: Expecting property name enclosed in "
        "double quotes in '<<<<<<< HEAD' (an unresolved merge conflict?)"
    )
    assert (tmp_path / "duizhao.lock").read_text(encoding="utf-8") == conflicted


# ---------------------------------------------------------------------------------------------
# The site


def test_progress_page_and_stale_mark_in_a_built_site(
    make_site: Callable[..., Site], run: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site(
        {"papers/a.md": ARTICLE, "b.md": OTHER, "index.md": "# 首页\n"}, plugins=[PROGRESS]
    )
    monkeypatch.chdir(site.root)
    assert run("status", "--accept", "docs/papers/a.md").exit_code == 0
    edit_original(site.docs / "papers/a.md")
    site.build()

    html = site.html("progress.md")
    assert "<title>翻译进度 - Test</title>" in html
    assert (
        "共 2 篇文章、6 个段落：已译 3 段（50%），其中 1 段的原文在译文确认后有更新、需要复核；"
        "缺译 3 段。“插图”一栏为已放置/已声明的图数。"
    ) in html
    assert (
        '<td><a href="../papers/a/">示例论文</a></td>\n'
        '<td><span class="dz-progress"><span class="dz-bar" role="img" '
        'aria-label="已译 40%，其中 1 段原文已更新">'
        '<span class="dz-bar__current" style="width: 20.0%"></span>'
        '<span class="dz-bar__stale" style="width: 20.0%"></span></span> 2/5</span></td>\n'
        '<td style="text-align: right;">1</td>\n<td style="text-align: right;">3</td>\n'
        '<td style="text-align: right;">1/2</td>'
    ) in html
    assert '原文已更新、译文待复核：<a href="../papers/a/#P002">P002</a>' in html
    assert '待翻译：<a href="../papers/a/#P003">P003</a>' in html
    assert "尚未导入原文：P004–P005" in html
    assert "另一篇</h2>" not in html  # complete and current: nothing to list

    page = site.html("papers/a.md")
    assert (
        '<div class="dz-para dz-para--stale" data-dz-id="P002" id="P002">'
        '<a class="dz-pid" href="#P002" title="段落 P002 的链接">P002</a>'
        '<span class="dz-stale" title="英文原文在译文确认之后有改动，译文待复核">原文已更新</span>'
    ) in page
    assert page.count("dz-stale") == 1
    assert 'href="../../assets/duizhao/duizhao.css"' in page


def test_broken_lock_warns_and_the_build_goes_on(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    site = make_site({"a.md": ARTICLE}, plugins=[PROGRESS])
    (site.root / "duizhao.lock").write_text("[]\n", encoding="utf-8")
    site.build()
    logs.take(r"duizhao\.lock:1: DZ303 lock file has an unknown layout", count=1)
    assert "dz-stale" not in site.html("a.md")
    assert "尚未导入原文" in site.html("progress.md")


def test_no_progress_page_unless_asked(make_site: Callable[..., Site]) -> None:
    site = make_site({"a.md": ARTICLE})
    site.build()
    assert not (site.site_dir / "progress").exists()


def test_progress_page_must_be_a_markdown_path(make_site: Callable[..., Site], logs: Logs) -> None:
    site = make_site({"a.md": ARTICLE}, plugins=[{"duizhao": {"progress_page": "progress"}}])
    with pytest.raises(Abort):
        site.build()
    logs.take(r"progress_page: 'progress' must be a \.md path inside docs_dir", count=1)


def test_pre_commit_hook_runs_duizhao_check() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in hooks] == ["duizhao-check"]
    hook = hooks[0]
    assert hook["entry"].split() == ["duizhao", "check", "--strict"]
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert main.get_command(None, "check") is not None  # type: ignore[arg-type]


def test_accepting_updates_the_stale_mark_under_a_dirty_rebuild(
    make_site: Callable[..., Site],
    run: Callable[..., Result],
    monkeypatch: pytest.MonkeyPatch,
    logs: Logs,
) -> None:
    """`mkdocs serve --dirty` rebuilds when duizhao.lock is saved; the article's own file did
    not change, but its 原文已更新 marks did."""
    site = make_site(
        {"papers/a.md": ARTICLE, "b.md": OTHER, "index.md": "# 首页\n"}, plugins=[PROGRESS]
    )
    monkeypatch.chdir(site.root)
    assert run("status", "--accept", "docs/papers/a.md").exit_code == 0
    edit_original(site.docs / "papers/a.md")
    site.build(serve=True)
    assert site.html("papers/a.md").count("dz-stale") == 1
    assert run("status", "--accept", "docs/papers/a.md").exit_code == 0
    site.build(dirty=True)
    logs.take("A 'dirty' build is being performed", count=1)
    assert "dz-stale" not in site.html("papers/a.md")
    assert "原文已更新、译文待复核" not in site.html("progress.md")
