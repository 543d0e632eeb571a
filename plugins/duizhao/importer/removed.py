"""Where ``duizhao update`` puts the blocks whose paragraph the new version no longer has.

Beside the article, as its figures spec is: ``docs/x/foo.md`` → ``docs/x/foo.removed.yml``. A
translation is never deleted: the whole block, as it was in the article (original, translation,
notes inside it), goes into this file with its old ID, the versions and its accepted digest.
The file is a source, never published: the plugin leaves it out of the site (and so of the
search index), as it leaves out ``*.figures.yml``; no Markdown scanner reads it. Pure.

::

    # Paragraphs that 'duizhao update' took out of foo.md … (a header that says what to do)
    removed:
    - id: P057
      was_in: v5
      removed_in: v6
      accepted: 3f0c2a9d41e7b6c5
      block: |
        /// paragraph | P057
        > The original …

        译文 …
        ///

An update appends its entries at the end; the rest of the file stays byte for byte (the author
may delete entries once dealt with).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from ..sidecars import REMOVED_SUFFIX, removed_path
from ..yamlsafe import InputError, load_yaml

__all__ = [
    "REMOVED_SUFFIX",
    "RemovedBlock",
    "RemovedError",
    "append",
    "read_entries",
    "removed_path",
]


@dataclass(frozen=True)
class RemovedBlock:
    id: str
    #: the block as it was in the article, from its opening line to its closing ``///``
    block: str
    was_in: str | None = None
    removed_in: str | None = None
    accepted: str | None = None

    def to_yaml(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.id}
        for name in ("was_in", "removed_in", "accepted"):
            value = getattr(self, name)
            if value is not None:
                entry[name] = value
        entry["block"] = self.block
        return entry


class RemovedError(Exception):
    """The file cannot take more entries (the message says why and what to do)."""


def _header(article_name: str) -> str:
    return (
        f"# Paragraphs that 'duizhao update' took out of {article_name}: the new version of\n"
        "# its original no longer has them. Each keeps its block as it was (original and\n"
        "# translation). Readers never see this file. To bring one back, copy its block into\n"
        f"# {article_name} and run 'duizhao renumber'; delete entries you no longer need.\n"
        "removed:\n"
    )


class _Dumper(yaml.SafeDumper):
    """Multi-line text as literal blocks (``|``), which read as the article did."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def entry_text(blocks: Sequence[RemovedBlock]) -> str:
    """The YAML list items for ``blocks`` (each text round-trips exactly: PyYAML falls back to
    a quoted scalar for text a literal block cannot hold, such as trailing spaces)."""
    data = [b.to_yaml() for b in blocks]
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10_000)


def read_entries(text: str) -> list[Any]:
    """The entries of a removed-blocks file; :class:`RemovedError` when it is not one."""
    try:
        data, _node = load_yaml(text)
    except InputError as exc:
        raise RemovedError(f"not valid YAML (line {exc.line}: {exc.message})") from None
    if data is None:
        return []
    entries = data.get("removed") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(entries, (list, type(None))):
        raise RemovedError("expected 'removed:' followed by a list of entries")
    return entries or []


def append(text: str, article_name: str, blocks: Sequence[RemovedBlock]) -> str:
    """``text`` (the file as it is, "" when there is none) with ``blocks`` added at its end."""
    existing = read_entries(text)
    if not text.strip():
        text = _header(article_name)
    elif not text.endswith(("\n", "\r")):
        text += "\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    added = entry_text(blocks)
    result = text + (added.replace("\n", newline) if newline != "\n" else added)
    entries = read_entries(result)
    expected = existing + [b.to_yaml() for b in blocks]
    if entries != expected:
        raise RemovedError(
            "adding the removed blocks at its end would not keep every entry; keep 'removed:' "
            "as the file's last key, its items as '- id: …' at the start of the line"
        )
    return result
