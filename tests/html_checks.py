"""What a browser makes of built HTML, for assertions that string matching would miss."""

from __future__ import annotations

from html.parser import HTMLParser

#: Start tags that close an open <p> (WHATWG HTML, "in body" insertion mode): a <p> written
#: around one of them is split by every browser into an empty <p> and a stray </p>.
# fmt: off
CLOSES_P = frozenset((
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
    "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
    "h6", "header", "hgroup", "hr", "listing", "main", "menu", "nav", "ol", "p", "pre",
    "search", "section", "summary", "table", "ul", "xmp",
))
# fmt: on


class EmptyParagraphs(HTMLParser):
    """Counts the empty or whitespace-only <p> elements a browser builds from some HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open = False
        self.text = ""
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in CLOSES_P and self.open:
            self._close(f"<p> closed by <{tag}>")
        if tag == "p":
            self.open, self.text = True, ""
        elif self.open and tag in ("img", "svg", "br", "input", "iframe", "video", "math"):
            self.text += "#"  # content without text

    def handle_endtag(self, tag: str) -> None:
        if tag != "p":
            return
        if self.open:
            self._close("<p></p>")
        else:
            self.found.append("</p> without <p> (a browser makes an empty <p>)")

    def handle_data(self, data: str) -> None:
        if self.open:
            self.text += data

    def _close(self, what: str) -> None:
        if not self.text.strip():
            self.found.append(f"{what} at line {self.getpos()[0]}")
        self.open = False


def empty_paragraphs(html: str) -> list[str]:
    parser = EmptyParagraphs()
    parser.feed(html)
    parser.close()
    return parser.found
