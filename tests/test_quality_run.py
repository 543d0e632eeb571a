"""The translation checks switched on: `duizhao check` and the build report them through one
path (checks.check_local), with `quality:` options, per-block ignores, a baseline and the
findings cache (issue 23)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import Logs, Site
from duizhao import article as article_module
from duizhao.article import file_stamp
from duizhao.cli import main

ARTICLE = """\
---
title: Q
paper: {title: Q, license: CC-BY-4.0}
paragraphs: P001-P002
status: complete
---

## 导言

引言。

/// paragraph | P001
> The speedup is 1.8× on 1,024 GPUs.

在 1024 块 GPU 上加速 1.6 倍。
///

/// paragraph | P002
> Prior work [3, 7] did this.

先前的工作 [3, 7] 做过这件事。
///
"""


def _project(tmp_path: Path, quality: object = None, text: str = ARTICLE) -> Path:
    options: dict[str, object] = {} if quality is None else {"quality": quality}
    config = {"site_name": "T", "plugins": [{"duizhao": options}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "a.md").write_text(text, encoding="utf-8")
    return tmp_path


def _check(
    root: Path, chdir: Callable[[Path], None], *args: str
) -> tuple[int, str]:  # (exit code, output)
    chdir(root)
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.output


def test_check_reports_translation_errors(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    code, out = _check(_project(tmp_path), chdir)
    assert code == 1
    assert "docs/a.md:12: DZ405 P001: number 1.8 of the original is missing or changed" in out
    assert "P002" not in out


@pytest.mark.parametrize(
    "quality", [{"ignore": ["DZ405"]}, {"enabled": False}], ids=["ignore", "off"]
)
def test_options_silence_the_checks(
    tmp_path: Path, chdir: Callable[[Path], None], quality: object
) -> None:
    assert _check(_project(tmp_path, quality), chdir) == (
        0,
        "1 file checked: 0 errors, 0 warnings\n",
    )


def test_a_block_silences_a_code(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    text = ARTICLE.replace("加速 1.6 倍。", "加速 1.6 倍。<!-- duizhao-ignore DZ405 -->")
    assert _check(_project(tmp_path, text=text), chdir)[0] == 0


def test_an_unknown_code_is_a_usage_error(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    code, out = _check(_project(tmp_path, {"ignore": ["DZ001"]}), chdir)
    assert code == 2
    assert "DZ019 plugins: duizhao: quality: ignore: 'DZ001' is not a translation check" in out


def test_baseline_leaves_out_known_problems(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    root = _project(tmp_path)
    code, out = _check(root, chdir, "--format", "json")
    assert code == 1 and [d["code"] for d in json.loads(out)] == ["DZ405"]
    (root / "baseline.json").write_text(out, encoding="utf-8")
    # the problem moves two lines down: still the baseline's
    text = ARTICLE.replace("## 导言\n", "## 导言\n\n段落。\n")
    (root / "docs" / "a.md").write_text(text, encoding="utf-8")
    code, out = _check(root, chdir, "--baseline", "baseline.json", "--strict")
    assert (code, out) == (0, "1 file checked: 0 errors, 0 warnings (1 more in the baseline)\n")
    (root / "bad.json").write_text("{", encoding="utf-8")
    code, out = _check(root, chdir, "--baseline", "bad.json")
    assert code == 2 and "not the JSON of 'duizhao check --format json'" in out


def test_findings_are_kept_between_runs(
    tmp_path: Path, chdir: Callable[[Path], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(article_module, "RACY_NS", 0)  # the file was written just now
    root = _project(tmp_path)
    first = _check(root, chdir)
    assert (root / ".cache" / "duizhao" / "quality.json").is_file()

    def fail(*_args: object) -> None:
        raise AssertionError("checked again")

    monkeypatch.setattr("duizhao.quality.checks.check_block", fail)
    assert _check(root, chdir) == first  # from the cache
    # an edit of the same size is a new stamp: checked again
    (root / "docs" / "a.md").write_text(ARTICLE.replace("1.6", "1.7"), encoding="utf-8")
    with pytest.raises(AssertionError, match="checked again"):
        CliRunner().invoke(main, ["check"], catch_exceptions=False)
    monkeypatch.undo()
    monkeypatch.setattr(article_module, "RACY_NS", 0)
    assert _check(root, chdir, "--no-cache") == _check(root, chdir)


def test_a_file_changed_just_now_has_no_stamp(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("x", encoding="utf-8")
    info = os.stat(path)
    assert file_stamp(info) is None
    later = max(info.st_mtime_ns, info.st_ctime_ns) + 3_000_000_000
    assert file_stamp(info, later) == (
        info.st_mtime_ns,
        info.st_ctime_ns,
        info.st_size,
        info.st_ino,
    )


def test_build_warns_and_strict_fails(make_site: Callable[..., Site], logs: Logs) -> None:
    site = make_site({"a.md": ARTICLE}, plugins=[{"duizhao": {"quality": {"enabled": True}}}])
    site.build()
    logs.take(r"docs/a\.md:12: DZ405 P001: number 1\.8", count=1)
    from mkdocs.exceptions import Abort

    with pytest.raises(Abort):
        site.build(strict=True)
    logs.take(r"DZ405", count=1)


def test_sarif_output(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    code, out = _check(_project(tmp_path), chdir, "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["DZ405"]
    (result,) = run["results"]
    assert result["ruleId"] == "DZ405" and result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": "docs/a.md"}, "region": {"startLine": 12}}


def test_glossary_findings_are_memoised_and_skipped_when_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under `mkdocs serve` (memo) a block checked once is not checked again, the glossary's
    findings included; a block that moved keeps them at its new line. With DZ445-DZ447 all
    ignored the glossary check does not run."""
    from duizhao.article import parse
    from duizhao.quality.glossary.check import GlossaryCheck
    from duizhao.quality.run import Quality, QualityOptions

    glossary = tmp_path / "glossary.yml"
    glossary.write_text("- en: speedup\n  zh: 加速比\n", encoding="utf-8")
    calls: list[str] = []
    real = GlossaryCheck.paragraph

    def counted(self: GlossaryCheck, original: str, *args: object) -> object:
        calls.append(original)
        return real(self, original, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(GlossaryCheck, "paragraph", counted)
    quality = Quality(glossary_path=glossary, memo=True)
    path = tmp_path / "docs" / "a.md"
    first = quality.article(parse(ARTICLE, path))
    assert [d.code for d in first].count("DZ445") == 1 and len(calls) == 2
    moved = quality.article(parse(ARTICLE.replace("引言。", "引言。\n\n又一行。"), path))
    assert len(calls) == 2  # from the memo
    assert [(d.line - 2, d.code) for d in moved] == [(d.line, d.code) for d in first]
    quiet = Quality(QualityOptions(ignore=frozenset({"DZ445", "DZ446", "DZ447"})), glossary)
    assert all(d.code != "DZ445" for d in quiet.article(parse(ARTICLE, path)))
    assert len(calls) == 2  # not run


def test_the_site_glossary_wins_over_the_acronym_table(tmp_path: Path) -> None:
    """An acronym the site glossary lists is its check's to judge, not DZ421's: rendered as the
    glossary says (LLM: 大语言模型) it is no missing acronym; without the glossary it is
    (issue 23, session 33: the convention of checks.ACRONYM_RENDERINGS)."""
    from duizhao.article import parse
    from duizhao.quality.run import Quality

    text = ARTICLE.replace(
        "> Prior work [3, 7] did this.\n\n先前的工作 [3, 7] 做过这件事。",
        "> Prior work [3, 7] serves LLM requests.\n\n先前的工作 [3, 7] 服务大语言模型的请求。",
    )
    path = tmp_path / "docs" / "a.md"
    alone = Quality().article(parse(text, path))
    assert [d.code for d in alone if "P002" in d.message] == ["DZ421"]
    glossary = tmp_path / "glossary.yml"
    glossary.write_text("- en: LLM\n  zh: 大语言模型\n", encoding="utf-8")
    found = Quality(glossary_path=glossary).article(parse(text, path))
    assert [d.code for d in found if "P002" in d.message] == []
