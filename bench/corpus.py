"""Generate a synthetic duizhao corpus: a complete MkDocs project for benchmarks and tests.

``generate(out, n_articles=100)`` writes ``out/mkdocs.yml`` and ``out/docs/articles/aNNN.md``
(N articles × 129 paragraph blocks by default) with what real translations contain: front
matter, ``## 导言``, section headings, admonitions and ``/// details`` between blocks, lists,
tables, math and code fences (some holding block syntax that must stay code), and cross-links
``[P042](#P042)`` / ``[](a007.md#P017)``. Lengths follow real articles: an English original of
60–180 words, a Chinese translation of 80–300 characters. Output is deterministic for a seed.

``duizhao=False`` writes the identical corpus for plain Material (no duizhao plugin, the blocks
stay as text): the baseline of the build-overhead benchmark.

With ``figures=K`` every article also declares K figures (``figures: K`` in the front matter, a
``aNNN.figures.yml`` spec beside it and a ``/// figure | N`` placement for each), all cropped
from one generated multi-page PDF under ``out/papers/``.

Command line::

    python -m bench.corpus OUT --articles N [--paragraphs P] [--figures K] [--seed S] [--plain]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import yaml

#: Writes a translation's Chinese prose from its original (see :func:`generate`).
Prose = Callable[[str], str | None]

ROOT = Path(__file__).resolve().parent.parent
#: The real site's config; its markdown_extensions and validation are copied verbatim.
REAL_CONFIG = ROOT / "mkdocs.yml"
#: Written into every generated project so a re-run may safely replace it.
MARKER = ".duizhao-bench-corpus"
ARTICLES_DIR = "articles"
PDF_REL = "papers/bench-paper.pdf"
#: PDF page size in points (US Letter) and the resolution its raster pages are drawn at.
PAGE_W, PAGE_H = 612, 792
PDF_DPI = 100
#: Two figure slots per page: x0, y0, x1, y1 in PDF points from the top-left.
FIGURE_SLOTS = ((72, 84, 540, 372), (72, 420, 540, 708))

_EN_VOCABULARY = (
    "the a of to and in for with on by that is are we our this model models system serving "
    "decode prefill latency throughput memory bandwidth cache KV expert experts MoE token "
    "tokens batch request requests GPU NPU accelerator cluster node nodes SuperPod network link "
    "links topology scheduler scheduling pipeline stage stages overlap communication compute "
    "kernel kernels tensor tensors parallelism data shard shards placement routing load balance "
    "imbalance failure recovery checkpoint replica replicas rank ranks collective all-to-all "
    "dispatch combine attention layer layers weights activation gradient optimizer step steps "
    "time cost budget peak average tail p99 microsecond millisecond second design "
    "implementation evaluation baseline speedup improvement reduces increases achieves provides "
    "enables requires supports observe measure show propose describe present each every across "
    "within between under over when while because therefore however moreover finally first "
    "second third large small fast slow high low fine-grained coarse-grained dynamic static "
    "adaptive global local remote "
)
EN_WORDS = tuple(_EN_VOCABULARY.split())

ZH_SENTENCES = (
    "一台加速卡跑不下、几百张卡又容易互相等待时，问题就不再只是算力够不够。",
    "关键在于谁负责计算、谁负责搬运数据、状态放在哪里、下一步在等什么。",
    "规模化的 MoE 模型与超节点带来了新的系统挑战，服务它们首先是一个调度问题。",
    "我们把预填充与解码拆到不同的资源池，使两者的批大小可以各自调优。",
    "专家并行把每一层的专家分散到多张卡上，token 需要先分发、计算、再合并。",
    "KV cache 的容量决定了同时在途的请求数，也就决定了解码阶段的吞吐上限。",
    "通信与计算的重叠并不是免费的：它占用片上缓冲，也可能拉长尾延迟。",
    "在没有重叠时，一次解码步骤的代价近似等于计算时间与通信时间之和。",
    "负载不均衡会让最慢的那张卡决定整层的完成时间，其余的卡只能空等。",
    "故障恢复需要在不停服的前提下重建副本，并把受影响的请求迁移到健康节点。",
    "调度器按请求的长度与优先级分组，尽量让同一批内的序列长度接近。",
    "互联拓扑的不对称意味着近处的链路带宽高、远处的链路延迟大。",
    "内存语义让应用只表达地址、长度、读写方向与数据依赖，而不是队列事务。",
    "小批量推理常常受限于内核启动边界与中间张量写回显存，而不是矩阵乘法本身。",
    "评估显示，在相同的延迟约束下，新设计的吞吐提高了约一点五倍。",
    "为了便于理解，我们用“超级厨房”类比整个服务流程：备菜、烹饪与上菜各有分工。",
    "这一节的数字来自论文表格，单位统一换算为毫秒与每秒 token 数。",
    "检查点的写入被拆成多个小块并在后台完成，避免阻塞前台的解码步骤。",
    "路由表在每一步都会更新，热门专家被复制到更多的卡上以分摊负载。",
    "降低显存并不是一种动作：它可能是缩小对象、限制在途数量或缩短生命周期。",
    "作者强调，这些收益必须与寄存器、共享内存、互联与功耗一起核算。",
    "集合通信库针对超节点的拓扑重新实现了 all-to-all，避免了多余的中转。",
    "我们在附录中给出了完整的配置与复现实验所需的脚本。",
    "相比基线系统，尾延迟 p99 降低了三成，而平均延迟几乎不变。",
)

ZH_SECTION_TITLES = (
    "引言",
    "背景与动机",
    "系统总览",
    "调度设计",
    "通信库",
    "专家放置",
    "缓存管理",
    "容错与恢复",
    "实现细节",
    "实验设置",
    "性能评估",
    "讨论",
    "相关工作",
    "结论",
)
ZH_NOTES = (
    "这里的“状态”指 KV cache 与专家权重等跨步存活的数据。",
    "原文此处的术语在不同章节含义略有不同，译文统一处理。",
    "这个数字与上一节的表格一致，可以对照阅读。",
    "读者可以先跳过这一段的推导，只看结论。",
    "这一机制在后文的实验中被单独消融。",
)


# --------------------------------------------------------------------------------------------
# Text


def _english(rng: random.Random) -> str:
    """An English original of 60–180 words, as wrapped blockquote lines."""
    n = rng.randint(60, 180)
    words: list[str] = []
    sentence = 0
    for i in range(n):
        word = rng.choice(EN_WORDS)
        if sentence == 0:
            word = word[:1].upper() + word[1:]
        r = rng.random()
        if r < 0.02:
            word = f"**{word}**"
        elif r < 0.035:
            word = f"`{word}`"
        elif r < 0.045:
            word = f"{rng.randint(2, 384)}"
        sentence += 1
        if sentence >= rng.randint(9, 24) or i == n - 1:
            word += "."
            sentence = 0
        elif rng.random() < 0.06:
            word += ","
        words.append(word)
    lines: list[str] = []
    line: list[str] = []
    width = 0
    for word in words:
        if line and width + len(word) + 1 > 90:
            lines.append(" ".join(line))
            line, width = [], 0
        line.append(word)
        width += len(word) + 1
    lines.append(" ".join(line))
    return "\n".join(f"> {text}" for text in lines)


def _chinese(rng: random.Random, low: int = 80, high: int = 300) -> str:
    """Chinese prose of ``low``–``high`` characters (ending on a full stop)."""
    target = rng.randint(low, high)
    text = ""
    while len(text) < target:
        text += rng.choice(ZH_SENTENCES)
    text = text[: target - 1].rstrip("，、：；。") + "。"
    if rng.random() < 0.1:
        cut = _edge(text, rng.randint(4, max(5, len(text) // 2)))
        end = _edge(text, cut + 6)
        text = f"{text[:cut]}**{text[cut:end]}**{text[end:]}"
    return text


def _edge(text: str, i: int) -> int:
    """``i``, or the end of the Latin word or number it falls in (bold never splits p99)."""
    while 0 < i < len(text) and _latin(text[i - 1]) and _latin(text[i]):
        i += 1
    return i


def _latin(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _table(rng: random.Random) -> str:
    rows = [
        f"| {rng.choice(('prefill', 'decode', 'dispatch', 'combine'))} | "
        f"{_zh_number(rng.randint(1, 999))} 毫秒 | {rng.choice(ZH_SECTION_TITLES)} |"
        for _ in range(rng.randint(2, 5))
    ]
    return "\n".join(["| 阶段 | 开销 | 说明 |", "| ---- | ---: | ---- |", *rows])


def _zh_number(n: int) -> str:
    """1..999 in Chinese numerals (the translation's own table holds no number of the
    original's to compare)."""
    digits = "零一二三四五六七八九"
    hundreds, tens, ones = n // 100, n // 10 % 10, n % 10
    out = f"{digits[hundreds]}百" if hundreds else ""
    if tens:
        out += f"{digits[tens]}十"
    elif hundreds and ones:
        out += "零"
    return out + (digits[ones] if ones else "")


def _code_fence(rng: random.Random, with_block_syntax: bool) -> str:
    if with_block_syntax:
        return "\n".join(
            [
                "````markdown",
                "/// paragraph | P999",
                "> Block syntax inside a code fence is code, not a paragraph.",
                "",
                "代码块中的块语法不会被当作段落。",
                "///",
                "````",
            ]
        )
    return "\n".join(
        [
            "```python",
            f"def step(batch, experts={rng.randint(8, 256)}):",
            "    tokens = dispatch(batch, experts)",
            "    return combine(compute(tokens))",
            "```",
        ]
    )


# --------------------------------------------------------------------------------------------
# Articles


def article_name(index: int) -> str:
    """File name of the 1-based ``index``-th article."""
    return f"a{index:03d}.md"


def _pid(number: int) -> str:
    return f"P{number:03d}"


_KEPT_RE = re.compile(r"`[^`]+`|\b[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*\b|(?<![\w.])\d+(?![\d])")


def _kept(original: str) -> str:
    """What a careful translation keeps of ``original`` as written: its inline code, acronyms
    and numbers (so that the translation checks find the corpus clean, as a real site is)."""
    found = _KEPT_RE.findall(original)
    # every code span (their multiset is compared), each acronym and number once
    kept = [k for k in found if k[0] == "`"] + list(dict.fromkeys(k for k in found if k[0] != "`"))
    return f"（原文中的 {'、'.join(kept)}）" if kept else ""


def _translation(
    rng: random.Random,
    index: int,
    n_articles: int,
    paragraphs: int,
    figures: int,
    original: str = "",
    prose: Prose | None = None,
) -> str:
    parts = [_chinese(rng)]
    rendered = prose(original) if prose is not None and original else None
    if rendered:  # (the random prose is drawn all the same: the rest of the corpus is unchanged)
        parts[0] = rendered
    parts[0] = parts[0][:-1] + _kept(original) + parts[0][-1]
    r = rng.random()
    if r < 0.08:
        parts.append(
            f"代价近似为 $T = T_{{c}} + T_{{m}} \\cdot {rng.randint(2, 9)}$，其中通信项占主导。"
        )
    elif r < 0.12:
        parts.append("$$\nT_{step} = \\max(T_{compute}, T_{comm}) + T_{sync}\n$$")
    elif r < 0.17:
        parts.append(_table(rng))
    elif r < 0.22:
        parts.append("\n".join(f"{i}. {_chinese(rng, 10, 40)}" for i in range(1, 4)))
    elif r < 0.25:
        parts.append(_code_fence(rng, with_block_syntax=rng.random() < 0.5))
    r = rng.random()
    if r < 0.12:
        other = rng.randint(1, paragraphs)
        parts[0] += f"（参见 [{_pid(other)}](#{_pid(other)})）"
    elif r < 0.18 and n_articles > 1:
        other_article = rng.choice([i for i in (index - 1, index + 1) if 1 <= i <= n_articles])
        other = _pid(rng.randint(1, paragraphs))
        text = rng.choice(("", f"第 {other_article} 篇的 {other}"))
        parts[0] += f"（对照 [{text}]({article_name(other_article)}#{other})）"
    elif r < 0.21 and figures:
        parts[0] += f"（见 [](#fig-{rng.randint(1, figures)})）"
    return "\n\n".join(parts)


def _between(rng: random.Random, paragraphs: int) -> str | None:
    """A translator's annotation between two blocks, or None."""
    r = rng.random()
    if r < 0.06:
        other = _pid(rng.randint(1, paragraphs))
        return f'!!! note "译注"\n    {rng.choice(ZH_NOTES)}见 [{other}](#{other})。'
    if r < 0.09:
        return f"/// details | 延伸阅读\n    type: note\n\n{_chinese(rng, 40, 120)}\n///"
    if r < 0.11:
        return '!!! tip "示例"\n    下面的写法在代码块中，不会成为段落：\n\n' + "\n".join(
            f"    {line}" for line in _code_fence(rng, True).splitlines()
        )
    if r < 0.12:
        return _code_fence(rng, with_block_syntax=True)
    return None


def article_text(
    index: int,
    n_articles: int,
    paragraphs: int = 129,
    figures: int = 0,
    seed: int = 0,
    prose: Prose | None = None,
) -> str:
    """The Markdown source of the ``index``-th (1-based) article; ``prose``: see
    :func:`generate`."""
    rng = random.Random(f"duizhao-bench:{seed}:{index}")
    title = (
        f"基准文章 {index:03d}：{rng.choice(ZH_SECTION_TITLES)}与{rng.choice(ZH_SECTION_TITLES)}"
    )
    meta: dict[str, object] = {
        "title": title,
        "paper": {
            "title": f"Benchmark Paper {index}: Serving Large Models at Scale",
            "url": f"https://example.org/papers/bench-{index:03d}",
            "license": "CC-BY-4.0",
        },
        "paragraphs": f"{_pid(1)}-{_pid(paragraphs)}",
        "status": "complete",
    }
    if figures:
        meta["figures"] = figures
    out = ["---", yaml.safe_dump(meta, allow_unicode=True, sort_keys=False).rstrip(), "---", ""]
    out += [f"# {title}", "", "## 导言", ""]
    out += [_chinese(rng, 120, 300), ""]
    out += [f"本文共 {paragraphs} 段，从 [{_pid(1)}](#{_pid(1)}) 开始。", ""]
    # Figure N goes after paragraph round(N * paragraphs / (figures + 1)).
    placements: dict[int, list[int]] = {}
    for fig in range(1, figures + 1):
        after = max(1, min(paragraphs, round(fig * paragraphs / (figures + 1))))
        placements.setdefault(after, []).append(fig)
    section = 0
    next_heading = 1
    for number in range(1, paragraphs + 1):
        if number == next_heading:
            section += 1
            out += [f"## {section} {ZH_SECTION_TITLES[(section - 1) % len(ZH_SECTION_TITLES)]}", ""]
            next_heading += rng.randint(8, 12)
        elif rng.random() < 0.05:
            out += [f"### {section}.{number} {rng.choice(ZH_SECTION_TITLES)}", ""]
        out.append(f"/// paragraph | {_pid(number)}")
        original = _english(rng) if rng.random() < 0.97 else ""
        if original:
            out += [original, ""]
        out += [
            _translation(rng, index, n_articles, paragraphs, figures, original, prose),
            "///",
            "",
        ]
        for fig in placements.get(number, ()):
            out.append(f"/// figure | {fig}")
            if rng.random() < 0.3:
                out.append(_chinese(rng, 20, 80))
            out += ["///", ""]
        note = _between(rng, paragraphs)
        if note is not None:
            out += [note, ""]
    return "\n".join(out)


def figure_spec(index: int, figures: int, source: str) -> dict[str, object]:
    """The ``aNNN.figures.yml`` content: figure N sits in slot N of the shared PDF."""
    entries = []
    for fig in range(1, figures + 1):
        page, slot = divmod(fig - 1, len(FIGURE_SLOTS))
        entries.append(
            {
                "id": fig,
                "page": page + 1,
                "box": list(FIGURE_SLOTS[slot]),
                "caption": {
                    "en": f"Figure {fig} of benchmark paper {index}.",
                    "zh": f"基准论文 {index} 的图 {fig}。",
                },
            }
        )
    return {"source": source, "dpi": 200, "figures": entries}


def write_pdf(path: Path, figures: int) -> None:
    """A multi-page PDF with ``figures`` drawn figures (two per US Letter page)."""
    from PIL import Image, ImageDraw

    scale = PDF_DPI / 72
    pages = []
    rng = random.Random(f"duizhao-bench-pdf:{figures}")
    for page in range(max(1, math.ceil(figures / len(FIGURE_SLOTS)))):
        im = Image.new("RGB", (round(PAGE_W * scale), round(PAGE_H * scale)), "white")
        draw = ImageDraw.Draw(im)
        for y in range(40, PAGE_H - 40, 14):  # body text as grey rules
            draw.line([(72 * scale, y * scale), (540 * scale, y * scale)], fill="#dddddd", width=2)
        for slot, (x0, y0, x1, y1) in enumerate(FIGURE_SLOTS):
            fig = page * len(FIGURE_SLOTS) + slot + 1
            if fig > figures:
                break
            box = [v * scale for v in (x0, y0, x1, y1)]
            draw.rectangle(box, fill="white", outline="black", width=3)
            bars = rng.randint(4, 9)
            width = (box[2] - box[0] - 40) / bars
            for b in range(bars):
                top = box[3] - 30 - rng.uniform(0.2, 0.9) * (box[3] - box[1] - 60)
                color = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728")[b % 4]
                left = box[0] + 20 + b * width
                draw.rectangle([left + 4, top, left + width - 4, box[3] - 30], fill=color)
            draw.text((box[0] + 12, box[1] + 8), f"Figure {fig}", fill="black")
        pages.append(im)
    _atomic(
        path,
        lambda tmp: pages[0].save(
            tmp, "PDF", resolution=PDF_DPI, save_all=True, append_images=pages[1:]
        ),
    )


# --------------------------------------------------------------------------------------------
# The project


def _real_section(key: str) -> str:
    """The top-level ``key:`` section of the real mkdocs.yml, verbatim (tags included)."""
    lines = REAL_CONFIG.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#-"):
        end += 1
    return "\n".join(lines[start:end]).rstrip() + "\n"


def config_text(n_articles: int, duizhao: bool, search: str = "material") -> str:
    # The real site's mermaid fence and math need the npm assets of this checkout.
    vendor = REAL_CONFIG.parent / "node_modules"
    plugin = f"  - duizhao:\n      vendor_dir: {json.dumps(str(vendor))}\n"
    if search != "material":
        plugin += f"      search: {search}\n"
    plugins = "  - search:\n      lang: zh\n" + (plugin if duizhao else "")
    return (
        f"site_name: duizhao bench ({n_articles} articles, "
        f"{'duizhao' if duizhao else 'plain Material'})\n"
        "site_url: https://example.org/bench/\n"
        "docs_dir: docs\n"
        "theme:\n  name: material\n  language: zh\n  font: false\n"
        f"plugins:\n{plugins}"
        f"{_real_section('validation')}"
        f"{_real_section('markdown_extensions')}"
    )


def _atomic(path: Path, write: Callable[[str], object]) -> None:
    """Write through a temp file in the same folder, then os.replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_text(path: Path, text: str) -> None:
    _atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def generate(
    out_dir: Path,
    n_articles: int,
    paragraphs: int = 129,
    figures: int = 0,
    seed: int = 0,
    duizhao: bool = True,
    search: str = "material",
    prose: Prose | None = None,
) -> Path:
    """Write a complete MkDocs project of ``n_articles`` articles into ``out_dir``; return it.

    ``out_dir`` must be empty, missing, or a corpus written before (which is replaced).
    ``prose(original)``, when given, writes the Chinese prose of each block's translation from
    its English original (``original``: the blockquote's lines; None keeps the random prose);
    everything else, the originals included, is the corpus ``prose=None`` writes.
    """
    if n_articles < 1 or paragraphs < 1 or figures < 0:
        raise ValueError("need n_articles >= 1, paragraphs >= 1 and figures >= 0")
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        if not (out_dir / MARKER).is_file():
            raise ValueError(
                f"{out_dir} is not empty and not a generated corpus; pick a new folder"
            )
        for name in ("docs", "papers"):
            shutil.rmtree(out_dir / name, ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MARKER).write_text(
        f"n_articles={n_articles} paragraphs={paragraphs} figures={figures} seed={seed}\n",
        encoding="utf-8",
    )
    _write_text(out_dir / "mkdocs.yml", config_text(n_articles, duizhao, search))
    docs = out_dir / "docs"
    index = ["# 基准语料", "", f"共 {n_articles} 篇文章。", ""]
    for i in range(1, n_articles + 1):
        name = article_name(i)
        index.append(f"- [文章 {i:03d}]({ARTICLES_DIR}/{name})")
        _write_text(
            docs / ARTICLES_DIR / name,
            article_text(i, n_articles, paragraphs, figures, seed, prose),
        )
        if figures:
            spec = figure_spec(i, figures, f"../../{PDF_REL}")
            _write_text(
                docs / ARTICLES_DIR / f"{name[:-3]}.figures.yml",
                yaml.safe_dump(spec, allow_unicode=True, sort_keys=False),
            )
    _write_text(docs / "index.md", "\n".join(index) + "\n")
    if figures:
        write_pdf(out_dir / PDF_REL, figures)
    return out_dir


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.corpus", description=__doc__.split("\n")[0]
    )
    parser.add_argument("out", type=Path, help="folder to write the MkDocs project into")
    parser.add_argument("--articles", type=int, default=100, help="number of articles")
    parser.add_argument("--paragraphs", type=int, default=129, help="paragraph blocks per article")
    parser.add_argument("--figures", type=int, default=0, help="figures per article")
    parser.add_argument("--seed", type=int, default=0, help="seed of the pseudo-random text")
    parser.add_argument("--plain", action="store_true", help="plain Material, no duizhao plugin")
    parser.add_argument(
        "--search", choices=("material", "pagefind"), default="material", help="duizhao's search"
    )
    args = parser.parse_args(argv)
    root = generate(
        args.out,
        args.articles,
        args.paragraphs,
        args.figures,
        args.seed,
        duizhao=not args.plain,
        search=args.search,
    )
    print(root)


if __name__ == "__main__":
    main()
