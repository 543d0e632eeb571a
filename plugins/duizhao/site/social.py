"""Social previews: Open Graph and Twitter card tags, with the description taken from the 导言.

Pure: no MkDocs import. Link previews (WeChat, Slack, X, …) read these tags from ``<head>``.
"""

from __future__ import annotations

import html
from html.parser import HTMLParser

import markdown

from ..markdown import linear_links

#: Longer descriptions get cut by every preview; keep the first sentences.
DESCRIPTION_LIMIT = 160


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(markdown_text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """The text a reader sees in ``markdown_text``, whitespace collapsed, cut at ``limit``."""
    parser = _Text()
    md = markdown.Markdown()
    linear_links(md)  # a 导言 with thousands of '[' must not take minutes
    parser.feed(md.convert(markdown_text))
    parser.close()
    text = " ".join("".join(parser.parts).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def meta_tags(
    *,
    title: str,
    description: str | None,
    url: str | None,
    site_name: str,
    is_article: bool,
    locale: str,
) -> str:
    """``<meta>`` lines for ``<head>`` (every value HTML-escaped)."""
    tags = [
        ("og:type", "article" if is_article else "website"),
        ("og:title", title),
        ("og:site_name", site_name),
        ("og:locale", locale),
    ]
    if description:
        tags.append(("og:description", description))
    if url:
        tags.append(("og:url", url))
    lines = [f'<meta property="{name}" content="{html.escape(value)}">' for name, value in tags]
    lines.append('<meta name="twitter:card" content="summary">')
    return "\n".join(lines) + "\n"


#: og:locale (language_TERRITORY) of the bare languages Material's ``theme.language`` names
_LOCALES = {
    "ar": "ar_AR", "de": "de_DE", "en": "en_US", "es": "es_ES", "fr": "fr_FR", "it": "it_IT",
    "ja": "ja_JP", "ko": "ko_KR", "nl": "nl_NL", "pl": "pl_PL", "pt": "pt_BR", "ru": "ru_RU",
    "tr": "tr_TR", "uk": "uk_UA", "vi": "vi_VN", "zh": "zh_CN",
}


def locale(language: str) -> str:
    """The Open Graph locale of a site language: ``zh`` → ``zh_CN``, ``zh-TW`` → ``zh_TW``."""
    lang, _, region = language.replace("_", "-").partition("-")
    if region and len(region) == 2:
        return f"{lang.lower()}_{region.upper()}"
    if lang.lower() == "zh" and region.lower() == "hant":
        return "zh_TW"
    return _LOCALES.get(lang.lower(), lang.lower())
