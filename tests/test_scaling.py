"""A generated scaling family (issue 19): check and import grow linearly with one long line,
and the build of it is no worse than twice the same page's on plain Material.

For each character class of the syntax, and their pairwise alternations, a line of N KB is
put into a paragraph block, a heading, a quote, a table cell and front matter (check) and read
as an original (import). The time is the least CPU time of repeated runs, taken in rounds
over the sizes (robust to a loaded machine); the ratio between sizes must stay within 2.5 per
doubling, and a ratio over it is timed again before it fails (CONFIRM). The suite runs 10 and
40 KB; ``DUIZHAO_FUZZ=long`` (``make fuzz``) runs 10 to 160 KB per doubling and also bounds
160 KB to a second.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from bench.longline import (
    CLASSES,
    class_line,
    class_page,
    least_times,
    time_build,
    time_check,
    time_import,
)
from bench.longline import (
    project as site_project,
)

from conftest import Logs

LONG = os.environ.get("DUIZHAO_FUZZ") == "long"
SIZES = [10, 20, 40, 80, 160] if LONG else [10, 40]
RATIO_PER_DOUBLING = 2.5
#: Timings of each size (the least is kept), in rounds over the sizes (bench.longline.least_times).
REPEAT = 3
#: A ratio over the bound is timed again, both its sizes, REPEAT rounds more, up to this many
#: times, and fails only if it stays over: super-linear work is over it at every timing, a
#: busy spell of a shared machine at one. (Timed once, on a machine shared with seven other
#: test runs, 7-10 of the 144 kinds of the long import family read ×2.5-3.4 somewhere, a
#: different set each run, while the kinds counted do the same number of instructions per KB
#: at every size: bench/README.md#the-import-under-the-cap-issue-19-fourth-pass.)
CONFIRM = 3
#: Below this many seconds a ratio is noise (and the work is clearly not quadratic).
FLOOR = 0.02

PAIRS = {f"{a}+{b}": CLASSES[a] + "a" + CLASSES[b] for a, b in itertools.combinations(CLASSES, 2)}
NESTED = {
    f"{a}({b})": CLASSES[a] + CLASSES[b] + "x" + CLASSES[b][::-1] + CLASSES[a][::-1]
    for a, b in itertools.combinations(CLASSES, 2)
}
KINDS = {k: v + "a" for k, v in CLASSES.items()} | (PAIRS | NESTED if LONG else {})
#: Shapes known to be super-linear in check (none since duizhao.links, issue 19: ``[]()\[a``
#: took minutes at 40 KB).
SLOW: set[str] = set()
#: ... and in import: none. "[]()\[a", "$a" and "`a" measure ×1.9-2.1 per doubling to 160 KB
#: with this family's own timing (GC off, least of 3 runs), 0.6-0.8 s there; the ×2.2-2.6 and
#: ×6.5 once recorded here were single runs with the GC on, on a loaded machine.
SLOW_IMPORT: set[str] = set()
#: Imports that are linear but over the 1 s bound at 160 KB: none. Emphasis nested in or next
#: to brackets, backticks or dollars, brackets(dollar), emphasis(html) and emphasis(pipe) took
#: 1.0-1.5 s there, two thirds in markdown-it's own inline parse; an inline run with more than
#: MAX_INLINE_MARKUP (20,000) rule positions is now read as text, reported (0.04-0.05 s).
OVER_A_SECOND_IMPORT: set[str] = set()


def line(kind: str, kb: int) -> str:
    """About ``kb`` KB of whole fragments: each doubling doubles the same content. (A line cut
    inside a fragment ends differently at each size: a last "\\" of "[]()\\[a" at 20 and 160 KB
    but not at 40 escaped the caption's "](x.png)", which halved the links found, and the
    ratios measured the cut, not the scan.)"""
    fragment = KINDS[kind]
    return fragment * max(1, kb * 1024 // len(fragment))


CONTEXTS: dict[str, Callable[[str], str]] = {
    "paragraph": lambda s: f"/// paragraph | P001\n> {s}\n\n{s}\n///\n",
    "heading": lambda s: f"## a{s}b\n",
    "quote": lambda s: f"> {s}\n",
    "table": lambda s: f"| a | b |\n| - | - |\n| {s} | x |\n",
    "caption": lambda s: f"![{s}](x.png)\n\n*{s}*\n",
}


def article(body: str, front: str = "") -> str:
    return (
        "---\ntitle: Long line\nstatus: draft\nparagraphs: P001-P002\n"
        f"paper: {{title: T, license: CC-BY-4.0}}\n{front}---\n\n# Long line\n\n## 导言\n\n{body}"
    )


def over_bound(times: dict[int, float]) -> list[tuple[int, int, str]]:
    """The pairs of consecutive sizes whose ratio is over the bound, and a message for each."""
    over = []
    sizes = sorted(times)
    for small, big in itertools.pairwise(sizes):
        if times[big] < FLOOR:
            continue
        doublings = (big // small).bit_length() - 1
        bound = RATIO_PER_DOUBLING**doublings
        # a small time is measured against half the floor: a few milliseconds are noise on a
        # busy machine (×6.4 for a linear 4 ms → 28 ms), while quadratic work still shows
        ratio = times[big] / max(times[small], FLOOR / 2)
        if ratio > bound:
            over.append((small, big, f"{small}→{big} KB took ×{ratio:.1f} (bound ×{bound:.1f})"))
    return over


def assert_linear(run: Callable[[int], float], what: str, second: bool = True) -> None:
    """``run(kb)`` (CPU seconds of the work on a line of ``kb`` KB) grows at most
    RATIO_PER_DOUBLING per doubling, each ratio over it timed again (CONFIRM)."""
    times = least_times(run, SIZES, REPEAT)
    for _ in range(CONFIRM):
        over = over_bound(times)
        if not over:
            break
        for small, big, _message in over:
            times = least_times(run, [small, big], REPEAT, times)
    over = over_bound(times)
    assert not over, f"{what}: " + "; ".join(message for *_sizes, message in over)
    if LONG and 160 in times and second:
        assert times[160] < 1.0, f"{what}: 160 KB took {times[160]:.2f} s"


@pytest.fixture(scope="module", autouse=True)
def _quiet() -> Iterator[None]:
    """Hostile articles warn by design: warnings are off for this module, and on again for
    the modules after it (in one process, under pytest-xdist in any order)."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scaling")
    (root / "docs").mkdir()
    return root


@pytest.mark.parametrize("context", [*CONTEXTS, "front"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_check_is_linear(project: Path, kind: str, context: str) -> None:
    if kind in SLOW:
        pytest.xfail("known super-linear (SLOW): not run, it takes minutes")

    def text(kb: int) -> str:
        if context == "front":  # a YAML scalar holding the line (JSON-quoted: one scalar)
            return article("x\n", f"summary: {json.dumps(line(kind, kb))}\n")
        return article(CONTEXTS[context](line(kind, kb)))

    texts = {kb: text(kb) for kb in SIZES}
    assert_linear(lambda kb: time_check(texts[kb], project), f"check {kind} in {context}")


@pytest.mark.parametrize("kind", list(KINDS))
def test_import_is_linear(kind: str) -> None:
    if kind in SLOW_IMPORT:
        pytest.xfail("known super-linear (SLOW_IMPORT): not run")
    lines = {kb: line(kind, kb) for kb in SIZES}
    second = kind not in OVER_A_SECOND_IMPORT
    assert_linear(lambda kb: time_import(lines[kb]), f"import {kind}", second=second)


def test_heading_with_a_long_run_of_spaces_and_tabs(project: Path) -> None:
    """The shape of issue 19: 30,000 spaces and tabs between two words of a heading."""
    text = article("## a" + " \t" * 15000 + "b\n")
    start = time.perf_counter()
    time_check(text, project)
    assert time.perf_counter() - start < 1.0


#: The build: no worse than this many times the same page's build on plain Material.
BUILD_RATIO_TO_PLAIN = 2.0
#: The suite's slice of classes: the two nearest the bound (duizhao/plain 1.29 and 1.44 at
#: 80 KB; each class costs the suite about 8 s); ``DUIZHAO_FUZZ=long`` builds every class.
BUILD_CLASSES = list(CLASSES) if LONG else ["html", "quote-mark"]
#: Brackets (``[]()\\[a``) built in 7.4 s at 5 KB against plain Material's 1.5 s, over 10 minutes
#: at 40 KB (markdown.py's bracket matcher paired the whole line again at every link); now
#: 1.25-1.32x plain Material from 20 to 160 KB (36 s against 29 s at 160 KB: the long run only).
SLOW_BUILD: set[str] = set()
#: A build that takes this many CPU seconds is timed once (and again only when a bound is
#: missed): its scatter on a loaded machine is a few per cent, far inside the bounds, while
#: three timings of each of the largest builds (brackets at 160 KB: 36 s with duizhao, 29 s on
#: plain Material, which is itself ×3 per doubling there) made one class take over 30 minutes.
#: The suite times every build once (0: its two classes sit at duizhao/plain 1.29-1.44 against
#: the bound's 2, and a missed bound is timed again CONFIRM times before it fails): three
#: timings of its 1-2 s builds were 33 s of the file's 46 s of CPU (two classes, 12 builds
#: each), one timing is 4 builds a class. ``make fuzz`` keeps REPEAT timings below 5 s.
TIMED_ONCE = 5.0 if LONG else 0.0
#: The build family's time budget in CPU seconds per class (both sites, every size, every
#: timing): ``make fuzz`` builds 12 classes (13-111 s each, 517 s in all, session 33). A class
#: that spends it fails at once, naming the builds, instead of running on for an hour.
BUILD_BUDGET = 240.0


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("scaling-build")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    found = {"duizhao": root / "duizhao", "plain": root / "plain"}
    site_project(found["duizhao"])
    site_project(found["plain"], duizhao=False)
    for site in found.values():  # imports, jieba's dictionary, templates: not measured
        time_build(class_page("x"), site)
    return found


@pytest.mark.parametrize("kind", BUILD_CLASSES)
def test_build_is_no_worse_than_plain_material(
    sites: dict[str, Path], logs: Logs, kind: str
) -> None:
    if kind in SLOW_BUILD:
        pytest.xfail("known super-linear (SLOW_BUILD): not run, it takes minutes")
    pages = {kb: class_page(class_line(KINDS[kind], kb)) for kb in SIZES}
    spent: list[tuple[int, str, float]] = []

    def run(key: tuple[int, str]) -> float:
        took = time_build(pages[key[0]], sites[key[1]])
        spent.append((*key, took))
        total = sum(one[2] for one in spent)
        if total > BUILD_BUDGET:
            builds = ", ".join(f"{kb} KB {site} {t:.1f} s" for kb, site, t in spent)
            pytest.fail(
                f"build family of {kind}: {total:.0f} s of CPU, over its budget of "
                f"{BUILD_BUDGET:.0f} s ({builds})"
            )
        return took

    # each size with duizhao and on plain Material in the same round: a busy spell slows both
    keys = [(kb, site) for kb in SIZES for site in sites]
    times = least_times(run, keys, 1)
    short = [key for key in keys if times[key] < TIMED_ONCE]
    times = least_times(run, short, REPEAT - 1, times)
    for _ in range(CONFIRM):
        worse = [
            kb for kb in SIZES if times[kb, "duizhao"] > BUILD_RATIO_TO_PLAIN * times[kb, "plain"]
        ]
        if not worse and steeper_than_plain(times):
            worse = SIZES  # (the growth per doubling: every size is timed again)
        if not worse:
            break
        # (one timing more each time: CONFIRM of them, within the budget)
        times = least_times(run, [(kb, site) for kb in worse for site in sites], 1, times)
    ours = {kb: times[kb, "duizhao"] for kb in SIZES}
    plain = {kb: times[kb, "plain"] for kb in SIZES}
    for kb in SIZES:
        ratio = ours[kb] / plain[kb]
        assert ratio <= BUILD_RATIO_TO_PLAIN, (
            f"build of {kind} at {kb} KB: {ours[kb]:.2f} s, ×{ratio:.2f} plain Material's "
            f"{plain[kb]:.2f} s (bound ×{BUILD_RATIO_TO_PLAIN})"
        )
    logs.take(r" DZ\d{3} ", None)  # (hostile pages warn by design)
    # Where plain Material itself grows faster than ×2.5 per doubling (a Python-Markdown
    # pattern on this class), the bound to it is the only one duizhao can keep.
    if max(per_doubling(plain)) <= RATIO_PER_DOUBLING:
        worst = max(per_doubling(ours))
        assert worst <= RATIO_PER_DOUBLING, f"build {kind}: ×{worst:.2f} per doubling"


def steeper_than_plain(times: dict[tuple[int, str], float]) -> bool:
    """duizhao's build grows over RATIO_PER_DOUBLING per doubling where plain Material's does
    not (the last assertion of the build family)."""
    ours = {kb: times[kb, "duizhao"] for kb in SIZES}
    plain = {kb: times[kb, "plain"] for kb in SIZES}
    return max(per_doubling(plain)) <= RATIO_PER_DOUBLING < max(per_doubling(ours))


def per_doubling(times: dict[int, float]) -> list[float]:
    """The growth per doubling of the size between each pair of sizes measured."""
    sizes = sorted(times)
    return [
        (max(times[big], FLOOR) / max(times[small], FLOOR))
        ** (1 / ((big // small).bit_length() - 1))
        for small, big in itertools.pairwise(sizes)
    ]
