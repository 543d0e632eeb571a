"""The glossary on the site (issue 23): tooltips on the first use per page and side, never in
code, math, links or headings; the 术语表 page; jieba keeps terms whole; other pages untouched."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import jieba
from tests.conftest import Site

GLOSSARY = """\
- en: [KV cache, KV-cache]
  zh: KV 缓存
  definition: 推理时缓存的注意力键和值。
  note: SECRET-TRANSLATOR-NOTE
- en: prefill
  zh: 预填充
- en: vLLM
  zh: vLLM
- en: attention
  zh: 注意力
- en: Ring Attention
  zh: 环形注意力机制
"""

ARTICLE = """\
---
title: 论文
paragraphs: P001-P002
paper:
  license: CC-BY-4.0
---

## 导言

导言。

### KV cache 小节

/// paragraph | P001
> The KV cache of vLLM speeds up prefill; the KV cache is `KV cache` code and [KV cache](b.md).

vLLM 的 KV 缓存加快了预填充；KV 缓存是代码。
///

/// paragraph | P002
> Ring Attention is not attention. $KV cache$

环形注意力机制不是注意力。
///
"""

PLAIN = "# Plain\n\nThe KV cache and 预填充 on a page without duizhao syntax.\n"


def _site(make_site: Callable[..., Site], **options: Any) -> Site:
    site = make_site(
        {"a.md": ARTICLE, "b.md": PLAIN},
        plugins=[{"duizhao": options}],
        markdown_extensions=["attr_list", "md_in_html", "pymdownx.arithmatex"],
    )
    (site.root / "glossary.yml").write_text(GLOSSARY, encoding="utf-8")
    return site


def _terms(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<abbr class="dz-term" tabindex="0" title="([^"]*)">([^<]*)</abbr>', html)


def test_first_use_per_side_marked(make_site: Callable[..., Site]) -> None:
    site = _site(make_site)
    site.build()
    html = site.html("a.md")
    terms = _terms(html)
    assert ("KV 缓存：推理时缓存的注意力键和值。", "KV cache") in terms  # English side
    assert ("KV cache：推理时缓存的注意力键和值。", "KV 缓存") in terms  # first on the zh side
    assert ("vLLM", "vLLM") in terms and ("预填充", "prefill") in terms
    assert ("环形注意力机制", "Ring Attention") in terms and ("注意力", "attention") in terms
    assert [t for _tip, t in terms].count("KV cache") == 1  # once per page and side
    assert "SECRET-TRANSLATOR-NOTE" not in html
    for part in re.findall(r"<(h2|code|a|span class=\"arithmatex\")[ >].*?</\1", html, re.S):
        assert "dz-term" not in part
    assert "dz-term" not in re.search(r"<h3.*?</h3>", html, re.S).group()  # type: ignore[union-attr]
    # a page without duizhao syntax is left alone, and no glossary page without the option
    assert "dz-term" not in site.html("b.md")
    assert not (site.site_dir / "glossary").exists()


def test_plain_page_byte_identical(make_site: Callable[..., Site], tmp_path: Any) -> None:
    site = _site(make_site)
    site.build()
    with_glossary = site.html("b.md")
    (site.root / "glossary.yml").unlink()
    site.build()
    assert site.html("b.md") == with_glossary


def test_glossary_page_and_search_words(make_site: Callable[..., Site]) -> None:
    site = _site(make_site, glossary_page="glossary.md")
    site.build()
    page = site.html("glossary.md")
    assert "术语表" in page and "SECRET-TRANSLATOR-NOTE" not in page
    row = re.search(r"<tr>\s*<td>KV cache / KV-cache</td>.*?</tr>", page, re.S)
    assert row is not None and 'href="../a/#P001"' in row.group()
    assert "环形注意力机制" in jieba.lcut("环形注意力机制不是注意力")


def test_bad_glossary_is_a_warning(make_site: Callable[..., Site], logs: Any) -> None:
    site = _site(make_site)
    (site.root / "glossary.yml").write_text("- en: x\n", encoding="utf-8")
    site.build()
    assert logs.take(r"glossary\.yml:1: DZ441 the entry has no 'zh'", 1)
