"""Scored corpus for the paragraph checks: precision and recall per kind on the tuned half.

tests/data/quality/ (see its SOURCES.md): clean paragraphs, one seeded mistake per copy, and
look-alike traps that are correct. The held-out halves (tests/data/quality-heldout/,
quality-heldout2/, quality-heldout3/, quality-heldout4/ and quality-heldout5/) are scored by ``python
-m tests.test_quality_corpus heldout`` (``heldout2`` … ``heldout5``), never while tuning; the suite
holds each to the floor of its first measurement (``HELD_OUT_FLOORS``; heldout5 has none until its
first score).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from duizhao.article import parse
from duizhao.diagnostics import CODES, Severity
from duizhao.quality.checks import check_block, check_paragraphs

DATA = Path(__file__).parent / "data"
GOLDEN = sorted((Path(__file__).parent / "golden" / "quality").glob("*.yml"))

#: The code each seeded kind should produce.
KIND_CODE = {
    "code": "DZ401",
    "math": "DZ402",
    "link": "DZ403",
    "citation": "DZ404",
    "number": "DZ405",
    "reference": "DZ406",
    "identical": "DZ407",
    "untranslated": "DZ420",
    "acronym": "DZ421",
    "halfwidth-punct": "DZ423",
    "fullwidth": "DZ424",
    "spacing": "DZ425",
}
#: The glossary's seeds are scored by the glossary's matcher (branch glossary), not here.
SKIPPED_KINDS = ("glossary",)
ERROR_P, ERROR_R = 0.97, 0.95
WARNING_P, WARNING_R = 0.85, 0.80
#: On the clean set: no error, at most one warning per this many paragraphs.
CLEAN_PARAGRAPHS_PER_WARNING = 50
#: Short names of the parts for the command line; a directory name under tests/data/ works too.
PARTS = {
    "tuned": "quality",
    "heldout": "quality-heldout",
    "heldout2": "quality-heldout2",
    "heldout3": "quality-heldout3",
    "heldout4": "quality-heldout4",
    "heldout5": "quality-heldout5",
}


def _load(name: str, part: str) -> list[dict[str, str]]:
    return yaml.safe_load((DATA / part / name).read_text(encoding="utf-8")) or []


def score(part: str) -> dict[str, object]:
    paragraphs = {p["id"]: p for p in _load("paragraphs.yml", part)}
    seeded = [s for s in _load("seeded.yml", part) if s["kind"] not in SKIPPED_KINDS]
    traps = _load("traps.yml", part)
    tp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    misses: list[str] = []
    for s in seeded:
        found = {code for code, _ in check_block(paragraphs[s["base"]]["en"], s["zh"])}
        want = KIND_CODE[s["kind"]]
        if want in found:
            tp[want] += 1
        else:
            fn[want] += 1
            misses.append(f"{s['id']} {s['kind']}: {sorted(found)}")
        for code in found - {want}:
            fp[code] += 1
            misses.append(f"{s['id']} extra {code}")
    clean_errors = clean_warnings = 0
    for item in [*paragraphs.values(), *traps]:
        for code, msg in check_block(item["en"], item["zh"]):
            fp[code] += 1
            misses.append(f"{item['id']} clean {code} {msg}")
            if CODES[code][0] is Severity.ERROR:
                clean_errors += 1
            else:
                clean_warnings += 1
    result: dict[str, object] = {"misses": misses, "clean_errors": clean_errors}
    result["clean_warnings"] = clean_warnings
    result["clean_count"] = len(paragraphs) + len(traps)
    for severity in (Severity.ERROR, Severity.WARNING):
        codes = [c for c in KIND_CODE.values() if CODES[c][0] is severity]
        t, n, p = (sum(x[c] for c in codes) for x in (tp, fn, fp))
        result[severity.value] = (t / (t + p) if t + p else 1.0, t / (t + n) if t + n else 1.0)
    result["per_code"] = {c: (tp[c], fn[c], fp[c]) for c in KIND_CODE.values()}
    return result


def test_tuned_half_meets_targets() -> None:
    r = score("quality")
    ep, er = r["error"]  # type: ignore[misc]
    wp, wr = r["warning"]  # type: ignore[misc]
    detail = "\n".join(r["misses"][:40])  # type: ignore[index]
    assert ep >= ERROR_P and er >= ERROR_R, f"errors P={ep:.3f} R={er:.3f}\n{detail}"
    assert wp >= WARNING_P and wr >= WARNING_R, f"warnings P={wp:.3f} R={wr:.3f}\n{detail}"
    assert r["clean_errors"] == 0, detail
    allowed = int(r["clean_count"]) // CLEAN_PARAGRAPHS_PER_WARNING  # type: ignore[call-overload]
    assert int(r["clean_warnings"]) <= allowed, detail  # type: ignore[call-overload]


#: Floors of the held-out halves, each set at its measurement when the half was first scored or
#: after the classes found there were fixed (never tuned on the half itself): errors P, R;
#: warnings P, R; errors on clean items at most. heldout3 is its first, unseen score (2026-12-03).
#: heldout4 was first scored unseen on main at 0fcd8e6 (errors 0.913 / 0.913, warnings 0.855 /
#: 0.922, 9 errors on 158 clean items) and again with q23e's first commit, whose classes came
#: from heldout3 (0.943 / 0.913, 0.855 / 0.922, 5 clean errors). Both halves' classes were then
#: told in words to a fixer who never read them (q23e, q23f); the floors are the scores after
#: those fixes (heldout3 1.000 / 0.992, 0.960 / 1.000; heldout4 1.000 / 0.976, 0.981 / 1.000;
#: no error on a clean item in either), so they are no longer unseen measurements.
#: heldout5 is its first, unseen score, on main at 83e4c70 (2026-12-04): errors 0.941 / 0.962,
#: warnings 0.897 / 0.986, 7 errors on 225 clean items (163 paragraphs, 62 traps). Its classes
#: were told in words to fixers who never read it (q23, then q23b for what q23 left and for
#: heldout3's three new DZ420 on kept author-year citations): 1.000 / 1.000, 1.000 / 0.986, no
#: error on a clean item (heldout3 1.000 / 1.000, 0.980 / 1.000) — no longer unseen either.
HELD_OUT_FLOORS = {
    "heldout": (1.0, 0.98, 0.97, 0.97, 0),
    "heldout2": (0.99, 0.99, 0.95, 1.0, 0),
    "heldout3": (1.0, 0.99, 0.96, 1.0, 0),
    "heldout4": (1.0, 0.97, 0.98, 1.0, 0),
    "heldout5": (1.0, 1.0, 1.0, 0.98, 0),
}


@pytest.mark.parametrize("name", sorted(HELD_OUT_FLOORS))
def test_held_out_half_keeps_its_floor(name: str) -> None:
    ep_min, er_min, wp_min, wr_min, clean_max = HELD_OUT_FLOORS[name]
    r = score(PARTS[name])
    ep, er = r["error"]  # type: ignore[misc]
    wp, wr = r["warning"]  # type: ignore[misc]
    detail = "\n".join(r["misses"][:40])  # type: ignore[index]
    assert ep >= ep_min and er >= er_min, f"errors P={ep:.3f} R={er:.3f}\n{detail}"
    assert wp >= wp_min and wr >= wr_min, f"warnings P={wp:.3f} R={wr:.3f}\n{detail}"
    assert int(r["clean_errors"]) <= clean_max, detail  # type: ignore[call-overload]


@pytest.mark.parametrize("case", GOLDEN, ids=[c.stem for c in GOLDEN])
def test_golden(case: Path, tmp_path: Path) -> None:
    """tests/golden/quality/*.yml: source files and the exact report of the paragraph checks."""
    spec = yaml.safe_load(case.read_text(encoding="utf-8"))
    report = []
    for rel, text in spec["files"].items():
        path = tmp_path / rel
        article = parse(text, path)
        report += [d.format(tmp_path) for d in check_paragraphs(article.paragraphs, path)]
    assert "".join(line + "\n" for line in sorted(report)) == spec["expected"]


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "quality"
    res = score(PARTS.get(name, name))
    for key in ("error", "warning", "clean_errors", "clean_warnings", "clean_count", "per_code"):
        print(key, res[key])
    print("\n".join(res["misses"]))  # type: ignore[arg-type]
