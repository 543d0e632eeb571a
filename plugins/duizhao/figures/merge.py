"""Detected figures as ``<article>.figures.yml`` entries, and merging them into a spec. Pure.

A merge only adds: an entry the spec already has (same kind and number) is kept as the author
left it, however it differs from what was detected; the differences are reported instead.
New entries go after the last one, in the list's own indentation; the rest of the file (its
comments, order and layout) is left byte for byte.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..source import lines_with_ends
from ..yamlsafe import InputError, load_yaml
from .detect import DetectedFigure
from .spec import figure_key

#: Box coordinates closer than this (points) count as the same.
BOX_TOLERANCE = 2.0


def entry_lines(found: DetectedFigure, source: str | None = None, indent: str = "  ") -> list[str]:
    """One spec entry: ``- id: 3`` and its keys (``source:`` only when given)."""
    box = ", ".join(f"{v:g}" for v in found.box)
    lines = [f"{indent}- id: {found.number}"]
    inner = indent + "  "
    if found.kind != "figure":
        lines.append(f"{inner}kind: {found.kind}")
    lines.append(f"{inner}label: {_quoted(found.label)}")
    if source is not None:
        lines.append(f"{inner}source: {_quoted(source)}")
    lines += [
        f"{inner}page: {found.page}",
        f"{inner}box: [{box}]",
        f"{inner}caption:",
        f"{inner}  en: {_quoted(found.caption)}",
        f'{inner}  zh: ""',
    ]
    return lines


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(text, ensure_ascii=False)


def spec_text(found: Sequence[DetectedFigure], source: str, paper: str) -> str:
    """A whole new spec file."""
    lines = [
        f"# Detected by 'duizhao figures detect {paper}'; check the boxes with --review,",
        "# then translate each caption's zh.",
        f"source: {_quoted(source)}",
        "figures:",
    ]
    for f in by_number(found):
        lines += entry_lines(f)
    return "\n".join(lines) + "\n"


def keyed(found: Sequence[DetectedFigure]) -> tuple[list[DetectedFigure], list[DetectedFigure]]:
    """The floats a spec can hold, one per kind and number (the first in reading order), and
    the others: an appendix's "Figure B.1" has the number of "Figure 1", and a spec's ``id``
    is a number."""
    kept: list[DetectedFigure] = []
    others: list[DetectedFigure] = []
    seen: set[str] = set()
    for f in found:
        key = figure_key(f.kind, f.number)
        (others if key in seen else kept).append(f)
        seen.add(key)
    return kept, others


def by_number(found: Sequence[DetectedFigure]) -> list[DetectedFigure]:
    """Figures, then tables, each by number: the order an author looks them up in."""
    return sorted(found, key=lambda f: (f.kind != "figure", f.kind, f.number))


@dataclass
class Merge:
    """What merging detected figures into a spec did."""

    text: str
    added: list[DetectedFigure] = field(default_factory=list)
    #: (detected figure, what differs from the spec's entry, which was kept)
    differences: list[tuple[DetectedFigure, str]] = field(default_factory=list)


class MergeError(Exception):
    """The spec cannot be merged into (unreadable, or not a mapping with a 'figures' list)."""


def merge(text: str, spec_file: Path, paper: Path, found: Sequence[DetectedFigure]) -> Merge:
    """Add the figures of ``found`` that ``text`` (the spec at ``spec_file``) lacks."""
    try:
        data, root = load_yaml(text)  # the one bounded loader
    except InputError as exc:
        raise MergeError(f"the spec is not valid YAML (line {exc.line}: {exc.message})") from None
    if root is None:
        return Merge(spec_text(found, _relative(paper, spec_file), paper.name), list(found))
    if not isinstance(root, yaml.MappingNode):
        raise MergeError("the spec is not a mapping of 'source:', 'figures:' …")
    top = {str(k.value): v for k, v in root.value}
    data = data or {}
    default = data.get("source") if isinstance(data, dict) else None
    same_source = isinstance(default, str) and _same(spec_file.parent / default, paper)
    existing: dict[str, dict[str, Any]] = {}
    entries = data.get("figures") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("id"), int):
            kind = entry.get("kind", "figure")
            existing[figure_key(str(kind), entry["id"])] = entry
    result = Merge(text)
    for f in by_number(found):
        key = figure_key(f.kind, f.number)
        if key in existing:
            diff = _difference(existing[key], f)
            if diff:
                result.differences.append((f, diff))
        else:
            result.added.append(f)
    if not result.added:
        return result
    source = None if same_source else _relative(paper, spec_file)
    newline = "\r\n" if "\r\n" in text else "\n"
    node = top.get("figures")
    if node is None:
        # No list yet: add one at the end (with the source, when the spec has none).
        lines = [] if default is not None else [f"source: {_quoted(_relative(paper, spec_file))}"]
        lines.append("figures:")
        for f in result.added:
            lines += entry_lines(f, None if default is None else source)
        body = text if text.endswith(("\n", "\r")) or not text else text + newline
        result.text = body + newline.join(lines) + newline
    elif isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        indent = " " * max(0, node.value[0].start_mark.column - 2)
        lines = []
        for f in result.added:
            lines += entry_lines(f, source, indent)
        end = node.end_mark
        all_lines = lines_with_ends(text)
        at = end.line if end.column == 0 else end.line + 1
        # After the list's last item, not after the blank lines and comments that follow it.
        while at - 1 > node.start_mark.line and not all_lines[at - 1].strip():
            at -= 1
        if at > 0 and not all_lines[at - 1].endswith(("\n", "\r")):
            all_lines[at - 1] += newline
        all_lines[at:at] = [line + newline for line in lines]
        result.text = "".join(all_lines)
    elif isinstance(node, yaml.SequenceNode) and not node.value:
        lines = []
        for f in result.added:
            lines += entry_lines(f, source)
        start, stop = node.start_mark.index, node.end_mark.index
        result.text = text[:start] + newline + newline.join(lines) + text[stop:]
        if not result.text.endswith(("\n", "\r")):
            result.text += newline
    else:
        raise MergeError(
            "its 'figures:' is not a block list ('- id: 1' items, one per line); "
            "write it as one to merge into it"
        )
    _verify(result, existing)
    return result


def _verify(result: Merge, existing: dict[str, Any]) -> None:
    """The merged text must parse, with every old entry and every added one."""
    try:
        data, _node = load_yaml(result.text)
    except InputError as exc:
        raise MergeError(
            f"merging would break the spec (line {exc.line}: {exc.message}); add the entries "
            "by hand"
        ) from None
    entries = data.get("figures") if isinstance(data, dict) else None
    if not isinstance(entries, list) or len(entries) != len(existing) + len(result.added):
        raise MergeError("merging would lose entries; add the entries by hand")


def _difference(entry: dict[str, Any], found: DetectedFigure) -> str:
    parts = []
    if entry.get("page") != found.page:
        parts.append(f"page {entry.get('page')} (detected {found.page})")
    box = entry.get("box")
    if not (
        isinstance(box, list)
        and len(box) == 4
        and all(isinstance(v, (int, float)) for v in box)
        and all(abs(float(a) - b) <= BOX_TOLERANCE for a, b in zip(box, found.box, strict=True))
    ):
        detected = ", ".join(f"{v:g}" for v in found.box)
        parts.append(f"box {box} (detected [{detected}])")
    caption = entry.get("caption")
    en = caption.get("en") if isinstance(caption, dict) else None
    if " ".join(str(en or "").split()) != found.caption:
        parts.append("caption.en")
    return "; ".join(parts)


def _same(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _relative(paper: Path, spec_file: Path) -> str:
    """The paper as a spec's ``source:`` names it: relative to the spec, with slashes."""
    rel = os.path.relpath(os.path.realpath(paper), os.path.realpath(spec_file.parent))
    return Path(rel).as_posix()
