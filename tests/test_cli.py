"""`duizhao check`: exit codes, formats, default paths; it never builds the site."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from duizhao.cli import main

GOOD = """\
---
title: Good
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P002
status: complete
---

## 导言

引言。

/// paragraph | P001
> One.

一。
///

/// paragraph | P002
二。
///
"""

NO_INTRO = """\
---
title: No intro
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P001
---

/// paragraph | P001
一。
///
"""

DUPLICATE = GOOD.replace("| P002", "| P001").replace("status: complete", "status: draft")


def project(tmp_path: Path, files: dict[str, str], config: str | None = "docs_dir: docs\n") -> Path:
    if config is not None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        (tmp_path / "mkdocs.yml").write_text("site_name: t\n" + config, encoding="utf-8")
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def run(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.stdout, result.stderr


def test_clean_project_exits_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"docs/a.md": GOOD})
    code, out, err = run(["check"], tmp_path, monkeypatch)
    assert (code, out) == (0, "")
    assert err == "1 file checked: 0 errors, 0 warnings\n"


def test_errors_exit_one_with_path_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"docs/a.md": DUPLICATE})
    code, out, _ = run(["check"], tmp_path, monkeypatch)
    assert code == 1
    assert out == (
        "docs/a.md:18: DZ002 duplicate paragraph ID P001 (first used at line 12); "
        "renumber with 'duizhao renumber'\n"
    )


def test_warnings_pass_unless_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"docs/a.md": NO_INTRO})
    assert run(["check"], tmp_path, monkeypatch)[0] == 0
    code, out, err = run(["check", "--strict"], tmp_path, monkeypatch)
    assert code == 1
    assert out.startswith("docs/a.md:7: DZ009 article has no '## 导言' section")
    assert err == "1 file checked: 0 errors, 1 warning\n"


def test_json_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"docs/a.md": DUPLICATE, "docs/b.md": NO_INTRO})
    code, out, _ = run(["check", "--format", "json"], tmp_path, monkeypatch)
    assert code == 1
    assert json.loads(out) == [
        {
            "path": "docs/a.md",
            "line": 18,
            "code": "DZ002",
            "severity": "error",
            "message": "duplicate paragraph ID P001 (first used at line 12); "
            "renumber with 'duizhao renumber'",
        },
        {
            "path": "docs/b.md",
            "line": 7,
            "code": "DZ009",
            "severity": "warning",
            "message": "article has no '## 导言' section; add the translator's introduction "
            "under a heading '## 导言'",
        },
    ]


def test_explicit_files_and_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project(tmp_path, {"docs/a.md": DUPLICATE, "other/b.md": GOOD}, config=None)
    assert run(["check", "other"], tmp_path, monkeypatch)[0] == 0
    assert run(["check", "other/b.md", "docs/a.md"], tmp_path, monkeypatch)[0] == 1


def test_linked_articles_are_read_even_when_not_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = GOOD.replace("引言。", "见 [B](sub/b.md#P002) 与 [C](sub/b.md#P003)。")
    project(tmp_path, {"docs/a.md": link, "docs/sub/b.md": GOOD})
    code, out, _ = run(["check", "docs/a.md"], tmp_path, monkeypatch)
    assert code == 1
    assert out == (
        "docs/a.md:10: DZ008 link [C](sub/b.md#P003) points to #P003, which is not in 'sub/b.md'\n"
    )


def test_mkdocs_yml_with_python_tags_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = (
        "docs_dir: src\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "extra:\n  key: !ENV [HOME, x]\n"
    )
    project(tmp_path, {"src/a.md": DUPLICATE}, config=config)
    code, out, _ = run(["check"], tmp_path, monkeypatch)
    assert code == 1 and out.startswith("src/a.md:18: DZ002")


@pytest.mark.parametrize(
    "args", [["check", "missing.md"], ["check", "--format", "xml"], ["nonsense"]]
)
def test_usage_problems_exit_two(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path, {"docs/a.md": GOOD})
    assert run(args, tmp_path, monkeypatch)[0] == 2


def test_no_config_and_no_path_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["check"], tmp_path, monkeypatch)
    assert code == 2
    assert "no mkdocs.yml in the current directory" in err


def test_console_script_runs(tmp_path: Path) -> None:
    project(tmp_path, {"docs/a.md": DUPLICATE})
    exe = Path(sys.executable).with_name("duizhao")
    proc = subprocess.run([str(exe), "check"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout.startswith("docs/a.md:18: DZ002")
    assert "Traceback" not in proc.stderr


LINKED = GOOD.replace("引言。", "见 [B](b.md#P002) 与 [C](b.md#P009)。")
BROKEN_LINK = "docs/a.md:10: DZ008 link [C](b.md#P009) points to #P009, which is not in 'b.md'\n"


@pytest.mark.parametrize(
    ("cwd", "target", "shown"),
    [
        ("one", "../two/docs", "../two/"),  # next to another site's mkdocs.yml
        ("one", "../two/docs/a.md", "../two/"),
        (".", "two/docs", "two/"),  # a monorepo root, itself a site
        ("one/docs", "../../two/docs", "../../two/"),  # inside another site's docs folder
    ],
)
def test_a_path_is_judged_by_its_own_project(
    cwd: str, target: str, shown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project of a path is the folder of the nearest mkdocs.yml at or above it, never
    the current directory's: links between its pages are inside it (no DZ018), and their
    real problem (DZ008) is reported."""
    project(tmp_path, {"docs/index.md": "# Root\n"})
    project(tmp_path / "one", {"docs/x.md": GOOD})
    project(tmp_path / "two", {"docs/a.md": LINKED, "docs/b.md": GOOD})
    code, out, _ = run(["check", target], tmp_path / cwd, monkeypatch)
    assert (code, out) == (1, shown + BROKEN_LINK)


def test_a_bare_check_means_the_project_around_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path, {"docs/a.md": LINKED, "docs/b.md": GOOD})
    code, out, _ = run(["check"], tmp_path / "docs", monkeypatch)
    assert (code, out) == (1, BROKEN_LINK.replace("docs/a.md", "a.md"))


def test_a_path_outside_every_project_is_its_own_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project(tmp_path / "site", {"docs/x.md": GOOD})
    project(tmp_path / "loose", {"docs/a.md": LINKED, "docs/b.md": GOOD}, config=None)
    code, out, _ = run(["check", "../loose/docs"], tmp_path / "site", monkeypatch)
    assert (code, out) == (1, "../loose/" + BROKEN_LINK)


#: Modules `duizhao check` has no use for: the other commands' own modules (issue 23: start-up).
NOT_FOR_CHECK = (
    "duizhao.cli.new",
    "duizhao.cli.originals",
    "duizhao.cli.renumber",
    "duizhao.cli.status",
    "duizhao.clipath",
    "duizhao.figures.cli",
    "duizhao.quality.glossary.cli",
    "duizhao.importer",
    "duizhao.pdf",
    "duizhao.search",
    "duizhao.plugin",
    "duizhao.markdown",
    "jieba",
    "mkdocs",
    "PIL",
)


def test_check_imports_only_what_it_uses(tmp_path: Path) -> None:
    project(tmp_path, {"docs/a.md": GOOD})
    code = (
        "import sys\nfrom duizhao.cli import main\n"
        "try:\n    main(['check', '--strict'])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True
    )
    loaded = set(proc.stdout.split())
    assert "duizhao.cli.check" in loaded, proc.stderr
    assert sorted(loaded.intersection(NOT_FOR_CHECK)) == []


def test_every_command_is_listed_and_runs_its_help() -> None:
    runner = CliRunner()
    listing = runner.invoke(main, ["--help"]).output
    for name in ("check", "figures", "glossary", "import", "new", "renumber", "status", "update"):
        assert f"  {name} " in listing
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0 and "Usage:" in result.output, name
