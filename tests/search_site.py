"""The site of the search quality test: real and written articles among generated ones.

Made of the study site's own articles (docs/ai-systems: real Chinese 导言 and notes), the
reader test's two articles, the example site's syntax demo, an article written for the query
set below (:data:`QUALITY`: one paragraph per need of the issue), and generated articles of
129 paragraphs (bench/corpus.py) whose text competes for the same words (显存, memory, …).
Built twice: with Material's search (duizhao's paragraph entries) and with Pagefind.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bench.corpus import generate

from reader_site import ARTICLE_A, ARTICLE_B, ROOT

QUALITY = """\
---
title: 检索质量测试
paper:
  title: A Paper for the Search Quality Test
  url: https://example.org/search-quality
  license: CC-BY-4.0
paragraphs: P001-P042
status: draft
---

# 检索质量测试

## 导言

这篇文章为检索质量测试而写：每段对应查询集中的一条查询。

## 1 显存

/// paragraph | P001
> Activation memory dominates peak memory when the batch grows; recomputation trades compute
> for memory.

batch 变大时，激活占用的显存成为峰值显存的主体；重计算用计算换显存。
///

/// paragraph | P002
> The communication contract between ranks fixes who sends what, and when.

rank 之间的通信契约规定了谁在何时发送什么。
///

/// paragraph | P003
> Pipeline parallelism splits the layers into stages; more micro-batches shrink the bubble.

流水线并行把层切成多个阶段；微批越多，气泡越小。
///

/// paragraph | P004
> To reduce GPU memory, the optimizer states are offloaded to the host.

为了优化显存，我们把优化器状态卸载到主机内存。
///

## 2 注意力 {#attention-section}

/// paragraph | P005
> Attention kernels dominate the decode step at long context lengths.

长上下文下，注意力内核主导了解码步骤。
///

/// paragraph | P006
> The KV cache of each request lives in HBM, and its size bounds the batch.

每个请求的 KV cache 都驻留在 HBM 中，容量决定了并发上限。
///

/// paragraph | P007
> A SuperPod links 384 NPUs with one unified bus.

超节点用统一总线连接 384 张 NPU。
///

## 3 梯度累积与通信 {#grad-accum}

译者注：梯度累积把多个微批的梯度相加后再做一次 all-reduce，通信次数随之减少。

/// paragraph | P042
> We release the code and the traces.

我们公开了代码与运行轨迹。
///
"""

#: (query, the page and anchor of the right result). Chinese that needs segmentation, English
#: words and a prefix, mixed queries, a paragraph ID, a heading, domain terms of
#: jieba_userdict.txt (and, later, of the glossary), and pages of the real site.
QUERIES = [
    ("显存", "quality/#P001"),
    ("通信契约", "quality/#P002"),
    ("流水线并行", "quality/#P003"),
    ("优化显存", "quality/#P004"),
    ("memory", "quality/#P001"),
    ("activation memory", "quality/#P001"),
    ("atten", "quality/#P005"),
    ("offloaded", "quality/#P004"),
    ("KV cache HBM", "quality/#P006"),
    ("KV cache 并发", "quality/#P006"),
    ("超节点 NPU", "quality/#P007"),
    ("超节点", "quality/#P007"),
    ("梯度累积", "quality/#grad-accum"),
    ("P042", "#P042"),
    ("XCCL", "reader/a/#P001"),
    ("FlowServe", "reader/a/#P003"),
    ("Transformerless", "ai-systems/xdeepserve-cloudmatrix384/"),
    ("通信局部性", "ai-systems/ub-mesh-architecture/"),
    ("内存语义", "ai-systems/memory-semantics-vs-rdma/"),
    ("代码块", "example/"),
]


#: The queries of QUERIES that Material's search (``search: material``, duizhao's paragraph
#: entries) ranks in the first five on this site: measured with the former browser test that
#: drove both back ends (main at 4f9463d, test-results/search/quality.txt); Pagefind must keep
#: every one of them.
MATERIAL_TOP5 = [
    "流水线并行",
    "offloaded",
    "KV cache HBM",
    "超节点 NPU",
    "梯度累积",
    "P042",
    "XCCL",
    "FlowServe",
    "Transformerless",
]


def make_project(where: Path, search: str, site_url: str, articles: int = 6) -> Path:
    """A project in ``where`` with duizhao's ``search`` back end, to be served at
    ``site_url`` (Material's instant navigation follows the links of its sitemap only)."""
    root = generate(where, articles, search=search)
    docs = root / "docs"
    shutil.copytree(ROOT / "docs" / "ai-systems", docs / "ai-systems")
    (docs / "reader").mkdir()
    (docs / "reader" / "a.md").write_text(ARTICLE_A, encoding="utf-8")
    (docs / "reader" / "b.md").write_text(ARTICLE_B, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "demo" / "docs" / "example.md", docs / "example.md")
    (docs / "quality.md").write_text(QUALITY, encoding="utf-8")
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    user_dict = ROOT / "jieba_userdict.txt"
    text = text.replace(
        "  - search:\n      lang: zh\n",
        f"  - search:\n      lang: zh\n      jieba_dict_user: {user_dict}\n",
    )
    text = text.replace(
        "theme:\n  name: material\n",
        "theme:\n  name: material\n  features: [navigation.instant, search.highlight]\n"
        "  palette:\n"
        '    - {media: "(prefers-color-scheme: light)", scheme: default}\n'
        '    - {media: "(prefers-color-scheme: dark)", scheme: slate}\n',
    )
    text = text.replace("site_url: https://example.org/bench/", f"site_url: {site_url}")
    config.write_text(text, encoding="utf-8")
    return root
