"""The translation checks as ``duizhao check`` and the build run them: one :class:`Quality` per
project, handed to :func:`duizhao.checks.check_local`.

It runs the paragraph checks (:mod:`.checks`) and the glossary's (:mod:`.glossary.check`) on
each paragraph block, drops what the options' ``ignore:`` and the block's own
``<!-- duizhao-ignore CODE -->`` suppress, and keeps the findings between runs
(:mod:`.cache`): on disk by file, and in memory by block for ``mkdocs serve``. Pure but for the
cache file.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import CODES, Diagnostic
from .cache import CACHE_NAME, FindingsCache, Stored, code_digest

if TYPE_CHECKING:
    from ..article import Article
    from .checks import Finding
    from .glossary.check import GlossaryCheck
    from .glossary.match import PageScans

#: The codes ``quality: ignore:`` and ``<!-- duizhao-ignore -->`` may name: the paragraph
#: checks and the glossary's per-paragraph warnings.
IGNORABLE = frozenset(c for c in CODES if "DZ401" <= c <= "DZ439" or "DZ445" <= c <= "DZ447")
#: The glossary check's codes (with all three ignored it does not run).
GLOSSARY_CODES = frozenset({"DZ445", "DZ446", "DZ447"})


#: A block's findings in the memo: the paragraph checks' and the glossary check's (code,
#: message), without lines (a block that moved keeps them).
_Memo = tuple[tuple["Finding", ...], tuple["Finding", ...]]


class OptionsError(ValueError):
    """``quality:`` options an author must correct (the message says how)."""


@dataclass(frozen=True)
class QualityOptions:
    """``quality:`` of the plugin's options (:class:`duizhao.config.QualityConfig`)."""

    enabled: bool = True
    ignore: frozenset[str] = frozenset()

    @classmethod
    def from_raw(cls, raw: object) -> QualityOptions:
        """From the options as written in mkdocs.yml (the CLI does not run MkDocs' validation);
        :class:`OptionsError` for a value MkDocs would refuse."""
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise OptionsError("quality: expected a mapping such as {enabled: true, ignore: []}")
        enabled = raw.get("enabled", True)
        if not isinstance(enabled, bool):
            raise OptionsError(f"quality: enabled: expected true or false, got {enabled!r}")
        ignore = raw.get("ignore") or []
        if not isinstance(ignore, list):
            raise OptionsError("quality: ignore: expected a list of codes such as [DZ425]")
        return cls(enabled, frozenset(check_code(code) for code in ignore))


def check_code(code: object) -> str:
    """``code`` if the checks can ignore it; :class:`OptionsError` otherwise."""
    if not isinstance(code, str) or code not in IGNORABLE:
        raise OptionsError(
            f"quality: ignore: {code!r} is not a translation check's code; name codes of "
            "DZ401-DZ439 or DZ445-DZ447, as in 'ignore: [DZ425]'"
        )
    return code


@dataclass
class Quality:
    """The translation checks of one project (its options, glossary and cache)."""

    options: QualityOptions = field(default_factory=QualityOptions)
    #: glossary.yml (read when a block is first checked), or None
    glossary_path: Path | None = None
    #: the folder of the findings cache (``cache_dir``), or None for no cache
    cache_dir: Path | None = None
    #: keep each block's findings in memory (``mkdocs serve``: an edited page checks only the
    #: blocks that changed)
    memo: bool = False
    version: str = field(init=False)
    _cache: FindingsCache | None = field(init=False, default=None)
    _glossary: GlossaryCheck | None = field(init=False, default=None)
    _glossary_read: bool = field(init=False, default=False)
    _blocks: dict[Path, dict[tuple[str, str], _Memo]] = field(init=False, default_factory=dict)
    #: where the glossary check leaves each article's block scans, by path, for the tooltips
    #: (the build's :attr:`~duizhao.build.Build.term_scans`), or None for nowhere
    scans: dict[Path, PageScans] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        digest = hashlib.sha1(code_digest().encode(), usedforsecurity=False)
        digest.update(repr(sorted(self.options.ignore)).encode())
        if self.glossary_path is not None:
            try:
                digest.update(self.glossary_path.read_bytes())
            except OSError:
                self.glossary_path = None  # no glossary (its absence is no problem)
        self.version = digest.hexdigest()
        if self.cache_dir is not None and self.options.enabled:
            self._cache = FindingsCache(self.cache_dir / CACHE_NAME, self.version)

    def article(self, article: Article) -> list[Diagnostic]:
        """The translation checks' findings in ``article``'s paragraph blocks."""
        if not self.options.enabled or not article.paragraphs:
            return []
        key = stamp = None
        if self._cache is not None and article.stamp is not None:
            # (the absolute path names the file: no symlink resolved, one lstat per folder
            # saved; check_local reads only files inside the project)
            key, stamp = os.path.abspath(article.path), article.stamp
            stored = self._cache.get(key, stamp)
            if stored is not None:
                return [Diagnostic(article.path, *f) for f in stored]
        found = self._check(article)
        if self._cache is not None and key is not None and stamp is not None:
            self._cache.put(key, stamp, found)
        return [Diagnostic(article.path, *f) for f in found]

    def save(self) -> None:
        """Keep the findings for the next run (a no-op when nothing was checked)."""
        if self._cache is not None:
            self._cache.save()

    def _terms(self) -> GlossaryCheck | None:
        if not self._glossary_read:
            self._glossary_read = True
            if self.glossary_path is not None:
                from .glossary.check import GlossaryCheck
                from .glossary.model import read_glossary

                glossary, _problems = read_glossary(self.glossary_path)  # (reported apart)
                self._glossary = GlossaryCheck(glossary) if glossary else None
        return self._glossary

    def _check(self, article: Article) -> list[Stored]:
        from .checks import check_block, ignored_codes

        terms = self._terms()
        # the glossary's terms are its check's, not the acronym check's (DZ421)
        forms = terms.english_forms if terms is not None else frozenset()
        if terms is not None and self.options.ignore >= GLOSSARY_CODES:
            terms = None  # every glossary warning ignored: the glossary check is not run
        # The blocks of the article's last check, by text: an edited page (mkdocs serve)
        # checks again only the blocks that changed; the memo holds one copy of each page's.
        # (A Quality is made again when glossary.yml or the options change: see articles.py.)
        old = self._blocks.pop(article.path, {}) if self.memo else {}
        scans = None
        if terms is not None and self.scans is not None:
            scans = self.scans[article.path] = terms.scans()
        new: dict[tuple[str, str], _Memo] = {}
        out: list[Stored] = []
        for p in article.paragraphs:
            original = p.original
            if not original or p.is_todo:
                continue
            translation = p.translation
            skip = self.options.ignore | ignored_codes(translation)
            memo = old.get((original, translation))
            if memo is None:
                found = tuple(check_block(original, translation, forms))
                glossary: tuple[Finding, ...] = ()
                if terms is not None and not skip >= GLOSSARY_CODES:
                    glossary = tuple(
                        (d.code, d.message)
                        for d in terms.paragraph(original, translation, article.path, p.line, scans)
                    )
                memo = (found, glossary)
            new[(original, translation)] = memo
            out += [(p.line, code, f"{p.id}: {msg}") for code, msg in memo[0] if code not in skip]
            line = p.translation_line or p.line
            out += [(line, code, msg) for code, msg in memo[1] if code not in skip]
        if self.memo:
            self._blocks[article.path] = new
        return out
