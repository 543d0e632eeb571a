"""A small bilingual site shared by the reader's build tests and browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENDOR = ROOT / "node_modules"
USER_DICT = ROOT / "jieba_userdict.txt"

FRONT = """\
---
title: {title}
paper:
  title: {paper}
  url: https://example.org/paper
  license: CC-BY-4.0
paragraphs: P001-P{last:03d}
status: complete
---
"""

# Enough paragraphs that #P012 needs scrolling on a desktop window.
_FILLER = "\n".join(
    f"""
/// paragraph | P{n:03d}
> Filler paragraph {n} keeps the page long enough to scroll.

第 {n} 段填充文字，让页面足够长，以便测试滚动定位。
///
"""
    for n in range(4, 13)
)

ARTICLE_A = (
    FRONT.format(title="显存与 XCCL", paper="Memory and XCCL", last=12)
    + """
# 显存与 XCCL

## 导言

本文用来测试阅读器：模式切换、段落链接、搜索、图与公式。

## 1 引言

/// paragraph | P001
> Activation memory dominates when the batch grows; XCCL moves it between devices.

batch 变大时激活占用的显存成为主导；XCCL 在设备之间搬运它。
///

/// paragraph | P002
> The decode step costs $T = T_{compute} + T_{comm}$ when nothing overlaps.

没有重叠时，一次 decode 的代价是 $T = T_{compute} + T_{comm}$。
///

```mermaid
flowchart LR
  A[超节点] --> B[通信契约]
```

$$
E = mc^2
$$

/// paragraph | P003
> FlowServe schedules requests across the supernode.

FlowServe 在超节点内调度请求，遵守通信契约。
///
"""
    + _FILLER
    + "\n## 附录\n\n"
    + "\n\n".join(f"附录第 {n} 段，让最后一个编号段落之后仍有足够的内容。" for n in range(40))
    + "\n"
)

ARTICLE_B = (
    FRONT.format(title="第二篇", paper="Second Paper", last=2)
    + """
# 第二篇

## 导言

第二篇文章，用来测试跨页导航与跨文章段落链接。

/// paragraph | P001
> See the first article, paragraph twelve.

见第一篇文章的第十二段 [](a.md#P012)。
///

/// paragraph | P002
> A second paragraph.

第二段。
///
"""
)

INDEX = """\
# 首页

- [显存与 XCCL](a.md)
- [第二篇](b.md)
"""

FILES = {"index.md": INDEX, "a.md": ARTICLE_A, "b.md": ARTICLE_B}


def reader_config(**extra: Any) -> dict[str, Any]:
    """mkdocs.yml options of the real site's reader, for make_site(...)."""
    return {
        "theme": {
            "name": "material",
            "language": "zh",
            "font": False,
            "features": ["navigation.instant"],
            "palette": [
                {"media": "(prefers-color-scheme: light)", "scheme": "default"},
                {"media": "(prefers-color-scheme: dark)", "scheme": "slate"},
            ],
        },
        "plugins": [
            {"search": {"lang": "zh", "jieba_dict_user": str(USER_DICT)}},
            {"duizhao": {"vendor_dir": str(VENDOR)}},
        ],
        "markdown_extensions": [
            "attr_list",
            "md_in_html",
            {
                "pymdownx.superfences": {
                    "custom_fences": [
                        {
                            "name": "mermaid",
                            "class": "mermaid",
                            "format": "!!python/name:pymdownx.superfences.fence_code_format",
                        }
                    ]
                }
            },
            {"pymdownx.arithmatex": {"generic": True}},
        ],
        "nav": ["index.md", "a.md", "b.md"],
        "site_url": "https://example.org/duizhao/",
        **extra,
    }


_FENCE_FORMAT = "!!python/name:pymdownx.superfences.fence_code_format"


def fix_tags(mkdocs_yml: Path) -> None:
    """make_site writes YAML with safe_dump, which quotes the Python tag superfences needs."""
    text = mkdocs_yml.read_text(encoding="utf-8")
    mkdocs_yml.write_text(text.replace(f"'{_FENCE_FORMAT}'", _FENCE_FORMAT), encoding="utf-8")
