"""``<article>.figures.yml``: the spec dataclasses, and reading and checking a spec file. Pure."""

from __future__ import annotations

import math
import os
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..article import split_lines
from ..diagnostics import Diagnostic
from ..yamlsafe import (
    MAX_YAML_BYTES,
    InputError,
    inside,
    load_yaml,
    load_yaml_file,
    read_bytes,
    snippet,
)

SPEC_SUFFIX = ".figures.yml"
DEFAULT_DPI = 200
MAX_DPI = 1200
#: Largest figure number and page number a spec may name (numbers come from authors).
MAX_NUMBER = 100_000

_TOP_KEYS = ("source", "dpi", "figures")
_FIGURE_KEYS = ("id", "kind", "label", "page", "box", "caption", "alt", "source", "dpi")
#: What an entry can be: the paper's figures and its tables are numbered apart (Figure 2 and
#: Table 2 coexist), so an entry is known by its kind and number.
KINDS = ("figure", "table")
EXAMPLE = "- {id: 1, page: 3, box: [72, 96, 540, 380], caption: {en: Overview., zh: 总览。}}"


@dataclass(frozen=True)
class SourceRef:
    """A ``source:`` as written, where it points and the spec line that names it."""

    written: str
    path: Path
    line: int


def figure_key(kind: str, number: int) -> str:
    """How a placement names an entry: ``3`` for figure 3, ``table-2`` for table 2."""
    return str(number) if kind == "figure" else f"{kind}-{number}"


def _number(text: str) -> int | None:
    # ASCII digits only ("²".isdigit() is true, int("²") fails) and few of them (a 5,000-digit
    # placement must not reach int()).
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def parse_key(key: str) -> tuple[str, int] | None:
    """``3`` → (figure, 3); ``table-2`` → (table, 2); anything else → None."""
    if (n := _number(key)) is not None:
        return ("figure", n)
    kind, _, number = key.partition("-")
    if kind in KINDS and kind != "figure" and (n := _number(number)) is not None:
        return (kind, n)
    return None


def describe(key: str) -> str:
    """``3`` → "figure 3", ``table-2`` → "table 2" (for messages)."""
    parsed = parse_key(key)
    return (
        f"{parsed[0]} {parsed[1]}"
        if parsed
        else f"figure {key if len(key) <= 40 else key[:39] + '…'}"
    )


def anchor(key: str) -> str:
    """The HTML id of a placed entry: ``fig-3`` for figure 3 (the published contract),
    ``table-2`` for table 2."""
    return f"fig-{key}" if key.isdigit() else key


def label_zh(key: str) -> str:
    """``3`` → 图 3, ``table-2`` → 表 2."""
    parsed = parse_key(key)
    if parsed is not None and parsed[0] == "table":
        return f"表 {parsed[1]}"
    return f"图 {parsed[1] if parsed else key}"


@dataclass(frozen=True)
class FigureSpec:
    id: int
    line: int
    source: SourceRef
    page: int | None
    page_line: int
    box: tuple[float, float, float, float]
    box_line: int
    dpi: int
    #: the .figures.yml that declares it
    spec_path: Path
    caption_en: str = ""
    caption_zh: str = ""
    alt: str = ""
    kind: str = "figure"
    #: the label as the paper prints it ("Fig. 3", "TABLE II"); empty: "Figure 3", "Table 2"
    label: str = ""

    @property
    def key(self) -> str:
        return figure_key(self.kind, self.id)

    @property
    def anchor(self) -> str:
        return anchor(self.key)

    @property
    def label_zh(self) -> str:
        return label_zh(self.key)

    @property
    def label_en(self) -> str:
        return self.label or f"{self.kind.capitalize()} {self.id}"

    @property
    def alt_text(self) -> str:
        return self.alt or self.caption_zh or self.caption_en or self.label_zh


@dataclass
class Spec:
    """One ``.figures.yml``: the figures that parsed, and what was wrong with the rest."""

    path: Path
    figures: list[FigureSpec] = field(default_factory=list)
    #: every key declared (``3``, ``table-2``; also of entries with problems), with its line
    declared: dict[str, int] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: False when the file as a whole could not be read (its placements are then not checked)
    readable: bool = True


def spec_path(article_path: Path) -> Path:
    """``docs/x/foo.md`` → ``docs/x/foo.figures.yml``."""
    return article_path.with_name(article_path.stem + SPEC_SUFFIX)


def is_spec(src_uri: str, pages: Container[str]) -> bool:
    """Whether the docs file ``src_uri`` is a figures spec: ``x/foo.figures.yml`` beside a page
    ``x/foo.md`` (of ``pages``, docs-relative). A build source, never published; a
    ``*.figures.yml`` with no page beside it is the site's own file and is published as is."""
    stem = src_uri.removesuffix(SPEC_SUFFIX)
    return stem != src_uri and f"{stem}.md" in pages


class SpecError(Exception):
    def __init__(self, line: int, code: str, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.code = code
        self.message = message


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut for a message (an author's value may be a megabyte long)."""
    try:
        text = repr(value)
    except ValueError:  # an int over Python's int/str conversion limit
        return "a number too long to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _plain(node: yaml.Node) -> Any:
    # Only nodes of a document load_yaml has already constructed once: no error is left.
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


def _mapping(node: yaml.Node, what: str, keys: Sequence[str]) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        raise SpecError(_line(node), "DZ105", f"{what} must be a mapping of 'key: value' pairs")
    found: dict[str, yaml.Node] = {}
    for key, value in node.value:
        name = str(_plain(key))
        if name not in keys:
            raise SpecError(
                _line(key),
                "DZ105",
                f"unknown key {name!r} in {what}; expected one of {', '.join(keys)}",
            )
        found[name] = value
    return found


def _int(node: yaml.Node, what: str, example: str, low: int = 1, high: int | None = None) -> int:
    value = _plain(node)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(
            _line(node),
            "DZ105",
            f"{what} must be a whole number, got {_short(value)}; write {example!r}",
        )
    if value < low or (high is not None and value > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise SpecError(
            _line(node), "DZ105", f"{what} {_short(value)} must be {bound}; write {example!r}"
        )
    return value


def _str(node: yaml.Node, what: str, example: str) -> str:
    value = _plain(node)
    if not isinstance(value, str) or not value.strip():
        raise SpecError(
            _line(node), "DZ105", f"{what} must be text, got {value!r}; write {example!r}"
        )
    return value.strip()


def _box(node: yaml.Node) -> tuple[float, float, float, float]:
    value = _plain(node)
    if (
        not isinstance(value, list)
        or len(value) != 4
        or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value)
    ):
        raise SpecError(
            _line(node),
            "DZ105",
            f"box must be four numbers [x0, y0, x1, y1], got {_short(value)}; "
            "write 'box: [72, 96, 540, 380]'",
        )
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except OverflowError:  # an integer of hundreds of digits
        x0 = y0 = x1 = y1 = math.inf
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        raise SpecError(
            _line(node),
            "DZ109",
            f"box {_short(value)} must be four finite numbers (no .nan, .inf or huge values); "
            "write 'box: [72, 96, 540, 380]'",
        )
    if x1 < x0 or y1 < y0:
        raise SpecError(
            _line(node),
            "DZ109",
            f"box {value!r} is inverted: x1 and y1 must be larger than x0 and y0 "
            f"(from the top-left); write 'box: [{min(x0, x1):g}, {min(y0, y1):g}, "
            f"{max(x0, x1):g}, {max(y0, y1):g}]'",
        )
    if x1 == x0 or y1 == y0:
        raise SpecError(
            _line(node),
            "DZ109",
            f"box {value!r} is empty; give the figure a width and a height, as in "
            "'box: [72, 96, 540, 380]'",
        )
    return x0, y0, x1, y1


def _caption(node: yaml.Node) -> tuple[str, str]:
    fields = _mapping(node, "caption", ("en", "zh"))
    # An empty caption is one still to be written (`duizhao figures detect` leaves zh empty).
    en = _text(fields["en"], "caption.en", "en: Overview.") if "en" in fields else ""
    zh = _text(fields["zh"], "caption.zh", "zh: 总览。") if "zh" in fields else ""
    return en, zh


def _text(node: yaml.Node, what: str, example: str) -> str:
    """Text that may be empty (``""`` or nothing after the colon)."""
    value = _plain(node)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise SpecError(
            _line(node), "DZ105", f"{what} must be text, got {value!r}; write {example!r}"
        )
    return value.strip()


def _source(node: yaml.Node, spec_file: Path, root: Path) -> SourceRef:
    written = _str(node, "source", "source: ../../papers/paper.pdf")
    resolved = Path(os.path.realpath(spec_file.parent / written))
    if not resolved.is_relative_to(root):
        raise SpecError(
            _line(node),
            "DZ107",
            f"source {written!r} is outside the project root {str(root)!r}; keep the paper "
            "inside the project, as in 'source: ../../papers/paper.pdf'",
        )
    if not resolved.is_file():
        raise SpecError(
            _line(node),
            "DZ106",
            f"source {written!r} does not exist (looked for {str(resolved)!r}); "
            "paths are relative to the .figures.yml file",
        )
    return SourceRef(written, resolved, _line(node))


def load_spec(path: Path, root: Path) -> Spec:
    """Read and validate one spec file; sources resolve relative to it and stay under ``root``."""
    root = Path(os.path.realpath(root))
    spec = Spec(path=path)

    def problem(p: SpecError, fatal: bool = True) -> None:
        spec.diagnostics.append(Diagnostic(path, p.line, p.code, p.message))
        spec.readable = spec.readable and not fatal

    if not inside(path, root):
        # A spec that is a symlink out of the project: refused unread (nothing is quoted).
        problem(
            SpecError(
                1,
                "DZ018",
                "refused: the figure spec resolves (through a symlink) outside the project; "
                "left out unread",
            )
        )
        return spec
    try:
        text = read_bytes(path, MAX_YAML_BYTES).decode("utf-8-sig")  # regular, bounded
    except (OSError, InputError) as exc:
        reason = exc.message if isinstance(exc, InputError) else (exc.strerror or str(exc))
        problem(SpecError(1, "DZ105", f"cannot read figure spec: {reason}"))
        return spec
    except UnicodeDecodeError as exc:
        problem(SpecError(1, "DZ105", f"figure spec is not UTF-8 ({exc.reason}); save it as UTF-8"))
        return spec
    try:
        # The one bounded loader: depth, aliases and construction errors are checked here.
        _data, node = load_yaml(text)
    except InputError as exc:
        lines = split_lines(text)
        quoted = snippet(lines[exc.line - 1]) if 0 < exc.line <= len(lines) else ""
        problem(
            SpecError(
                exc.line,
                "DZ105",
                f"unreadable figure spec: {exc.message} in {quoted!r}; "
                f"write YAML such as 'figures:' then '  {EXAMPLE}'",
            )
        )
        return spec
    if node is None:
        problem(SpecError(1, "DZ105", f"figure spec is empty; add 'figures:' then '  {EXAMPLE}'"))
        return spec
    try:
        top = _mapping(node, "the figure spec", _TOP_KEYS)
        if "figures" not in top:
            raise SpecError(1, "DZ105", f"figure spec has no 'figures:' list; add '  {EXAMPLE}'")
        dpi = _int(top["dpi"], "dpi", "dpi: 200", 1, MAX_DPI) if "dpi" in top else DEFAULT_DPI
        entries = top["figures"]
        if not isinstance(entries, yaml.SequenceNode):
            raise SpecError(
                _line(entries), "DZ105", f"'figures:' must be a list of entries such as {EXAMPLE}"
            )
    except SpecError as p:
        problem(p)
        return spec
    default: SourceRef | SpecError | None = None
    if "source" in top:
        try:
            default = _source(top["source"], path, root)
        except SpecError as p:
            problem(p, fatal=False)
            default = p
    for entry in entries.value:
        try:
            figure = _figure(entry, spec, default, dpi, root)
        except SpecError as p:
            problem(p, fatal=False)
            continue
        if figure is not None:
            spec.figures.append(figure)
    return spec


def _figure(
    entry: yaml.Node, spec: Spec, default: SourceRef | SpecError | None, dpi: int, root: Path
) -> FigureSpec | None:
    if isinstance(entry, yaml.MappingNode):
        # Declare the id before anything else in the entry can fail, so that its placement is
        # not reported as unknown as well.
        plain = {str(_plain(k)): _plain(v) for k, v in entry.value}
        fid, kind = plain.get("id"), plain.get("kind", "figure")
        if (
            isinstance(fid, int)
            and not isinstance(fid, bool)
            and 1 <= fid <= MAX_NUMBER
            and kind in KINDS
        ):
            for key, value in entry.value:
                if _plain(key) == "id":
                    spec.declared.setdefault(figure_key(str(kind), fid), _line(value))
    fields = _mapping(entry, "a figure entry", _FIGURE_KEYS)
    if "id" not in fields:
        raise SpecError(_line(entry), "DZ105", f"figure entry has no id; write it as {EXAMPLE}")
    kind = "figure"
    if "kind" in fields:
        kind = _str(fields["kind"], "kind", "kind: table")
        if kind not in KINDS:
            raise SpecError(
                _line(fields["kind"]),
                "DZ105",
                f"kind {kind!r} is unknown; write 'kind: table' for a table (figures need no kind)",
            )
    fid = _int(fields["id"], f"{kind} id", "id: 3", 1, MAX_NUMBER)
    line = _line(fields["id"])
    key = figure_key(kind, fid)
    if spec.declared.get(key, line) != line:
        raise SpecError(
            line,
            "DZ112",
            f"{kind} {fid} is declared twice (first at line {spec.declared[key]}); "
            f"give each of the paper's {kind}s one entry",
        )
    spec.declared[key] = line
    label = _str(fields["label"], "label", "label: Fig. 3") if "label" in fields else ""
    if "source" in fields:
        source = _source(fields["source"], spec.path, root)
    elif isinstance(default, SourceRef):
        source = default
    elif isinstance(default, SpecError):
        return None  # already reported at the top-level 'source:'
    else:
        raise SpecError(
            line,
            "DZ105",
            f"{kind} {fid} has no source; add 'source: ../../papers/paper.pdf' at the top "
            "or to the entry",
        )
    if "box" not in fields:
        raise SpecError(
            line, "DZ105", f"{kind} {fid} has no box; add 'box: [x0, y0, x1, y1]' to the entry"
        )
    box = _box(fields["box"])
    page = _int(fields["page"], "page", "page: 3", 1, MAX_NUMBER) if "page" in fields else None
    fig_dpi = _int(fields["dpi"], "dpi", "dpi: 200", 1, MAX_DPI) if "dpi" in fields else dpi
    en, zh = _caption(fields["caption"]) if "caption" in fields else ("", "")
    alt = _str(fields["alt"], "alt", "alt: 组件与数据流") if "alt" in fields else ""
    return FigureSpec(
        id=fid,
        line=line,
        source=source,
        page=page,
        page_line=_line(fields["page"]) if "page" in fields else line,
        box=box,
        box_line=_line(fields["box"]),
        dpi=fig_dpi,
        spec_path=spec.path,
        caption_en=en,
        caption_zh=zh,
        alt=alt,
        kind=kind,
        label=label,
    )


def untranslated_captions(path: Path) -> int:
    """How many entries of a spec file have an English caption and no Chinese one.

    Lenient (entries that fail the checks still count): it feeds ``duizhao status``, which
    reports progress, not problems.
    """
    try:
        data, _node = load_yaml_file(path)
    except (OSError, InputError):
        return 0
    entries = data.get("figures") if isinstance(data, dict) else None
    count = 0
    for entry in entries if isinstance(entries, list) else []:
        caption = entry.get("caption") if isinstance(entry, dict) else None
        if isinstance(caption, dict) and caption.get("en") and not caption.get("zh"):
            count += 1
    return count
