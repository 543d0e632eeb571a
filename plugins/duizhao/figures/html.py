"""HTML of the figures feature: the figure element, the per-article gallery, the index page.

Pure (no MkDocs): URLs are passed in already relative to the page that shows them.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree  # noqa: N813 (Python-Markdown convention)
from dataclasses import dataclass
from html import escape

from .crops import Crop
from .spec import FigureSpec, label_zh

INDEX_TITLE = "图表索引"
GALLERY_TITLE = "本文图表"
GALLERY_ID = "dz-figures"


def fill_figure(
    element: etree.Element, fid: str, spec: FigureSpec | None, crop: Crop | None, src: str | None
) -> None:
    """Fill a ``<figure>``: the image (a link that opens the lightbox) and the caption.

    ``fid`` is the placement's key: ``3`` for figure 3 (图 3), ``table-2`` for table 2 (表 2).

    ``src`` is the crop's URL as the Markdown page would write it (MkDocs rewrites and checks
    it like any other link); without it the figure shows its caption and a notice.
    """
    element.set("data-dz-figure", fid)
    if spec is not None and crop is not None and src is not None:
        link = etree.SubElement(
            element,
            "a",
            {
                "class": "dz-figure-zoom",
                "href": src,
                "data-pswp-width": str(crop.width),
                "data-pswp-height": str(crop.height),
                "title": f"放大{label_zh(fid)}",
            },
        )
        etree.SubElement(
            link,
            "img",
            {
                "src": src,
                "width": str(crop.width),
                "height": str(crop.height),
                "alt": spec.alt_text,
                "loading": "lazy",
                "decoding": "async",
            },
        )
    else:
        element.set("class", element.get("class", "") + " dz-figure--missing")
        missing = etree.SubElement(element, "p", {"class": "dz-figure-missing"})
        missing.text = f"{label_zh(fid)}暂缺：图表说明文件中没有可用的裁切。"
    caption = etree.SubElement(element, "figcaption")
    zh = etree.SubElement(caption, "span", {"class": "dz-caption-zh", "lang": "zh-CN"})
    zh_label = etree.SubElement(zh, "span", {"class": "dz-caption-label"})
    if spec is not None and spec.caption_zh:
        zh_label.text = f"{label_zh(fid)}："
        zh_label.tail = spec.caption_zh
    else:
        zh_label.text = label_zh(fid)
    if spec is not None and spec.caption_en:
        en = etree.SubElement(caption, "span", {"class": "dz-caption-en", "lang": "en"})
        en_label = etree.SubElement(en, "span", {"class": "dz-caption-label"})
        en_label.text = f"{spec.label_en}: "
        en_label.tail = spec.caption_en


@dataclass(frozen=True)
class Card:
    """One figure in a gallery or the index: where its thumbnail is and where it links."""

    spec: FigureSpec
    crop: Crop
    src: str
    href: str


def _caption_text(spec: FigureSpec) -> str:
    text = spec.caption_zh or spec.caption_en
    return f"{spec.label_zh}：{text}" if text else spec.label_zh


def cards_html(cards: list[Card]) -> str:
    """A grid of thumbnails; each links to the figure in its article (one line per card)."""
    items = []
    for card in cards:
        items.append(
            f'<li><a class="dz-card" href="{escape(card.href)}">'
            f'<img src="{escape(card.src)}" width="{card.crop.width}" '
            f'height="{card.crop.height}" alt="{escape(card.spec.alt_text)}" loading="lazy" '
            f'decoding="async"><span class="dz-card-caption">{escape(_caption_text(card.spec))}'
            "</span></a></li>"
        )
    return '<ul class="dz-figure-grid">\n' + "\n".join(items) + "\n</ul>"


def gallery_html(cards: list[Card]) -> str:
    """The section listing an article's figures, appended after its content."""
    return (
        f'<section class="dz-gallery" aria-labelledby="{GALLERY_ID}">\n'
        f'<h2 id="{GALLERY_ID}">{GALLERY_TITLE}</h2>\n'
        f"{cards_html(cards)}\n</section>"
    )


@dataclass(frozen=True)
class IndexSection:
    title: str
    #: Markdown link target of the article, relative to the index page's source
    link: str
    cards: list[Card]


def index_markdown(sections: list[IndexSection]) -> str:
    """The site-wide figure index page: every placed figure of every article, by article."""
    total = sum(len(s.cards) for s in sections)
    parts = [
        "---",
        f"title: {INDEX_TITLE}",
        "---",
        "",
        f"# {INDEX_TITLE}",
        "",
        f"全站 {len(sections)} 篇文章共 {total} 幅图。点击缩略图回到它在文中的位置。",
        "",
    ]
    for section in sections:
        title = section.title.replace("[", "\\[").replace("]", "\\]")
        parts += [f"## [{title}]({section.link})", "", cards_html(section.cards), ""]
    return "\n".join(parts)
