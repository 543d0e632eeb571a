"""Structure of the seeded test set of the translation checks (issue 23): files load, ids unique,
every seeded copy has a base and differs from it. Fast; the scoring itself lives in bench/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

DATA = Path(__file__).parent / "data"
HALVES = [
    "quality",
    "quality-heldout",
    "quality-heldout2",
    "quality-heldout3",
    "quality-heldout4",
    "quality-heldout5",
]
ERRORS = {"code", "math", "link", "citation", "number", "reference", "identical"}
WARNINGS = {"untranslated", "acronym", "glossary", "halfwidth-punct", "fullwidth", "spacing"}


def _load(half: str, name: str) -> list[dict[str, object]]:
    data = yaml.safe_load((DATA / half / f"{name}.yml").read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


@pytest.mark.parametrize("half", HALVES)
def test_files_load_and_ids_are_unique(half: str) -> None:
    for name in ("paragraphs", "seeded", "traps", "glossary"):
        items = _load(half, name)
        assert items, name
        if name != "glossary":
            ids = [item["id"] for item in items]
            assert len(ids) == len(set(ids)), name


@pytest.mark.parametrize("half", HALVES)
def test_paragraphs_have_their_fields(half: str) -> None:
    for p in _load(half, "paragraphs"):
        assert set(p) == {"id", "source", "en", "zh"}, p["id"]
        assert all(isinstance(p[k], str) and p[k].strip() for k in p), p["id"]
        assert p["en"] != p["zh"], p["id"]


@pytest.mark.parametrize("half", HALVES)
def test_seeded_copies_have_a_base_and_differ_from_it(half: str) -> None:
    base = {p["id"]: p for p in _load(half, "paragraphs")}
    for s in _load(half, "seeded"):
        assert s["base"] in base, s["id"]
        assert s["kind"] in ERRORS | WARNINGS, s["id"]
        assert s["severity"] == ("error" if s["kind"] in ERRORS else "warning"), s["id"]
        assert isinstance(s["zh"], str) and s["zh"] != base[s["base"]]["zh"], s["id"]
        assert isinstance(s["note"], str) and s["note"], s["id"]


@pytest.mark.parametrize("half", HALVES)
def test_every_kind_is_seeded(half: str) -> None:
    kinds = {s["kind"] for s in _load(half, "seeded")}
    assert kinds == ERRORS | WARNINGS, sorted((ERRORS | WARNINGS) - kinds)


@pytest.mark.parametrize("half", HALVES)
def test_traps_and_glossary_have_their_fields(half: str) -> None:
    for t in _load(half, "traps"):
        assert all(isinstance(t[k], str) and t[k] for k in ("en", "zh", "note")), t["id"]
    for entry in _load(half, "glossary"):
        assert isinstance(entry["en"], list) and entry["en"], entry
        assert isinstance(entry["zh"], str) and entry["zh"], entry


def test_command_line_names_every_half() -> None:
    """`python -m tests.test_quality_corpus heldout5` scores quality-heldout5 (short names)."""
    from tests.test_quality_corpus import PARTS

    assert sorted(PARTS.values()) == sorted(HALVES)


#: Halves built after the others whose sources must be new to tests/data/ (none of the repositories
#: their paragraphs cite may be named in any other SOURCES.md nor in another half's paragraphs).
FRESH_HALVES = ["quality-heldout5"]


@pytest.mark.parametrize("half", FRESH_HALVES)
def test_fresh_half_sources_overlap_no_other_data(half: str) -> None:
    repos = {str(p["source"]).split()[0] for p in _load(half, "paragraphs")}
    assert repos and all(re.fullmatch(r"[\w.-]+/[\w.-]+", r) for r in repos), repos
    others = [f for f in DATA.rglob("SOURCES.md") if f.parent.name != half]
    others += [DATA / h / "paragraphs.yml" for h in HALVES if h != half]
    assert len(others) > 10
    for f in others:
        text = f.read_text(encoding="utf-8").lower()
        clash = sorted(r for r in repos if r.lower() in text)
        assert not clash, f"{f.relative_to(DATA)} names {clash}"
