"""Score the glossary check on the seeded test set (issue 23): recall and precision.

``python -m bench.glossary_score [tests/data/quality]``: every ``glossary``-kind seed should get
a glossary warning (DZ445-DZ447); every other text (the clean paragraphs, the traps, the seeds of
the other kinds) should get none. Prints both figures and each miss and false alarm.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from duizhao.quality.glossary.check import GlossaryCheck
from duizhao.quality.glossary.model import read_glossary

CODES = {"DZ445", "DZ446", "DZ447"}


def score(folder: Path, *, verbose: bool = False) -> dict[str, float]:
    glossary, problems = read_glossary(folder / "glossary.yml")
    if problems:
        raise SystemExit("\n".join(d.format() for d in problems))
    check = GlossaryCheck(glossary)

    def load(name: str) -> list[dict[str, str]]:
        return yaml.safe_load((folder / f"{name}.yml").read_text(encoding="utf-8")) or []

    paragraphs = {p["id"]: p for p in load("paragraphs")}
    cases: list[tuple[str, str, str, bool]] = []  # id, en, zh, seeded glossary error
    cases += [(p["id"], p["en"], p["zh"], False) for p in paragraphs.values()]
    cases += [(t["id"], t["en"], t["zh"], False) for t in load("traps")]
    for s in load("seeded"):
        en = paragraphs[s["base"]]["en"]
        cases.append((f"{s['id']}({s['kind']})", en, s["zh"], s["kind"] == "glossary"))
    tp = fp = fn = 0
    path = Path("x.md")
    for case_id, en, zh, seeded in cases:
        found = [d for d in check.paragraph(en, zh, path, 1) if d.code in CODES]
        if seeded and found:
            tp += 1
        elif seeded:
            fn += 1
            if verbose:
                print(f"miss  {case_id}")
        elif found:
            fp += 1
            if verbose:
                print(f"false {case_id}: {found[0].code} {found[0].message}")
    recall = tp / (tp + fn) if tp + fn else 1.0
    precision = tp / (tp + fp) if tp + fp else 1.0
    clean_warned = sum(
        1
        for p in paragraphs.values()
        if any(d.code in CODES for d in check.paragraph(p["en"], p["zh"], path, 1))
    )
    return {
        "seeds": tp + fn,
        "recall": recall,
        "precision": precision,
        "false_alarms": fp,
        "clean": len(paragraphs),
        "clean_warned": clean_warned,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.glossary_score")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("tests/data/quality"))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    result = score(args.folder, verbose=args.verbose)
    print(
        " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in result.items())
    )
    sys.exit(0 if result["recall"] >= 0.8 and result["precision"] >= 0.85 else 1)


if __name__ == "__main__":
    main()
