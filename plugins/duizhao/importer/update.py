"""``duizhao update``: bring a translated article to a new version of its original.

:func:`plan_update` aligns the article's paragraphs with the new version's
(:mod:`.align`), composes the article the new version makes (:mod:`.compose`), renumbers it
with ``duizhao renumber``'s planner (so the IDs follow the new version and every link across the
docs tree follows them), and plans the lock, the removed blocks' file and the figures spec.
Nothing is written here: the plan holds the new bytes of every file that changes, or refusals.

What each fate does: *same* and *moved* blocks keep their translation and its acceptance;
*edited*, *rewritten*, *split* and *merged* blocks get the new original and keep their
translation, which is stale until accepted (the lock keeps the digest it was accepted with, and
the original it was made for, for the word diff); *new* paragraphs come as blocks to translate;
*removed* blocks go, whole, to ``<article>.removed.yml``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..article import PARAGRAPH_ID_RE, Article, Paragraph, parse
from ..diagnostics import Diagnostic, display_path
from ..lock import Lock, digest
from ..renumber import load_doc, unified_diff
from ..renumber import plan as renumber_plan
from ..siteurls import SiteUrls
from ..source import SourceFile, lines_with_ends
from ..yamlsafe import MAX_TEXT_BYTES, InputError, load_yaml, read_bytes
from .align import FATES, THRESHOLDS, Alignment, Thresholds, align
from .compose import Carry, Composer, HeadingChange
from .model import Chunk, Original
from .removed import RemovedBlock, RemovedError, append, removed_path

#: Problems of the article that make its blocks' extent or front matter uncertain.
_BLOCKING = ("DZ007", "DZ010", "DZ011")
#: Fates that give a translated block a new original to review.
_STALE = ("edited", "rewritten", "split", "merged")


@dataclass(frozen=True)
class Row:
    """One line of the plan: what became of old paragraphs (IDs before the update) in the new
    version (IDs after it)."""

    fate: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    score: float
    #: a translation is carried (or, for a removed block, kept in the removed file)
    translated: bool
    #: the alignment's evidence, when it is of a kind the fate and score do not tell
    why: str = ""


@dataclass(frozen=True)
class FigureUpdate:
    """The new version's figures, detected, for the article's ``.figures.yml``."""

    spec_file: Path
    paper: Path
    found: Sequence[Any]


@dataclass
class UpdatePlan:
    old_count: int = 0
    new_count: int = 0
    rows: list[Row] = field(default_factory=list)
    #: path → (old bytes, new bytes) for each file that changes
    changes: dict[Path, tuple[bytes, bytes]] = field(default_factory=dict)
    refusals: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    #: what else the author should know (figures kept as written, …)
    notes: list[str] = field(default_factory=list)
    #: every old ID → its ID in the new version (None: removed)
    mapping: dict[str, str | None] = field(default_factory=dict)
    removed_file: Path | None = None
    links: int = 0
    #: headings of the article that follow the new version's (they were still its original's)
    headings: list[HeadingChange] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = dict.fromkeys(FATES, 0)
        for row in self.rows:
            if row.fate in found:
                found[row.fate] += 1
        return found

    def summary(self) -> str:
        """``129 → 131 paragraphs: 118 same, 7 edited, …`` (fates that happened, in order)."""
        parts = [f"{n} {fate}" for fate, n in self.counts().items() if n]
        kept = sum(row.fate == "kept" for row in self.rows)
        if kept:
            parts.append(f"{kept} without an original kept")
        return f"{self.old_count} → {self.new_count} paragraphs: " + (", ".join(parts) or "none")

    def table(self) -> str:
        """One line per paragraph that does not stay as it was: its fate and what it does."""
        lines = []
        same = 0
        for row in self.rows:
            if row.fate == "same" and row.old == row.new:
                same += 1
                continue
            old = "+".join(row.old) or "-"
            new = "+".join(row.new) or "-"
            score = f"{row.score:.2f}" if row.fate in _STALE else ""
            why = f" ({row.why})" if row.why else ""
            lines.append(f"{old:<11} {new:<11} {row.fate:<9} {score:>4}  {_effect(row, self)}{why}")
        for h in self.headings:
            lines.append(f"heading at line {h.line}: {h.old!r} → {h.new!r}")
        if same:
            lines.append(f"({same} paragraph{'s' * (same != 1)} the same, with the same ID)")
        return "\n".join(lines) + "\n" if lines else ""

    def diff(self, base: str | None = None) -> str:
        return unified_diff(self.changes, base)


def _effect(row: Row, plan: UpdatePlan) -> str:
    if row.fate == "kept":
        return "no original to align: kept where it is"
    if row.fate == "new":
        return "new: to translate"
    if row.fate == "removed":
        where = display_path(plan.removed_file) if plan.removed_file else "the removed file"
        return f"removed: block moved to {where}"
    if row.fate in ("same", "moved"):
        return "translation kept" if row.translated else "to translate"
    if not row.translated:
        return "new original; to translate"
    if row.fate == "split":
        return f"translation kept in {row.new[0]}, stale; {row.new[1]} to translate"
    if row.fate == "merged":
        return "translations joined, stale"
    return "translation kept, stale"


# --------------------------------------------------------------------------------------------
# The plan


@dataclass
class _Context:
    article_path: Path
    article: Article
    source: SourceFile
    lock: Lock
    key: str
    plan: UpdatePlan
    #: the article's accepted digests before the update (kept with the removed blocks)
    accepted: dict[str, str]


def _refuse(plan: UpdatePlan, path: Path, line: int, message: str) -> UpdatePlan:
    plan.refusals.append(Diagnostic(path, line, "DZ304", message))
    return plan


def plan_update(
    article_path: Path,
    original: Original,
    *,
    docs_dir: Path,
    files: list[Path],
    lock: Lock,
    lock_path: Path,
    key: str,
    root: Path,
    version: str | None = None,
    figures: FigureUpdate | None = None,
    thresholds: Thresholds = THRESHOLDS,
    urls: SiteUrls | None = None,
) -> UpdatePlan:
    """Plan bringing ``article_path`` to the new version ``original`` (see the module
    docstring). ``lock`` is changed in place (the caller writes the plan's bytes, not it)."""
    plan = UpdatePlan()
    doc = load_doc(article_path, root, plan.refusals)
    if doc is None:
        return plan
    article = doc.article
    blocking = [d for d in article.diagnostics if d.code in _BLOCKING]
    if blocking:
        plan.refusals.extend(blocking)
        return plan
    seen: dict[str, int] = {}
    for p in article.paragraphs:
        if p.is_well_formed and p.id in seen:
            return _refuse(
                plan,
                article.path,
                p.line,
                f"{p.id} is the ID of two blocks (lines {seen[p.id]} and {p.line}); make the "
                f"IDs unique first with 'duizhao renumber {display_path(article.path)} --write'",
            )
        seen[p.id] = p.line
    units = [c for c in original.chunks if c.is_numbered]
    if not units:
        return _refuse(plan, article.path, 1, "the new original has no paragraph to align with")
    paragraphs = article.paragraphs
    alignment = align([p.original for p in paragraphs], [c.text for c in units], thresholds)
    plan.old_count, plan.new_count = len(paragraphs), len(units)
    accepted = dict(lock.articles.get(key, {}))
    ctx = _Context(article_path, article, doc.source, lock, key, plan, accepted)
    kept = {i for i, p in enumerate(paragraphs) if not p.original.strip()}
    carried = [m for m in alignment.matches if m.old and m.new]
    translated = [p for i, p in enumerate(paragraphs) if i not in kept and not p.is_todo]
    if translated and not carried:
        # Nothing is lost (every block goes to the removed file), but it may be the wrong file.
        plan.warnings.append(
            Diagnostic(
                article.path,
                paragraphs[0].line,
                "DZ306",
                f"none of its {len(paragraphs) - len(kept)} paragraphs is in the new original: "
                "every block goes to the removed file; is it the right file?",
            )
        )

    holders, leaving, absorbed, removed = _carry(ctx, alignment, units, kept)
    composer = Composer(doc.source, article, original.chunks, holders, leaving)
    lines = composer.compose()
    plan.headings = composer.renamed
    text = "".join(lines)
    text = _footnotes(text, original, holders, units, doc.source.newline)
    old_version = article.paper.get("version")
    if version is not None and version != old_version:
        edited = _set_version(text, article, version)
        if edited is None:
            line = article.meta_lines.get("paper", 1)
            return _refuse(
                plan,
                article.path,
                line,
                "cannot write 'paper: version:' in the front matter: write 'paper:' as a block "
                "mapping ('paper:' on its own line, its keys indented below it)",
            )
        text = edited
    composed = (("\ufeff" if doc.source.bom else "") + text).encode("utf-8")

    rplan = renumber_plan(
        article_path,
        docs_dir,
        files,
        lock,
        lock_path,
        key,
        root=root,
        edited=composed,
        absorbed=absorbed,
        urls=urls,
    )
    if rplan.refusals:
        plan.refusals.extend(rplan.refusals)
        return plan
    target = article_path.resolve()
    final = composed
    for path, (old, new) in rplan.changes.items():
        if path.resolve() == target:
            final = new
        elif path != lock_path:
            plan.changes[path] = (old, new)
    if final != doc.data:
        plan.changes[article_path] = (doc.data, final)
    plan.links = rplan.references
    _map_ids(ctx, alignment, composed, final, kept)
    _record(ctx, old_version, version, alignment, final)
    _lock_change(plan, lock, lock_path)
    if removed:
        _removed(ctx, removed, old_version, version)
    if figures is not None:
        _figures(plan, figures)
    removed_ids = {paragraphs[i].id for i in removed}
    #: the IDs of the new version (a new paragraph's too: a link left as written lands there)
    new_ids = {pid for row in plan.rows for pid in row.new}
    for path, line, pid in rplan.dangling:
        if pid in removed_ids:
            now = "another paragraph, " + pid if pid in new_ids else "nothing"
            plan.warnings.append(
                Diagnostic(
                    path,
                    line,
                    "DZ305",
                    f"link to {pid}, which the new version of {display_path(article.path)} no "
                    f"longer has (its block goes to the removed file); it will point at {now}: "
                    "point it at the paragraph that took its place",
                )
            )
    if plan.refusals:
        plan.changes = {}
    return plan


def _temp_id(p: Paragraph, i: int) -> str:
    """The ID a block carries in the composed text: its own, or a placeholder for one that has
    none (renumbering gives every block its ID in the new version)."""
    return p.id if p.is_well_formed else f"P?old{i}"


def _translation_lines(source: SourceFile, p: Paragraph) -> list[str]:
    """The translation's lines (without ends), trailing blank lines left out."""
    if p.translation_line is None:
        return []
    lines = [source.line(n) for n in range(p.translation_line, p.block.body_end)]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _carry(
    ctx: _Context, alignment: Alignment, units: list[Chunk], kept: set[int]
) -> tuple[list[Carry | None], set[int], dict[str, str], list[int]]:
    """What each new unit's block is (a carried block or None for a new one), which blocks
    leave the page, the IDs merges take in, the removed blocks; the lock's stale entries are
    set under the blocks' IDs in the composed text."""
    paragraphs = ctx.article.paragraphs
    holders: list[Carry | None] = [None] * len(units)
    leaving: set[int] = set()
    absorbed: dict[str, str] = {}
    removed: list[int] = []
    for m in alignment.matches:
        if not m.new:
            if m.old[0] not in kept:
                leaving.add(m.old[0])
                removed.append(m.old[0])
            continue
        if not m.old:
            continue
        i, j = m.old[0], m.new[0]
        p = paragraphs[i]
        pid = _temp_id(p, i)
        if m.fate in ("same", "moved"):
            holders[j] = Carry(i, pid=pid)
            continue
        new_original = units[j].text
        translation: tuple[str, ...] | None = None
        sources = [p]
        if m.fate == "merged":
            second = paragraphs[m.old[1]]
            leaving.add(m.old[1])
            if second.is_well_formed:
                absorbed[second.id] = pid
            sources.append(second)
            parts = [_translation_lines(ctx.source, q) for q in sources if not q.is_todo]
            if parts and (p.is_todo or len(parts) > 1):
                translation = tuple(parts[0] + [line for part in parts[1:] for line in ["", *part]])
        holders[j] = Carry(i, original=new_original, translation=translation, pid=pid)
        _stale(ctx, pid, sources, new_original)
    return holders, leaving, absorbed, removed


def _stale(ctx: _Context, pid: str, sources: list[Paragraph], new_original: str) -> None:
    """Keep what the translation was made for: the digest it was accepted with (or, never
    accepted, the digest of its original before the update) and that original."""
    translated = [q for q in sources if not q.is_todo]
    if not translated:
        return
    lock, key = ctx.lock, ctx.key
    first = translated[0]
    accepted = lock.accepted(key, first.id) if first.is_well_formed else None
    kept = accepted or digest(first.original)
    earlier = [
        (lock.previous_original(key, q.id) if q.is_well_formed else None) or q.original
        for q in sources
    ]
    entries = lock.articles.setdefault(key, {})
    previous = lock.previous.setdefault(key, {})
    entries[pid] = kept
    if kept == digest(new_original):
        previous.pop(pid, None)  # (nothing to review: the original is what was accepted)
    else:
        previous[pid] = "\n\n".join(earlier)


def _footnotes(
    text: str, original: Original, holders: list[Carry | None], units: list[Chunk], nl: str
) -> str:
    """The new version's footnote definitions at the end, when an original the update writes
    refers to them (the import names them apart: ``[^orig2-1]``)."""
    written = [
        units[j].text
        for j, carry in enumerate(holders)
        if carry is None or carry.original is not None
    ]
    for chunk in original.chunks:
        if chunk.kind != "footnote":
            continue
        labels = [line.split("]:", 1)[0] + "]" for line in chunk.text.split("\n")]
        labels = [label for label in labels if label.startswith("[^")]
        if any(label in t for label in labels for t in written) and chunk.text not in text:
            body = text if text.endswith(("\n", "\r")) else text + nl
            text = body + nl + nl.join(chunk.text.split("\n")) + nl
    return text


def _set_version(text: str, article: Article, version: str) -> str | None:
    """``text`` with ``paper: version:`` set in its front matter (only that line changes, or
    one line is added), or None when ``paper:`` is not a block mapping."""
    import yaml

    lines = lines_with_ends(text.removeprefix("\ufeff"))
    value = json.dumps(version, ensure_ascii=False)
    nl = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    if not article.has_front_matter:
        head = ["---" + nl, "paper:" + nl, f"  version: {value}{nl}", "---" + nl, nl]
        return "".join([*head, *lines])
    close = article.body_line - 2  # index of the closing '---'
    try:
        _data, root = load_yaml("".join(lines[1:close]))
    except InputError:
        return None
    keys = root.value if isinstance(root, yaml.MappingNode) else []
    paper = next((v for k, v in keys if getattr(k, "value", None) == "paper"), None)
    if paper is None:
        lines[close:close] = [f"paper:{nl}", f"  version: {value}{nl}"]
        return "".join(lines)
    if not isinstance(paper, yaml.MappingNode):
        return None
    node = next((v for k, v in paper.value if getattr(k, "value", None) == "version"), None)
    if node is not None:
        start, end = node.start_mark, node.end_mark
        if start.line != end.line or not isinstance(node, yaml.ScalarNode):
            return None
        index = 1 + start.line
        line = lines[index]
        lines[index] = line[: start.column] + value + line[end.column :]
        return "".join(lines)
    if paper.flow_style:  # {title: P, license: MIT} on one line: the key goes before the '}'
        start, end = paper.start_mark, paper.end_mark
        index = 1 + end.line
        line = lines[index]
        if start.line != end.line or line[end.column - 1 : end.column] != "}":
            return None
        at = end.column - 1
        before = line[:at].rstrip()
        sep = "" if before.endswith("{") else ", "
        lines[index] = before + f"{sep}version: {value}" + line[at:]
        return "".join(lines)
    if not paper.value:
        return None
    first_key = paper.value[0][0]
    last_value = paper.value[-1][1]
    indent = " " * first_key.start_mark.column
    at = 1 + last_value.end_mark.line + (1 if last_value.end_mark.column else 0)
    lines.insert(min(at, close), f"{indent}version: {value}{nl}")
    return "".join(lines)


def _map_ids(
    ctx: _Context,
    alignment: Alignment,
    composed: bytes,
    final: bytes,
    kept: set[int],
) -> None:
    """The plan's rows and the old → new mapping, from the composed and the final article."""
    before = parse(composed.decode("utf-8-sig"))
    after = parse(final.decode("utf-8-sig"))
    renamed = {p.id: q.id for p, q in zip(before.paragraphs, after.paragraphs, strict=True)}
    paragraphs = ctx.article.paragraphs
    plan = ctx.plan
    for m in alignment.matches:
        if m.old and m.old[0] in kept:
            continue
        olds = tuple(paragraphs[i].id for i in m.old)
        news: list[str] = []
        for n, j in enumerate(m.new):
            if m.old and n == 0:
                news.append(renamed[_temp_id(paragraphs[m.old[0]], m.old[0])])
            else:
                news.append(renamed[f"P?new{j}"])
        translated = any(not paragraphs[i].is_todo for i in m.old)
        plan.rows.append(Row(m.fate, olds, tuple(news), m.score, translated, m.why))
        for i in m.old:
            pid = paragraphs[i].id
            if PARAGRAPH_ID_RE.fullmatch(pid):
                plan.mapping[pid] = news[0] if news else None
    for i in sorted(kept):
        p = paragraphs[i]
        new_id = renamed.get(_temp_id(p, i), p.id)
        plan.rows.append(Row("kept", (p.id,), (new_id,), 0.0, not p.is_todo))
        if p.is_well_formed:
            plan.mapping[p.id] = new_id


def _record(
    ctx: _Context, old_version: Any, version: str | None, alignment: Alignment, final: bytes
) -> None:
    """Alias anchors for old IDs no paragraph carries now, and the update's record."""
    plan, lock, key = ctx.plan, ctx.lock, ctx.key
    current = {p.id for p in parse(final.decode("utf-8-sig")).paragraphs}
    aliases = lock.aliases.setdefault(key, {})
    for old, new in plan.mapping.items():
        if new is not None and new != old and old not in current:
            aliases[old] = new
    for old in list(aliases):
        if old in current:
            del aliases[old]
    if not aliases:
        del lock.aliases[key]
    changed = any(m.fate != "same" for m in alignment.matches) or any(
        old != new for old, new in plan.mapping.items()
    )
    if changed:
        record = {
            "from": old_version if isinstance(old_version, str) else None,
            "ids": dict(sorted(plan.mapping.items())),
            "to": version,
        }
        lock.updates.setdefault(key, []).append(record)


def _lock_change(plan: UpdatePlan, lock: Lock, lock_path: Path) -> None:
    try:
        on_disk = lock_path.read_bytes()
    except FileNotFoundError:
        on_disk = b""
    data = lock.to_bytes()
    if data != on_disk and not (not on_disk and data == Lock().to_bytes()):
        plan.changes[lock_path] = (on_disk, data)


def _read_text(plan: UpdatePlan, path: Path, what: str) -> tuple[bytes, str] | None:
    """The bytes and text of a file beside the article ("" when there is none yet); None, with
    a refusal, when it cannot be read."""
    try:
        data = read_bytes(path, MAX_TEXT_BYTES) if path.is_file() else b""
        return data, data.decode("utf-8-sig")
    except (InputError, OSError, UnicodeDecodeError) as exc:
        _refuse(plan, path, 1, f"cannot read {what}: {exc}; fix or move it")
        return None


def _removed(ctx: _Context, removed: list[int], old_version: Any, version: str | None) -> None:
    plan, article = ctx.plan, ctx.article
    path = removed_path(ctx.article_path)
    plan.removed_file = path
    read = _read_text(plan, path, "the removed blocks' file")
    if read is None:
        return
    data, text = read
    blocks = []
    for i in removed:
        p = article.paragraphs[i]
        assert p.block.end_line is not None
        lines = [ctx.source.line(n) for n in range(p.block.line, p.block.end_line + 1)]
        accepted = ctx.accepted.get(p.id)
        blocks.append(
            RemovedBlock(
                id=p.id,
                block="\n".join(lines),
                was_in=old_version if isinstance(old_version, str) else None,
                removed_in=version,
                accepted=accepted,
            )
        )
    try:
        new = append(text, ctx.article_path.name, blocks)
    except RemovedError as exc:
        _refuse(plan, path, 1, f"{exc}; nothing was moved")
        return
    plan.changes[path] = (data, new.encode("utf-8"))


def _figures(plan: UpdatePlan, figures: FigureUpdate) -> None:
    from ..figures.merge import MergeError, merge

    spec = figures.spec_file
    read = _read_text(plan, spec, "the figures spec")
    if read is None:
        return
    data, text = read
    try:
        merged = merge(text, spec, figures.paper, figures.found)
    except MergeError as exc:
        _refuse(plan, spec, 1, f"cannot merge the new version's figures: {exc}")
        return
    for f, diff in merged.differences:
        plan.notes.append(f"{spec.name}: {f.label} kept as written; differs in {diff}")
    if merged.added:
        plan.changes[spec] = (data, merged.text.encode("utf-8"))
        labels = ", ".join(f.label for f in merged.added)
        plan.notes.append(f"{spec.name}: {len(merged.added)} new entries ({labels})")


__all__ = ["FigureUpdate", "Row", "UpdatePlan", "plan_update"]
