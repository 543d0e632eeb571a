"""Small pieces of text handling shared by the importer's modules."""

from __future__ import annotations


def excerpt(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters with "…"."""
    flat = " ".join(text[: limit * 4].split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


#: What the importer writes that a reader does not see as words: emphasis marks, escapes,
#: non-breaking spaces written as references.
_INVISIBLE = set("*_~\\ \t\n\u00a0\u200b")
_INVISIBLE_REFERENCES = ("&nbsp;", "&#160;", "&#xa0;", "&#8203;", "&emsp;", "&ensp;", "&thinsp;")


def has_words(markdown: str) -> bool:
    """Whether Markdown the importer wrote shows anything: text, code, math or a picture
    (``<br>``, an empty ``<p></p>``, ``&nbsp;`` and emphasis marks alone show nothing).

    Tags are skipped by a scan (the importer's tags hold no ``>`` in their attributes)."""
    if "<img" in markdown or "![" in markdown:
        return True
    for reference in _INVISIBLE_REFERENCES:
        markdown = markdown.replace(reference, " ")
    in_tag = False
    for ch in markdown:
        if in_tag:
            in_tag = ch != ">"
        elif ch == "<":
            in_tag = True
        elif ch not in _INVISIBLE:
            return True
    return False
