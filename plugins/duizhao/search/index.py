"""The search index file as text: split into entries, completed, joined — without parsing it.

A search plugin writes ``{"config": …, "docs": [entry, …]}`` with each entry an object whose
first key is ``location`` (Material: location, title, text; MkDocs: sorted keys). An unescaped
``{"location":"`` can only open an entry (inside a JSON string a quote is escaped), so the
entries are found with ``str.find``, and each page's entries stay text from one build to the
next. On a site of 100 long articles the file is about 40 MB: parsing and writing it anew on
every `mkdocs serve` rebuild would cost more than the rebuild itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mkdocs.structure.files import Files, InclusionLevel

ENTRY_START = '{"location":"'
DOCS_START = '"docs":['
DOCS_END = "]}"


@dataclass(frozen=True)
class IndexText:
    """A search index file cut into what comes before the entries, the entries, and after."""

    head: str
    #: (page URL, the entry's JSON text), in file order
    entries: list[tuple[str, str]]
    tail: str

    def join(self, entries: Iterable[str]) -> str:
        parts = [self.head]
        for entry in entries:  # one join of the whole file (it is tens of MB)
            parts += (entry, ",")
        if len(parts) > 1:
            parts.pop()
        parts.append(self.tail)
        return "".join(parts)


def page_urls(files: Files) -> list[str]:
    """The URLs of the site's pages as ``Page.url`` writes them (the home page's is "", its
    file's "./")."""
    return [
        "" if f.url in (".", "./") else f.url
        for f in files.documentation_pages(inclusion=InclusionLevel.all)
    ]


def page_of(location: str) -> str:
    """The page URL of a search entry's location (``a/#P042`` → ``a/``)."""
    return location.partition("#")[0]


def split_index(text: str) -> IndexText | None:
    """Cut ``text``; None when it is not laid out as described above (then parse it)."""
    start = text.find(DOCS_START)
    if start < 0 or not text.endswith(DOCS_END):
        return None
    begin, end = start + len(DOCS_START), len(text) - len(DOCS_END)
    entries: list[tuple[str, str]] = []
    at = begin
    while at < end:
        if not text.startswith(ENTRY_START, at):
            return None
        after = text.find("," + ENTRY_START, at + 1)
        stop = end if after < 0 or after > end else after
        raw_end = text.find('"', at + len(ENTRY_START))
        while raw_end > 0 and text[raw_end - 1] == "\\":  # an escaped quote in the location
            raw_end = text.find('"', raw_end + 1)
        if raw_end < 0 or raw_end > stop:
            return None
        location = json.loads(text[at + len(ENTRY_START) - 1 : raw_end + 1])
        entries.append((page_of(location), text[at:stop]))
        at = stop + 1
    return IndexText(text[:begin], entries, text[end:])


def dump_entry(entry: Mapping[str, Any]) -> str:
    """One entry as the search plugins write theirs."""
    return json.dumps(entry, separators=(",", ":"), default=str)


def fresh_entries(entries: list[tuple[str, str]], first_page: str | None) -> list[tuple[str, str]]:
    """The entries a build added to an index that its plugin merged with the last one.

    Material's search plugin, under ``mkdocs serve --dirty``, writes the last index's entries
    that do not start with the location of this build's first entry, then this build's entries
    (``first_page``: the URL of the first page this build indexed, None if none). Other plugins
    write this build's entries alone; either way they start at the first entry of that page.
    """
    if first_page is None:
        return []
    # A page URL has no "#": a location starts with it exactly when its page does.
    for i, (page, _text) in enumerate(entries):
        if page.startswith(first_page):
            return entries[i:]
    return []
