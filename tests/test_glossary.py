"""The glossary (issue 23): golden diagnostics of bad glossary.yml files, the matcher on CJK text
(examples and Hypothesis), the check, TBX/CSV round trips, and the commands."""

from __future__ import annotations

import gc
import itertools
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from duizhao.cli import main
from duizhao.quality.glossary.check import GlossaryCheck
from duizhao.quality.glossary.io import export_csv, export_tbx, import_file
from duizhao.quality.glossary.match import Hit, Matcher, _lower, _word, mask, plurals, resolve
from duizhao.quality.glossary.model import Entry, Glossary, read_glossary

GOLDEN = Path(__file__).parent / "golden" / "glossary"


@pytest.mark.parametrize("case", sorted(GOLDEN.glob("*.yml")), ids=lambda p: p.stem)
def test_golden_diagnostics(case: Path) -> None:
    _glossary, found = read_glossary(case)
    report = "".join(d.format(GOLDEN) + "\n" for d in found)
    assert report == case.with_suffix(".txt").read_text(encoding="utf-8")
    assert "Traceback" not in report and "Error" not in report


def E(en: str | tuple[str, ...], zh: str, **kw: object) -> Entry:  # noqa: N802
    return Entry(en=(en,) if isinstance(en, str) else en, zh=zh, line=1, **kw)  # type: ignore[arg-type]


def _english(entries: list[Entry], text: str) -> list[str]:
    return [text[h.start : h.end] for h in Matcher(entries).english(text)]


def test_latin_terms_next_to_chinese_characters() -> None:
    entries = [E("LLM", "大语言模型"), E("attention", "注意力"), E("Ring Attention", "环形注意力")]
    assert _english(entries, "使用LLM进行推理") == ["LLM"]
    assert _english(entries, "LLMs 和 LLM。") == ["LLMs", "LLM"]
    assert _english(entries, "XLLM, LLM2, attentional, self-attention") == ["attention"]
    # the longer form wins over the shorter one it contains
    assert _english(entries, "Ring Attention and ATTENTION") == ["Ring Attention", "ATTENTION"]


def test_case_sensitive_forms() -> None:
    entries = [E("Apple", "苹果公司", case=True)]
    assert _english(entries, "Apple and apple") == ["Apple"]


def test_chinese_longest_match_and_overlap_rule() -> None:
    m = Matcher([E("Peking University", "北大"), E("roughly", "大概")])
    assert [h.term for h in m.chinese("北大概")] == ["大概"]  # 北大 is not in 北大概
    assert [h.term for h in m.chinese("北大的")] == ["北大"]
    m = Matcher([E("Peking University", "北大"), E("concept", "大概念")])
    assert [h.term for h in m.chinese("北大概念")] == ["大概念"]  # the longer one overlaps
    m = Matcher([E("throughput", "吞吐量", zh_allowed=("吞吐",), zh_forbidden=("吞吐率",))])
    assert [h.term for h in m.chinese("吞吐率与吞吐量")] == ["吞吐率", "吞吐量"]


def test_masks_keep_offsets() -> None:
    text = "see `LLM` and $LLM$ [LLM](https://a.b/LLM) https://x.y/LLM"
    masked = mask(text)
    assert len(masked) == len(text)
    assert _english([E("LLM", "大语言模型")], masked) == ["LLM"]  # the link's text only


def test_check_warnings() -> None:
    check = GlossaryCheck(
        Glossary(
            entries=[
                E("throughput", "吞吐量", zh_allowed=("吞吐",), zh_forbidden=("吞吐率",)),
                E("vLLM", "vLLM"),
                E("trie", "前缀树", keep_en=False),
            ]
        )
    )
    path = Path("a.md")

    def codes(en: str, zh: str) -> list[str]:
        return [d.code for d in check.paragraph(en, zh, path, 3)]

    assert codes("Throughput of vLLM.", "vLLM 的吞吐。") == []
    assert codes("Throughput of vLLM.", "vLLM 的吞吐率。") == ["DZ446"]
    assert codes("Throughput of vLLM.", "vLLM 的通量。") == ["DZ445"]
    assert codes("vLLM is fast.", "该引擎很快。") == ["DZ447"]
    assert codes("A trie.", "一棵 trie。") == []  # English kept: the untranslated check's
    assert codes("`trie` code", "代码") == []  # masked


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="LMabc 北大概念吞吐量率`$[]()/:-_", max_size=200))
def test_matcher_never_crashes_and_hits_are_sound(text: str) -> None:
    m = Matcher([E("LLM", "北大"), E("ab", "大概"), E("abc", "大概念", zh_forbidden=("吞吐率",))])
    masked = mask(text)
    assert len(masked) == len(text)
    for hits in (m.english(masked), m.chinese(masked)):
        spans = [(h.start, h.end) for h in hits]
        assert spans == sorted(spans)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
        for h in hits:
            assert (
                masked[h.start : h.end].lower()
                in {f.lower() for f in (h.term, h.term + "s", h.term + "es")}
                or masked[h.start : h.end] == h.term
            )


def _reference(entries: list[Entry], text: str, side: str) -> list[tuple[int, int, int, str]]:
    """Every occurrence of every key, filtered and resolved by the rule as written
    (:func:`resolve`): what the matcher's one-pass scan must equal."""
    hits: list[Hit] = []
    if side == "en":
        sources = [
            (e, f, v, e.case) for e in entries if not e.case for f in e.en for v in plurals(f)
        ]
        sources += [(e, f, v, e.case) for e in entries if e.case for f in e.en for v in plurals(f)]
    else:
        sources = [(e, z, z, True) for e in entries for z in (*e.renderings, *e.zh_forbidden)]
    low = _lower(text)
    for entry, term, variant, cased in sources:
        key, hay = (variant, text) if cased else (variant.lower(), low)
        for i in range(len(hay) - len(key) + 1):
            if not hay.startswith(key, i):
                continue
            j = i + len(key)
            lead = side == "en" or _word(term[0])
            tail = side == "en" or _word(term[-1])
            if (lead and i and _word(text[i - 1])) or (tail and j < len(text) and _word(text[j])):
                continue
            hits.append(Hit(i, j, entry, term))
    return [(h.start, h.end, id(h.entry), h.term) for h in resolve(hits)]


_FORMS = st.text(alphabet="ab -", min_size=1, max_size=6).filter(lambda f: f.strip() == f and f)
_RENDERINGS = st.text(alphabet="北大概念K V", min_size=1, max_size=4).filter(
    lambda z: z.strip() == z and z
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(_FORMS, _RENDERINGS, st.booleans(), st.lists(_RENDERINGS, max_size=1)),
        min_size=1,
        max_size=7,
    ),
    st.text(alphabet="abAB -北大概念KV", max_size=60),
)
@example([("a b", "北大", False, []), ("b a", "大概", False, [])], "a b a 北大概")
@example([("a b", "北大概", False, []), ("b", "大", False, ["概念"])], "a b a, A B 北大概念")
@example([("ab", "K 北", True, ["北K"]), ("a", "北K", False, [])], "ab AB K 北K 北 K北K")
def test_matcher_equals_the_rule_as_written(
    spec: list[tuple[str, str, bool, list[str]]], text: str
) -> None:
    """Overlapping keys, keys several entries share, plurals, case-sensitive entries and
    renderings with Latin ends: the scan keeps what :func:`resolve` keeps of every hit."""
    entries = [
        E(form, zh, case=case, zh_forbidden=tuple(f for f in forbidden if f != zh))
        for form, zh, case, forbidden in spec
        if any(c.isalpha() for c in form)
    ]
    m = Matcher(entries)
    for side, found in (("en", m.english(text)), ("zh", m.chinese(text))):
        got = [(h.start, h.end, id(h.entry), h.term) for h in found]
        assert got == _reference(entries, text, side), side


def test_matching_is_linear_in_text_length() -> None:
    entries = [E(f"term{i} x", f"术语{i}") for i in range(300)] + [E("a", "啊啊")]
    m = Matcher(entries)
    costs = []
    for n in (20_000, 80_000):
        text = ("a " * n) + "啊" * n
        runs = []
        gc.disable()  # the least of three runs, without the collector (0.08 -> 0.68 s once)
        try:
            for _ in range(3):
                start = time.process_time()
                m.english(text), m.chinese(text)
                runs.append(time.process_time() - start)
        finally:
            gc.enable()
        costs.append(min(runs))
    assert costs[1] < costs[0] * 8  # 4x the text: about 4x the time, never 16x


def test_tbx_and_csv_round_trip(tmp_path: Path) -> None:
    entries = [
        E(("KV cache", "KV-cache"), "KV 缓存", zh_forbidden=("键值缓存",), definition="缓存。"),
        E("throughput", "吞吐量", zh_allowed=("吞吐",), note="translator's"),
    ]
    for name, text in (("g.tbx", export_tbx(entries)), ("g.csv", export_csv(entries))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        items, problems = import_file(tmp_path / name)
        assert problems == []
        assert items[0]["en"] == ["KV cache", "KV-cache"] and items[0]["zh"] == "KV 缓存"
        assert items[0]["zh_forbidden"] == ["键值缓存"] and items[0]["definition"] == "缓存。"
        assert items[1]["zh_allowed"] == ["吞吐"]
    assert export_csv(entries).splitlines()[0].startswith("source,target,tgt_lng")
    (tmp_path / "bad.tbx").write_text('<!DOCTYPE x [<!ENTITY a "b">]><tbx/>', encoding="utf-8")
    assert [d.code for d in import_file(tmp_path / "bad.tbx")[1]] == ["DZ448"]


ARTICLE = """---
title: T
paragraphs: P001-P002
paper:
  license: CC-BY-4.0
---

## 导言

x

/// paragraph | P001
> We measure the throughput of RAG.

我们测量 RAG 的吞吐率。
///

/// paragraph | P002
> Retrieval-Augmented Generation (RAG) helps.

检索增强生成（RAG）有帮助。RAG 很常用。
///
"""


def test_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nplugins: [duizhao]\n", encoding="utf-8")
    (tmp_path / "docs" / "a.md").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "docs" / "b.md").write_text(
        ARTICLE.replace("P002\n>", "P002\n> RAG. "), encoding="utf-8"
    )
    glossary = "- en: throughput\n  zh: 吞吐量\n  zh_forbidden: [吞吐率]\n"
    (tmp_path / "glossary.yml").write_text(glossary, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["glossary", "check"])
    assert result.exit_code == 0, result.output
    assert re.search(r"docs/a\.md:15: DZ446 'throughput' is translated as '吞吐率'", result.output)
    result = runner.invoke(main, ["check", "docs/a.md"])
    assert "DZ446" in result.output
    result = runner.invoke(main, ["glossary", "suggest"])
    assert result.exit_code == 0, result.output
    draft = (tmp_path / "glossary.draft.yml").read_text(encoding="utf-8")
    assert "RAG" in draft and "检索增强生成" in draft
    assert (tmp_path / "glossary.yml").read_text(encoding="utf-8") == glossary
    assert runner.invoke(main, ["glossary", "export", "out.tbx"]).exit_code == 0
    assert "吞吐率" in (tmp_path / "out.tbx").read_text(encoding="utf-8")
    (tmp_path / "glossary.yml").write_text("- [", encoding="utf-8")
    result = runner.invoke(main, ["glossary", "check"])
    assert result.exit_code == 1 and "glossary.yml:1: DZ440" in result.output
    assert "Traceback" not in result.output


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(_FORMS, _RENDERINGS, st.booleans(), st.lists(_RENDERINGS, max_size=1)),
        min_size=1,
        max_size=7,
    ),
    st.text(alphabet="abAB -北大概念KV*Σς", max_size=60),
    st.integers(0, 60),
    st.integers(0, 60),
)
@example([("a b", "北大", False, [])], "a b a*b a", 2, 9)  # "a b" crosses the fragment's start
@example([("a", "北大", False, [])], "ba b*a", 1, 6)  # a word continues past the start
@example([("KV", "大概", False, [])], "大概念", 1, 3)  # the longer overlap outside the fragment
def test_a_scans_part_is_the_parts_own_scan(
    spec: list[tuple[str, str, bool, list[str]]], text: str, i: int, j: int
) -> None:
    """What :meth:`Matcher.part` takes from a block's scan for a text it holds (the tooltips'
    texts of a checked block) is what that text's own scan keeps, or None."""
    entries = [
        E(form, zh, case=case, zh_forbidden=tuple(f for f in forbidden if f != zh))
        for form, zh, case, forbidden in spec
        if any(c.isalpha() for c in form)
    ]
    m = Matcher(entries)
    fragment = text[min(i, j) : max(i, j)]
    scans = [(m.english_scan(text), m.english_raw), (m.chinese_scan(text), m.chinese_raw)]
    for scan, own in scans:
        if scan is None:
            continue
        whole = m.part(scan, text)
        assert whole == (0, own(text)) or (whole is None and "Σ" in text)
        part = m.part(scan, fragment)
        if part is not None:
            offset, kept = part
            assert text[offset : offset + len(fragment)] == fragment
            assert [(s - offset, e - offset, k) for s, e, k in kept] == own(fragment)


def test_tooltips_with_the_checks_scans_are_the_same(tmp_path: Path) -> None:
    """The tooltips of a page whose blocks the glossary check scanned (its texts' hits taken
    from those scans) are those of the page marked alone."""
    from duizhao.quality.glossary.check import GlossaryCheck
    from duizhao.quality.glossary.model import Glossary
    from duizhao.terms.annotate import annotate

    entries = [E("KV cache", "KV 缓存"), E("cache", "缓存"), E("ring attention", "环形注意力")]
    entries += [E("attention", "注意力"), E("prefill", "预填充", zh_forbidden=("预充",))]
    glossary = Glossary(tmp_path / "glossary.yml", entries)
    check = GlossaryCheck(glossary)
    blocks = [
        (
            "The KV cache and *ring attention* in `cache` [prefill](a.md) cache.",
            "KV 缓存和环形注意力。",
        ),
        (
            "Ring **attention** needs a cache; prefill the KV cache.",
            "环形**注意力**需要缓存；预充 KV 缓存。",
        ),
    ]
    scans = check.scans()
    for original, translation in blocks:
        check.paragraph(original, translation, tmp_path / "a.md", 1, scans)
    html = (
        '<div class="dz-en"><p>The KV cache and <em>ring attention</em> in <code>cache</code> '
        '<a href="a.md">prefill</a> cache.</p></div><div class="dz-zh"><p>KV 缓存和环形注意力。</p>'
        '</div><div class="dz-en"><p>Ring <strong>attention</strong> needs a cache; prefill the '
        'KV cache.</p></div><div class="dz-zh"><p>环形<strong>注意力</strong>需要缓存；预充 KV 缓存。</p></div>'
    )
    matcher = Matcher(entries)
    alone = annotate(html, matcher)
    assert alone.count("dz-term") == 9 and len(scans.en) == len(scans.zh) == 2
    assert annotate(html, matcher, scans) == alone
