"""The glossary as the translator writes it: ``glossary.yml`` next to ``mkdocs.yml``.

A list of entries ``{en: [forms…] or a string, zh: preferred, zh_allowed: [...],
zh_forbidden: [...], keep_en: false, case: false, first_use: "…", definition: "…", note: "…"}``;
only ``en`` and ``zh`` are required. Read through the one bounded YAML loader
(:mod:`duizhao.yamlsafe`); every problem is a :class:`~duizhao.diagnostics.Diagnostic` at the
entry's (or the value's) line, never an exception. ``note`` is the translator's: it is kept
for export and never shown to readers.

Pure: no MkDocs import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ...diagnostics import Diagnostic
from ...yamlsafe import InputError, load_yaml_file, snippet

GLOSSARY_NAME = "glossary.yml"
#: What an entry may hold (any other key is reported, in case it is a misspelling).
KEYS = (
    "en",
    "zh",
    "zh_allowed",
    "zh_forbidden",
    "keep_en",
    "case",
    "first_use",
    "definition",
    "note",
)
#: Longest form or rendering, in characters (a term is a few words).
MAX_TERM = 120
#: Longest definition or first_use (shown in a tooltip).
MAX_TEXT = 2000
_LATIN_RE = re.compile(r"[A-Za-z]")
_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Entry:
    """One term: its English forms, preferred and other renderings, and reader texts."""

    en: tuple[str, ...]
    zh: str
    line: int
    zh_allowed: tuple[str, ...] = ()
    zh_forbidden: tuple[str, ...] = ()
    keep_en: bool = False
    case: bool = False
    first_use: str = ""
    definition: str = ""
    note: str = ""

    @property
    def latin(self) -> bool:
        """The term stays in Latin letters in the translation (``keep_en`` or zh is English)."""
        return self.keep_en or (
            any(self.zh.casefold() == form.casefold() for form in self.en)
            and not _HAN_RE.search(self.zh)
        )

    @property
    def renderings(self) -> tuple[str, ...]:
        """Every rendering a translation may use (preferred first)."""
        return (self.zh, *self.zh_allowed)

    @property
    def key(self) -> str:
        return self.en[0]


@dataclass
class Glossary:
    path: Path | None = None
    entries: list[Entry] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def chinese_terms(self) -> list[str]:
        """The Chinese renderings (for jieba): a Han character at least, never a forbidden one."""
        seen: dict[str, None] = {}
        for entry in self.entries:
            for zh in entry.renderings:
                if _HAN_RE.search(zh):
                    seen.setdefault(zh, None)
        return list(seen)


def glossary_path(root: Path) -> Path:
    return root / GLOSSARY_NAME


def read_glossary(path: Path) -> tuple[Glossary, list[Diagnostic]]:
    """The glossary at ``path`` (empty when there is none) and its problems."""
    if not path.exists() and not path.is_symlink():
        return Glossary(path), []
    try:
        data, node = load_yaml_file(path)
    except InputError as exc:
        return Glossary(path), [Diagnostic(path, exc.line, "DZ440", f"unreadable: {exc}")]
    return parse_glossary(data, node, path)


def parse_glossary(
    data: Any, node: yaml.Node | None, path: Path
) -> tuple[Glossary, list[Diagnostic]]:
    """Entries of a loaded document; each bad entry is reported and left out."""
    glossary = Glossary(path)
    if data is None:
        return glossary, []
    if not isinstance(data, list) or not isinstance(node, yaml.SequenceNode):
        line = node.start_mark.line + 1 if node is not None else 1
        what = type(data).__name__ if not isinstance(data, dict) else "a mapping"
        return glossary, [
            Diagnostic(
                path,
                line,
                "DZ440",
                f"the glossary must be a list of entries ('- en: … / zh: …'), not {what}",
            )
        ]
    diagnostics: list[Diagnostic] = []
    owners: dict[tuple[str, bool], Entry] = {}
    for item, item_node in zip(data, node.value, strict=True):
        entry = _entry(item, item_node, path, diagnostics)
        if entry is None:
            continue
        for form in entry.en:
            key = (form if entry.case else form.casefold(), entry.case)
            first = owners.get(key)
            if first is not None:
                diagnostics.append(
                    Diagnostic(
                        path,
                        entry.line,
                        "DZ442",
                        f"the English form {form!r} is already the term of the entry at "
                        f"line {first.line}; keep one entry per term",
                    )
                )
            else:
                owners[key] = entry
        glossary.entries.append(entry)
    return glossary, diagnostics


def _entry(item: Any, node: yaml.Node, path: Path, diagnostics: list[Diagnostic]) -> Entry | None:
    line = node.start_mark.line + 1

    def bad(message: str, at: int = line) -> None:
        diagnostics.append(Diagnostic(path, at, "DZ441", message))

    if not isinstance(item, dict) or not isinstance(node, yaml.MappingNode):
        bad(f"a glossary entry must be a mapping with 'en' and 'zh', not {snippet(str(item))!r}")
        return None
    lines = {
        k.value: k.start_mark.line + 1 for k, _v in node.value if isinstance(k, yaml.ScalarNode)
    }
    for key in item:
        if key not in KEYS:
            known = ", ".join(KEYS)
            diagnostics.append(
                Diagnostic(
                    path,
                    lines.get(str(key), line),
                    "DZ443",
                    f"unknown key {snippet(str(key))!r} in a glossary entry (known: {known})",
                )
            )
    for required in ("en", "zh"):
        if item.get(required) in (None, "", []):
            bad(f"the entry has no {required!r}: every entry needs 'en' and 'zh'")
            return None
    ok = True

    def strings(key: str, *, limit: int = MAX_TERM) -> tuple[str, ...]:
        nonlocal ok
        value = item.get(key)
        if value is None:
            return ()
        values = [value] if isinstance(value, (str, int, float)) else value
        if not isinstance(values, list) or not all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values
        ):
            bad(f"{key!r} must be a text or a list of texts", lines.get(key, line))
            ok = False
            return ()
        out = tuple(dict.fromkeys(" ".join(str(v).split()) for v in values if str(v).strip()))
        for v in out:
            if len(v) > limit:
                bad(f"{key!r}: {snippet(v)!r} is longer than {limit} characters", lines[key])
                ok = False
        return out

    def flag(key: str) -> bool:
        nonlocal ok
        value = item.get(key, False)
        if not isinstance(value, bool):
            bad(f"{key!r} must be true or false, not {snippet(str(value))!r}", lines[key])
            ok = False
            return False
        return value

    def text(key: str) -> str:
        values = strings(key, limit=MAX_TEXT)
        if len(values) > 1:
            bad(f"{key!r} must be one text, not a list", lines[key])
        return values[0] if values else ""

    en = strings("en")
    zh_values = strings("zh")
    if len(zh_values) > 1:
        bad("'zh' is the one preferred rendering; put the others in 'zh_allowed'", lines["zh"])
        ok = False
    for form in en:
        if not _LATIN_RE.search(form):
            bad(f"the English form {form!r} has no Latin letter", lines["en"])
            ok = False
    entry = Entry(
        en=en,
        zh=zh_values[0] if zh_values else "",
        line=line,
        zh_allowed=strings("zh_allowed"),
        zh_forbidden=strings("zh_forbidden"),
        keep_en=flag("keep_en"),
        case=flag("case"),
        first_use=text("first_use"),
        definition=text("definition"),
        note=text("note"),
    )
    clash = set(entry.renderings) & set(entry.zh_forbidden)
    if clash:
        bad(
            f"{sorted(clash)[0]!r} is both an allowed and a forbidden rendering",
            lines["zh_forbidden"],
        )
        ok = False
    return entry if ok and en and entry.zh else None
