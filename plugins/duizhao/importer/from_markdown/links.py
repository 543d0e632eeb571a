"""Links and images of an original: resolved against where it is published, or kept as text
(one warning per kind); anchors follow the imported headings; unsafe schemes stay text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urljoin

from markdown_it.tree import SyntaxTreeNode

from ...escape import markdown_href, markdown_link_title, markdown_text
from .state import State
from .templates import LIQUID_URL_PREFIX_RE, TEMPLATE_RE
from .text import excerpt

#: Link schemes kept as links; anything else (javascript:, data:, vbscript:, file:) is text.
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "ftp", "ftps", "tel", "irc", "ircs"})
_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]{0,31}):")
_AUTOLINK_RE = re.compile(r"^https?://[^\s<>|\\`]{1,2000}$")
#: How many of one kind of link the warning names.
LINKS_SHOWN = 5


@dataclass
class Unlinked:
    """Links that could not stay links, gathered for one warning per kind."""

    site_absolute: list[tuple[int | None, str]] = field(default_factory=list)
    relative: list[tuple[int | None, str]] = field(default_factory=list)
    anchors: list[tuple[int | None, str]] = field(default_factory=list)


def link_target(url: str, title: str) -> str:
    """What goes between the parentheses of a Markdown link or image."""
    title = markdown_link_title(title)
    return markdown_href(url) + (f' "{title}"' if title else "")


class Links(State):
    unlinked: Unlinked
    anchor_titles: dict[str, str]

    def resolve(self, href: str, line: int | None, text: str) -> str | None:
        """The URL a link of the original gets in the article, or None to keep it as text."""
        href = href.strip()
        if "%7B" in href or "{" in href:
            decoded = unquote(href)
            stripped = LIQUID_URL_PREFIX_RE.sub("", decoded)
            if TEMPLATE_RE.search(stripped):
                self.warn(line, f"link {text!r} → {decoded!r}: a template URL; kept as text")
                return None
            href = stripped if stripped != decoded else href
        if not href:
            return None
        scheme = _SCHEME_RE.match(href)
        if scheme:
            if scheme.group(1).lower() in SAFE_SCHEMES:
                return href
            self.drop(line, f"target of {text!r} has an unsafe scheme {scheme.group(1)!r}")
            return None
        if href.startswith("//"):
            return "https:" + href
        if href.startswith("#"):
            fragment = unquote(href[1:])
            if fragment in self.slugs:
                return "#" + self.slugs[fragment]
            if self.base_url:
                return urljoin(self.base_url, href)
            self.unlinked.anchors.append((line, href))
            return None
        if self.base_url:
            return urljoin(self.base_url, href)
        if href.startswith("/"):
            self.unlinked.site_absolute.append((line, href))
        else:
            self.unlinked.relative.append((line, href))
        return None

    def link(self, node: SyntaxTreeNode, line: int | None) -> str:
        text = self.inline(node.children, line)
        href = str(node.attrs.get("href", ""))
        url = self.resolve(href, line, self.plain(node.children))
        if not text.strip():  # MyST's [](#label): the target's title
            label = unquote(href.lstrip("#"))
            text = markdown_text(
                self.anchor_titles.get(label, label), table=self.in_table, inline=True
            )
        if url is None:
            return text
        if self.plain(node.children) == url and _AUTOLINK_RE.match(url):
            return f"<{url}>"  # a bare URL: an autolink, readable in the source
        if not text.strip():
            text = markdown_text(url, table=self.in_table, inline=True)
        return f"[{text}]({link_target(url, str(node.attrs.get('title') or ''))})"

    def image(self, node: SyntaxTreeNode, line: int | None, *, inline: bool) -> str:
        alt = self.plain(node.children)
        src = str(node.attrs.get("src", ""))
        title = str(node.attrs.get("title") or "")
        return self.picture(src, alt, title, line, inline=inline)

    def picture(self, src: str, alt: str, title: str, line: int | None, *, inline: bool) -> str:
        """An image as Markdown, or (when it cannot be linked) its alt text inline and a
        figure-candidate marker (an HTML comment naming it) on its own."""
        url = self.resolve(src, line, alt or src)
        if url is None:
            shown = excerpt(src, 80)
            local = bool(src.strip()) and not _SCHEME_RE.match(src)
            why = "cannot be linked without --base-url" if local else "cannot be linked"
            kept = "kept its alt text" if inline else "left a figure-candidate marker"
            self.warn(line, f"image {shown!r} ({alt or 'no alt text'}) {why}; {kept}")
            if inline:
                return markdown_text(alt, table=self.in_table, inline=True)
            safe = " ".join(f"{shown} {alt}".replace("--", "- -").replace(">", "&gt;").split())
            return f"<!-- duizhao:figure-candidate {safe} -->"
        alt_md = markdown_text(alt, table=self.in_table, inline=True)
        alt_md = alt_md.replace("\\[", "(").replace("\\]", ")")
        return f"![{alt_md}]({link_target(url, title)})"

    def summarise_links(self) -> None:
        base = "give --base-url URL (where the original is published) to keep them as links"
        groups = [
            (self.unlinked.site_absolute, "site-absolute link", base),
            (self.unlinked.relative, "relative link", base),
            (self.unlinked.anchors, "link to an anchor of the original", "check them"),
        ]
        for found, what, fix in groups:
            if found:
                shown = ", ".join(f"{href} (line {line})" for line, href in found[:LINKS_SHOWN])
                more = f" and {len(found) - LINKS_SHOWN} more" if len(found) > LINKS_SHOWN else ""
                what = what if len(found) == 1 else what.replace("link", "links", 1)
                self.warn(
                    found[0][0], f"{len(found)} {what} kept as plain text: {shown}{more}; {fix}"
                )
