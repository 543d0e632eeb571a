"""Benchmark: the scanner and the build are linear in the length of one hostile line (issue 12).

    python -m bench.longline [--sizes 10,20,40,80,160] [--build] [--kinds all]
    python -m bench.longline --build --classes all [--sizes 10,20,40,80,160] [--repeat 3]

For each size (KB) it writes one line made of a repeated hostile fragment (unclosed ``[``,
``[x](<``, decreasing backtick runs, ``*``/``_`` emphasis, ``P0`` fragments, …) into a
paragraph block and the 导言 of an article, then times

- ``check``: :func:`duizhao.article.parse` + every check of ``duizhao check`` (in process);
- ``build`` (with ``--build``): ``mkdocs build`` of a one-article site (in process, so the
  start-up cost of MkDocs is not counted; Python-Markdown's own inline parser runs here too);
  with ``--classes``, for the character classes of the scaling family (:data:`CLASSES`, a line
  in a paragraph block, a heading, a quote and a table cell), against the same page built on
  plain Material (issue 19: no worse than 2×);
- ``import`` (with ``--import``): :func:`duizhao.importer.parse_markdown` of the line as an
  original, for the kinds above and for the import-only kinds of :data:`IMPORT_LINES` (the
  dialect passes: MDX ``import`` lines, container titles, shortcode arguments, unclosed code
  shortcodes).

It prints the time per size and the ratio to the previous size: a linear scanner doubles its
time when the line doubles (ratio ≈ 2); a quadratic one quadruples it (ratios of timings under
a tenth of a second are noise). Times are the process's CPU seconds (``time.process_time``),
which other processes on a loaded machine do not inflate. ``--enforce`` exits 1 when the check of a
160 KB line takes a second or more.
"""

from __future__ import annotations

import argparse
import gc
import logging
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TypeVar

#: What :func:`least_times` times a run for: a size in KB, or a size and a site.
Key = TypeVar("Key", bound=Hashable)

#: Fragments that each defeated a regex of the scanner before issue 12 (see article.py).
FRAGMENTS: dict[str, str] = {
    "brackets": "[a",  # an unclosed nested "[...]" in link text ran to the end of the line
    "angle": "[x](<",  # a "<url>" with no ">"
    "mixed": "[`*P0](#P0 _<!-- ",
    "emphasis": "*a_**b__",
    "refs": "[P0]: #P0 [",
    "html": "<a href='",
}


#: The character classes of the syntax that tests/test_scaling.py's family is made of (issue
#: 19); ``class:NAME`` (or ``--kinds classes``, all of them) is a line of ``CLASSES[NAME] + "a"``.
CLASSES: dict[str, str] = {
    "space": " \t",
    "emphasis": "*_~",
    "brackets": "[]()\\[",
    "backticks": "`",
    "html": "<>&",
    "pipe": "|",
    "dollar": "$",
    "hash": "#",
    "quote-mark": ">",
    "pnumber": "P0",
    "quotes": "\"'",
    "backslash": "\\",
}


def class_line(fragment: str, kb: int) -> str:
    """About ``kb`` KB of whole ``fragment``s (a class's: its characters and a letter): a line
    cut inside a fragment ends differently at each size (see tests/test_scaling.py's line)."""
    return fragment * max(1, kb * 1024 // len(fragment))


def class_page(line: str) -> str:
    """The page the build of a class is timed on: the line in a paragraph block (original and
    translation), a heading, a quote and a table cell, as test_scaling's contexts."""
    return (
        "---\ntitle: Long line\nstatus: draft\nparagraphs: P001-P002\n"
        "paper: {title: T, license: CC-BY-4.0}\n---\n\n# Long line\n\n## 导言\n\nx\n\n"
        f"/// paragraph | P001\n> {line}\n\n{line}\n///\n\n## a{line}b\n\n> {line}\n\n"
        f"| a | b |\n| - | - |\n| {line} | x |\n"
    )


#: Lines of the import's dialect passes that each grew quadratically or worse before they were
#: made linear (importer/from_markdown/), and those of the dialects added since: what a line
#: of ``size`` characters is made of.
IMPORT_LINES: dict[str, Callable[[int], str]] = {
    "esm": lambda n: "import" + " " * n + "x",
    "directive": lambda n: ":::note a" + " " * n + "b\n:::",
    "shortcode": lambda n: '{{< figure x="' + "b=" * (n // 2) + " >}}",
    "unclosed": lambda n: "{{< highlight go >}}\n\n" * (n // 22),
    # the dialects of issue 21 (importer/from_markdown/): MyST roles and directive options,
    # inline HTML through the sanitiser, MDX components, doc-builder references, chunks
    "roles": lambda n: "{func}`a` {ref}`b <c>` " * (n // 22),
    "options": lambda n: "```{figure} x.png\n" + ":a: b\n" * (n // 6) + "```",
    "inline-html": lambda n: "<small>a <img src=x onerror=y> <b>" * (n // 36),
    "components": lambda n: "<Tip>\n" * (n // 6),
    "references": lambda n: "[`a`] [`b`][c] " * (n // 15),
    "chunk": lambda n: "```{r, " + "a=b, " * (n // 5) + "}\nx\n```",
    "nested-divs": lambda n: "<div>" * (n // 5),
}


def backtick_line(size: int) -> str:
    """Backtick runs of decreasing length: none has a partner, so each used to scan the rest."""
    parts: list[str] = []
    total = 0
    k = max(1, int((2 * size) ** 0.5))
    while total < size:
        parts.append("`" * k + "a")
        total += k + 1
        k = k - 1 if k > 1 else max(1, int((2 * size) ** 0.5))
    return "".join(parts)[:size]


def line_of(kind: str, size: int) -> str:
    if kind in IMPORT_LINES:
        return IMPORT_LINES[kind](size)
    if kind == "backticks":
        return backtick_line(size)
    if kind.startswith("class:"):  # whole fragments, as the scaling family writes them
        fragment = CLASSES[kind.removeprefix("class:")] + "a"
        return fragment * max(1, size // len(fragment))
    fragment = FRAGMENTS[kind]
    return (fragment * (size // len(fragment) + 1))[:size]


def article(line: str) -> str:
    return (
        "---\ntitle: Long line\nstatus: draft\nparagraphs: P001-P002\n"
        "paper: {title: T, license: CC-BY-4.0}\n---\n\n"
        f"# Long line\n\n## 导言\n\n{line}\n\n"
        f"/// paragraph | P001\n> {line}\n\n{line}\n///\n"
    )


#: CPU time of this process: the work measured is in process, and a loaded machine's other
#: processes do not count (wall time made the scaling tests flaky under load).
clock = time.process_time


def least_times(
    run: Callable[[Key], float], keys: list[Key], rounds: int, times: dict[Key, float] | None = None
) -> dict[Key, float]:
    """The least of ``rounds`` timings of ``run(key)`` for each key (a size, or a size and a
    site), merged with ``times``. The runs go in rounds over the keys, so a busy spell of a
    shared machine slows every size alike instead of one; the garbage collector is off during
    each run and collects the run's garbage after it. (With it off across the repeats of one
    size, as before issue 19's fourth pass, each run left its cyclic garbage, markdown-it's
    tree nodes, in the heap, and the next ran on new memory: 10 of the 144 kinds of the long
    import family read ×2.5-3.2 per doubling on a loaded machine, a different set each run;
    bench/README.md#the-import-under-the-cap-issue-19-fourth-pass.)"""
    best = dict(times or {})
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for key in keys:
                spent = run(key)
                gc.collect(0)  # (the run's own objects: all of them are young while it is off)
                best[key] = min(best.get(key, math.inf), spent)
    finally:
        gc.enable()
    return best


def time_check(text: str, root: Path) -> float:
    from duizhao.article import parse
    from duizhao.checks import Corpus, check_corpus
    from duizhao.figures import Catalog

    docs = root / "docs"
    start = clock()
    parsed = parse(text, docs / "long.md")
    check_corpus([parsed], Corpus(docs, figures=Catalog(root)))
    return clock() - start


def time_import(line: str) -> float:
    from duizhao.importer import parse_markdown

    start = clock()
    parse_markdown(line)
    return clock() - start


def time_build(text: str, root: Path) -> float:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    (root / "docs" / "long.md").write_text(text, encoding="utf-8")
    config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
    start = clock()
    build(config)
    return clock() - start


def project(root: Path, *, duizhao: bool = True) -> None:
    """A one-page site (and its home page); ``duizhao=False``: the same site on plain Material."""
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    plugins = "[search, {duizhao: {assets: false}}]" if duizhao else "[search]"
    (root / "mkdocs.yml").write_text(
        "site_name: Long line\n"
        "theme: {name: material, language: zh, font: false}\n"
        f"plugins: {plugins}\n"
        "markdown_extensions: [attr_list, md_in_html, pymdownx.blocks.details]\n",
        encoding="utf-8",
    )


def build_classes(sizes: list[int], classes: list[str], repeat: int = 1) -> int:
    """``--build --classes``: for each class, the build with duizhao and on plain Material per
    size (least CPU time of ``repeat`` builds), the ratio per doubling of each and the ratio of
    duizhao's to plain Material's."""
    tmp = Path(tempfile.mkdtemp(prefix="dz-longline-build-"))
    try:
        project(tmp / "duizhao")
        project(tmp / "plain", duizhao=False)
        for site in ("duizhao", "plain"):  # imports, jieba's dictionary, templates: once
            time_build(class_page("x"), tmp / site)
        print(
            f"{'class':<11} {'KB':>4} {'duizhao s':>9} {'x prev':>6} "
            f"{'plain s':>9} {'x prev':>6} {'/plain':>6}"
        )
        for name in classes:
            prev: tuple[float, float] | None = None
            for kb in sizes:
                text = class_page(class_line(CLASSES[name] + "a", kb))
                ours = min(time_build(text, tmp / "duizhao") for _ in range(repeat))
                plain = min(time_build(text, tmp / "plain") for _ in range(repeat))
                row = f"{name:<11} {kb:>4} {ours:>9.3f} "
                row += f"{ours / prev[0]:>6.2f} " if prev else f"{'':>6} "
                row += f"{plain:>9.3f} "
                row += f"{plain / prev[1]:>6.2f} " if prev else f"{'':>6} "
                row += f"{ours / plain:>6.2f}"
                print(row, flush=True)
                prev = (ours, plain)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,20,40,80,160", help="line sizes in KB")
    parser.add_argument(
        "--kinds",
        default="all",
        help="comma-separated: "
        + ", ".join(["backticks", *FRAGMENTS])
        + ", class:NAME (NAME one of "
        + ", ".join(CLASSES)
        + "), or classes (every class:NAME)",
    )
    parser.add_argument("--build", action="store_true", help="also time mkdocs build")
    parser.add_argument(
        "--classes",
        default=None,
        help="with --build: time the build of the scaling family's classes (all, or a "
        "comma-separated list of " + ", ".join(CLASSES) + ") against plain Material",
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --classes: builds per size")
    parser.add_argument(
        "--import",
        dest="import_",
        action="store_true",
        help="also time reading the line as an original (duizhao import), with its own kinds",
    )
    parser.add_argument("--enforce", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(s) * 1024 for s in args.sizes.split(",")]
    kinds = ["backticks", *FRAGMENTS] if args.kinds == "all" else args.kinds.split(",")
    if kinds == ["classes"]:
        kinds = [f"class:{name}" for name in CLASSES]
    if args.import_ and args.kinds == "all":
        kinds += list(IMPORT_LINES)
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    logging.disable(logging.WARNING)  # the hostile article has warnings by design
    if args.classes is not None:
        names = list(CLASSES) if args.classes == "all" else args.classes.split(",")
        return build_classes([int(s) for s in args.sizes.split(",")], names, args.repeat)
    failed = False
    tmp = Path(tempfile.mkdtemp(prefix="dz-longline-"))
    try:
        project(tmp)
        print(
            f"{'kind':<16} {'KB':>5} {'check s':>9} {'x prev':>7}"
            + (f" {'build s':>9} {'x prev':>7}" if args.build else "")
            + (f" {'import s':>9} {'x prev':>7}" if args.import_ else "")
        )
        for kind in kinds:
            prev: tuple[float, float, float] | None = None
            for size in sizes:
                line = line_of(kind, size)
                text = article(line)
                check = time_check(text, tmp)
                build = time_build(text, tmp) if args.build else 0.0
                imported = time_import(line) if args.import_ else 0.0
                row = f"{kind:<16} {size // 1024:>5} {check:>9.3f}"
                row += f" {check / prev[0]:>7.2f}" if prev and prev[0] > 0.002 else f" {'':>7}"
                if args.build:
                    row += f" {build:>9.3f}"
                    row += f" {build / prev[1]:>7.2f}" if prev and prev[1] > 0.05 else f" {'':>7}"
                if args.import_:
                    row += f" {imported:>9.3f}"
                    ratio = f"{imported / prev[2]:>7.2f}" if prev and prev[2] > 0.002 else ""
                    row += f" {ratio:>7}"
                print(row, flush=True)
                if size >= 160 * 1024 and check >= 1.0:  # (the import: linear, see ratios)
                    failed = True
                prev = (check, build, imported)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        print("the check of a 160 KB line took a second or more", file=sys.stderr)
    return 1 if failed and args.enforce else 0


if __name__ == "__main__":
    sys.exit(main())
