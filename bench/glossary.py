"""A build's overhead with a glossary (issue 23 target: ≤ 10 % with 500 terms on 200 pages).

``python -m bench.glossary [--articles 200] [--paragraphs 20] [--terms 500] [--repeat 3]
[--against DIR]``
generates the synthetic corpus (bench/corpus.py) and a glossary of ``--terms`` entries made of
the corpus' own frequent English words and bigrams (so terms occur on every page) with Chinese
renderings taken from its translations, then times ``mkdocs build`` without and with
``glossary.yml``, alternating, and prints the medians of their CPU time and their ratio side
by side. The translation checks run in both, the glossary check (DZ445–DZ447) in the build
with the glossary, its warnings reported. With ``--against DIR`` (another checkout, such as
main's) the builds of both trees alternate on the same corpus (its ``plugins/`` imported first).

The corpus' translations agree with the glossary, as a site's that follows its glossary do:
the corpus is written again (:func:`bench.corpus.generate`'s ``prose``) with each block's
Chinese prose made of the renderings of the terms its original holds, in order
(:func:`agreeing_prose`), so the check runs on every paragraph and finds little.
``--random-prose`` keeps the corpus' random prose, which no glossary agrees with (about 200,000
warnings, which ``--quiet-terms`` ignores in both builds).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from bench.corpus import Prose, generate
from duizhao.quality.glossary.match import Matcher, mask
from duizhao.quality.glossary.model import Entry

BIN = Path(sys.executable).parent


def make_glossary(project: Path, terms: int) -> list[dict[str, object]]:
    words: Counter[str] = Counter()
    han: Counter[str] = Counter()
    for page in sorted((project / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("> "):
                tokens = re.findall(r"[A-Za-z]{4,}", line)
                words.update(t.lower() for t in tokens)
                words.update(f"{a.lower()} {b.lower()}" for a, b in itertools.pairwise(tokens))
            else:
                han.update(re.findall("[\u4e00-\u9fff]{2,4}", line))
    english = [w for w, _n in words.most_common(terms)]
    chinese = [w for w, _n in han.most_common(terms)] or ["术语"]
    return [
        {"en": w, "zh": chinese[i % len(chinese)], "definition": f"定义 {i}。"}
        for i, w in enumerate(english)
    ]


def agreeing_prose(entries: list[dict[str, object]]) -> Prose:
    """A translation's prose that renders every glossary term of its original: the terms the
    glossary check finds in the original (longest first, no overlaps), each distinct one's
    ``zh`` once, in order, joined by 、."""
    glossary = Matcher(
        Entry(en=(str(e["en"]),), zh=str(e["zh"]), line=i + 1) for i, e in enumerate(entries)
    )

    def prose(original: str) -> str | None:
        text = "\n".join(line.removeprefix("> ") for line in original.splitlines())
        seen: dict[str, None] = {}
        for hit in glossary.english(mask(text)):
            seen.setdefault(hit.entry.zh, None)
        return "、".join(seen) + "。" if seen else None

    return prose


def quiet_term_warnings(config: Path) -> None:
    """Both builds with ``quality: ignore:`` the glossary check's codes (``--quiet-terms``):
    with ``--random-prose`` no glossary agrees with the translations, and the check (which
    still runs) reports about 50 warnings a paragraph."""
    text = config.read_text(encoding="utf-8")
    plugin = "  - duizhao:\n"
    assert plugin in text, "the corpus' mkdocs.yml has no duizhao plugin"
    quiet = "      quality:\n        ignore: [DZ445, DZ446, DZ447]\n"
    config.write_text(text.replace(plugin, plugin + quiet, 1), encoding="utf-8")


def timed_build(project: Path, site: Path, plugins: Path | None = None) -> float:
    """The CPU time (user + system) of one ``mkdocs build``: what a busy machine's other work
    does not inflate, as it does the wall time (``plugins``: another checkout's ``plugins/``
    directory, imported before this one's)."""
    env = dict(os.environ)
    if plugins is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(plugins), env.get("PYTHONPATH", "")])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [str(BIN / "mkdocs"), "build", "--quiet", "--site-dir", str(site)],
        cwd=project,
        check=True,
        env=env,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.glossary")
    parser.add_argument("--articles", type=int, default=200)
    parser.add_argument("--paragraphs", type=int, default=20)
    parser.add_argument("--terms", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--random-prose",
        action="store_true",
        help="keep the corpus' random translations, which the glossary does not agree with",
    )
    parser.add_argument(
        "--quiet-terms",
        action="store_true",
        help="ignore the glossary check's codes (DZ445-DZ447) in both builds",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout (e.g. main's) whose builds alternate with this tree's, same corpus",
    )
    args = parser.parse_args(argv)
    trees: dict[str, Path | None] = {"this tree": None}
    if args.against is not None:
        trees[str(args.against)] = args.against.resolve() / "plugins"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        project = generate(work / "corpus", args.articles, paragraphs=args.paragraphs)
        entries = make_glossary(project, args.terms)
        if not args.random_prose:
            project = generate(
                project, args.articles, paragraphs=args.paragraphs, prose=agreeing_prose(entries)
            )
        if args.quiet_terms:
            quiet_term_warnings(project / "mkdocs.yml")
        text = yaml.safe_dump(entries, allow_unicode=True, sort_keys=False)
        glossary = project / "glossary.yml"
        times: dict[tuple[str, str], list[float]] = {
            (tree, name): [] for tree in trees for name in ("without", "with")
        }
        for plugins in trees.values():  # caches (jieba, the page memo, bytecode) warm for all
            timed_build(project, work / "warm", plugins)
        for _ in range(args.repeat):
            for tree, plugins in trees.items():
                for name in ("without", "with"):
                    if name == "with":
                        glossary.write_text(text, encoding="utf-8")
                    elif glossary.exists():
                        glossary.unlink()
                    times[tree, name].append(timed_build(project, work / f"site-{name}", plugins))
        marked = sum(
            p.read_text(encoding="utf-8").count('class="dz-term"')
            for p in (work / "site-with").rglob("index.html")
        )
    print(
        f"{args.articles} pages x {args.paragraphs} paragraphs, "
        f"{len(entries)} terms, {marked} marked (this tree's last build)"
    )
    overheads = {}
    for tree in trees:
        without, with_ = (statistics.median(times[tree, k]) for k in ("without", "with"))
        overheads[tree] = with_ / without - 1
        print(f"{tree}: build without glossary: {without:.2f} s CPU (median of {args.repeat})")
        print(f"{tree}: build with glossary:    {with_:.2f} s CPU")
        print(f"{tree}: overhead: {overheads[tree]:+.1%} (target <= 10%)")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    sys.exit(0 if overheads["this tree"] <= 0.10 else 1)


if __name__ == "__main__":
    main()
