"""`duizhao check`'s per-file cache (``<cache_dir>/check.json``, issue 23's speed target): a
cached check reports exactly what ``--no-cache`` does on every tree, re-reads only what changed,
and a cache it cannot use is no cache (never a traceback)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from bench.corpus import generate
from click.testing import CliRunner

from duizhao import article as article_module
from duizhao import checkcache
from duizhao.checks import FileSummary
from duizhao.cli import main

#: Random rounds of edits per tree (each checked cached and uncached).
ROUNDS = 24
GLOSSARIES = (
    None,
    "- {en: [speedup], zh: 加速比}\n- {en: [GPU], zh: GPU, keep_en: true}\n",
    "- {en: [cache], zh: 缓存, zh_forbidden: [快取]}\n- {en: [KV], zh: 键值}\n",
    "- {en: [[broken\n",  # not YAML: DZ440, and no glossary for the checks
)
#: The kinds of random edit (see :func:`_edit`).
EDITS = (
    *("id", "anchor", "number", "status", "featured", "delete", "rename", "copy", "touch"),
    *("glossary", "config", "figure", "spec", "nolink", "newlink"),
)
SPEC = "figures:\n  - {id: 1, page: 1, box: [0, 0, 100, 100], caption: {en: A, zh: 甲}}\n"


class Tree:
    """A small bench project whose files are written through :meth:`write`, which can give
    each write its own modification time (so that an edit is a new stamp at once)."""

    def __init__(self, root: Path, utime: bool) -> None:
        self.root = root
        self.docs = root / "docs"
        self.utime = utime
        self.tick = 1_600_000_000 * 10**9

    def write(self, path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")
        if self.utime:
            self.tick += 10**9
            os.utime(path, ns=(self.tick, self.tick))

    def pages(self) -> list[Path]:
        return sorted(self.docs.rglob("*.md"))


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files a check parses (instead of taking from its cache), in order."""
    seen: list[Path] = []
    real = checkcache.summarize

    def counting(article: article_module.Article, *args: object) -> FileSummary:
        seen.append(article.path)
        return real(article, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(checkcache, "summarize", counting)
    return seen


def _tree(tmp_path: Path, utime: bool = False) -> Tree:
    root = generate(tmp_path / "site", 4, paragraphs=12)
    # a page that is not a translation, linking into the articles
    (root / "docs" / "about.md").write_text(
        "# 关于\n\n见 [P002](articles/a001.md#P002)、[P009](articles/a002.md#P009)。\n",
        encoding="utf-8",
    )
    return Tree(root, utime)


def _check(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--format", "json", *args, str(root / "docs")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _same(root: Path) -> tuple[int, str]:
    """The cached check's (exit code, output), asserted equal to an uncached check's."""
    cached = _check(root)
    assert cached == _check(root, "--no-cache")
    return cached


def _edit(tree: Tree, rng: random.Random) -> tuple[set[Path], bool]:
    """One random edit: (the pages whose bytes changed or that are new, whether every
    summary is invalidated)."""
    pages = tree.pages()
    page = rng.choice(pages)
    text = page.read_text(encoding="utf-8")
    kind = rng.choice(EDITS)
    ids = re.findall(r"P\d{3}", text)
    if kind == "id" and "| P0" in text:
        text = text.replace(f"| {rng.choice(ids)}", f"| {rng.choice(ids)}", 1)
    elif kind == "anchor" and "](#P" in text:
        text = text.replace("](#P", f"](#P{rng.randint(0, 9)}", 1)
    elif kind == "number":
        text = re.sub(r"\d(?=\D*$)", lambda m: str((int(m.group()) + 1) % 10), text)
    elif kind == "status":
        text = re.sub(
            r"status: (complete|draft)",
            lambda m: "status: " + ("draft" if m.group(1) == "complete" else "complete"),
            text,
            count=1,
        )
    elif kind == "featured" and text.startswith("---\n"):
        text = "---\nfeatured: true\n" + text[4:]
    elif kind == "delete" and len(pages) > 2:
        page.unlink()
        return set(), False
    elif kind == "rename":
        target = page.with_name(f"r{rng.randint(0, 99)}.md")
        if not target.exists():
            page.rename(target)
            return {target}, False
    elif kind == "copy":
        target = page.with_name(f"c{rng.randint(0, 99)}.md")
        shutil.copyfile(page, target)
        return {target}, False
    elif kind == "touch":
        tree.write(page, text)
        return set(), False
    elif kind == "glossary":
        choice = rng.choice(GLOSSARIES)
        glossary = tree.root / "glossary.yml"
        if choice is None:
            glossary.unlink(missing_ok=True)
        else:
            tree.write(glossary, choice)
        return set(), True
    elif kind == "config":
        config = tree.root / "mkdocs.yml"
        options = config.read_text(encoding="utf-8")
        if "quality:" in options:
            options = re.sub(r"\n      quality: .*", "", options)
        else:
            options = options.replace(
                "  - duizhao:\n", "  - duizhao:\n      quality: {ignore: [DZ405]}\n"
            )
        tree.write(config, options)
        return set(), True
    elif kind == "figure":
        text += "\n/// figure | 1\n///\n"
    elif kind == "spec":
        spec = page.with_name(page.stem + ".figures.yml")
        if spec.exists():
            spec.unlink()
        else:
            tree.write(spec, SPEC)
        return {page}, False
    elif kind == "nolink":
        text = text.replace("a003.md", "a009.md")
    elif kind == "newlink":
        text += f"\n见 [](a00{rng.randint(1, 6)}.md#P00{rng.randint(1, 9)})。\n"
    if text == page.read_text(encoding="utf-8"):
        return set(), False
    tree.write(page, text)
    return {page}, False


def _figured(tree: Tree) -> set[Path]:
    """The pages the cache never keeps: with a figure placed or a spec beside them."""
    return {
        p
        for p in tree.pages()
        if "/// figure" in p.read_text(encoding="utf-8") or p.with_suffix(".figures.yml").exists()
    }


@pytest.mark.parametrize("stamped", [False, True], ids=["racy", "stamped"])
@pytest.mark.parametrize("seed", [1, 2])
def test_cached_check_equals_uncached_over_random_edits(
    tmp_path: Path,
    chdir: Callable[[Path], None],
    monkeypatch: pytest.MonkeyPatch,
    parsed: list[Path],
    seed: int,
    stamped: bool,
) -> None:
    """racy: every file was written in the last two seconds, so each is read and its bytes
    compared; stamped: files are judged by their stamp (each write has its own mtime)."""
    if stamped:
        monkeypatch.setattr(article_module, "RACY_NS", 0)
    tree = _tree(tmp_path, utime=stamped)
    chdir(tree.root)
    rng = random.Random(seed)
    _same(tree.root)
    outputs = set()
    for _round in range(ROUNDS):
        changed: set[Path] = set()
        invalidated = False
        for _edit_number in range(rng.randint(0, 3)):
            edited, everything = _edit(tree, rng)
            changed |= edited
            invalidated |= everything
        parsed.clear()
        cached = _check(tree.root)
        if not invalidated:  # only what changed is parsed again
            assert set(parsed) <= changed | _figured(tree)
        assert cached == _check(tree.root, "--no-cache")
        parsed.clear()
        assert _check(tree.root) == cached
        assert set(parsed) <= _figured(tree)  # a second run parses nothing else
        outputs.add(cached)
    assert len(outputs) > ROUNDS // 3  # the edits did change what the check reports
    assert (tree.root / ".cache" / "duizhao" / "check.json").is_file()


def test_an_unchanged_tree_is_not_read_again(
    tmp_path: Path, chdir: Callable[[Path], None], parsed: list[Path]
) -> None:
    tree = _tree(tmp_path)
    chdir(tree.root)
    first = _check(tree.root)
    assert len(parsed) == len(tree.pages())
    parsed.clear()
    assert _check(tree.root) == first and parsed == []
    # the same bytes written again (a checkout, an editor's save): read and compared, not parsed
    for page in tree.pages():
        page.write_bytes(page.read_bytes())
    assert _check(tree.root) == first and parsed == []


def _forge(root: Path) -> None:
    """Give every stored summary a problem no check reports: seen only when it is used."""
    path = root / ".cache" / "duizhao" / "check.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["files"].values():
        entry[2][3] = [[1, "DZ001", "forged", None]]
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("change", ["glossary", "config", "code", "quality"])
def test_what_a_summary_depends_on_invalidates_it(
    tmp_path: Path, chdir: Callable[[Path], None], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    tree = _tree(tmp_path)
    chdir(tree.root)
    _check(tree.root)
    _forge(tree.root)
    assert "forged" in _check(tree.root)[1]  # the stored summaries are used...
    if change == "glossary":
        (tree.root / "glossary.yml").write_text(GLOSSARIES[1], encoding="utf-8")
    elif change == "config":
        with (tree.root / "mkdocs.yml").open("a", encoding="utf-8") as config:
            config.write("# a comment\n")
    elif change == "code":
        monkeypatch.setattr(checkcache, "code_digest", lambda: "another version")
    else:
        monkeypatch.setattr("duizhao.quality.run.code_digest", lambda: "another version")
    assert "forged" not in _same(tree.root)[1]  # ...until what they were made from changes


def _damaged(data: bytes) -> Iterator[bytes]:
    """A cache file made unusable in each way: cut, not JSON, too deep, wrong shapes."""
    yield data[: len(data) // 2]
    yield b""
    yield b"\xff\xfe not utf-8"
    yield b"[" * 100_000
    yield b'{"format": 1, "version": 7, "files": []}'
    yield data.replace(b'"format":1', b'"format":99')
    files = json.loads(data)["files"]
    key = next(iter(files))
    stamp, digest, summary = files[key]
    for broken in (
        None,
        [stamp, digest],
        [stamp, 5, summary],
        [stamp, digest, None],
        [stamp, digest, summary[:4]],
        [stamp, digest, ["yes", *summary[1:]]],
        [stamp, digest, [*summary[:2], [[1, 2, 3]], *summary[3:]]],
        [stamp, digest, [*summary[:2], [["1", "t", "u", None, False]], *summary[3:]]],
        [stamp, digest, [*summary[:3], [[1, "DZ001"]], summary[4]]],
        [stamp, digest, [*summary[:3], [[True, "DZ001", "m", None]], summary[4]]],
        [stamp, digest, [*summary[:4], "line 3"]],
        [["x"], digest, summary],
    ):
        yield json.dumps({**json.loads(data), "files": {**files, key: broken}}).encode()


def test_a_damaged_cache_is_ignored(tmp_path: Path, chdir: Callable[[Path], None]) -> None:
    tree = _tree(tmp_path)
    chdir(tree.root)
    page = tree.docs / "articles" / "a002.md"
    page.write_text(page.read_text(encoding="utf-8").replace("| P004", "| P003"), "utf-8")
    expected = _check(tree.root, "--no-cache")
    assert expected[0] == 1
    assert _check(tree.root) == expected
    path = tree.root / ".cache" / "duizhao" / "check.json"
    good = path.read_bytes()
    for data in _damaged(good):
        path.write_bytes(data)
        assert _check(tree.root) == expected
        assert _check(tree.root) == expected  # and what the first run wrote instead
    path.unlink()
    path.mkdir()  # unreadable, and cannot be replaced
    assert _check(tree.root) == expected
    path.rmdir()
    shutil.rmtree(path.parent)
    path.parent.write_text("not a folder", encoding="utf-8")  # the cache cannot be written
    assert _check(tree.root) == expected
    assert path.parent.read_text(encoding="utf-8") == "not a folder"


def test_a_cache_dir_inside_docs_is_not_written(
    tmp_path: Path, chdir: Callable[[Path], None]
) -> None:
    tree = _tree(tmp_path)
    chdir(tree.root)
    config = tree.root / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "  - duizhao:\n", "  - duizhao:\n      cache_dir: docs/.cache\n"
        ),
        encoding="utf-8",
    )
    before = sorted(p.relative_to(tree.docs) for p in tree.docs.rglob("*"))
    assert _check(tree.root)[0] == 0
    assert sorted(p.relative_to(tree.docs) for p in tree.docs.rglob("*")) == before


def test_no_cache_neither_reads_nor_writes(
    tmp_path: Path, chdir: Callable[[Path], None], parsed: list[Path]
) -> None:
    tree = _tree(tmp_path)
    chdir(tree.root)
    _check(tree.root, "--no-cache")
    assert not (tree.root / ".cache" / "duizhao" / "check.json").exists()
    _check(tree.root)
    _forge(tree.root)
    parsed.clear()
    assert "forged" not in _check(tree.root, "--no-cache")[1]
    assert len(parsed) == len(tree.pages())


def test_a_check_of_one_file_reads_its_links_targets_as_they_are_now(
    tmp_path: Path, chdir: Callable[[Path], None]
) -> None:
    tree = _tree(tmp_path)
    chdir(tree.root)
    _check(tree.root)  # every file kept
    about = str(tree.docs / "about.md")
    clean = CliRunner().invoke(main, ["check", "--format", "json", about])
    assert (clean.exit_code, json.loads(clean.output)) == (0, [])
    target = tree.docs / "articles" / "a002.md"
    target.write_text(target.read_text(encoding="utf-8").replace("| P009", "| P099"), "utf-8")
    for args in ([], ["--no-cache"]):
        result = CliRunner().invoke(main, ["check", "--format", "json", *args, about])
        assert [(d["code"], d["line"]) for d in json.loads(result.output)] == [("DZ008", 3)]
