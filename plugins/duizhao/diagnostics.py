"""The one shape every problem takes: ``PATH:LINE: CODE message``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


#: Every code with its severity and a one-line summary: the one registry (the README tables
#: are checked against it in the tests). A diagnostic's severity comes from here.
CODES: dict[str, tuple[Severity, str]] = {
    "DZ001": (Severity.ERROR, "malformed paragraph ID"),
    "DZ002": (Severity.ERROR, "duplicate paragraph ID"),
    "DZ003": (Severity.ERROR, "paragraph ID out of order"),
    "DZ004": (Severity.ERROR, "gap in paragraph IDs (not reported for status: draft)"),
    "DZ005": (Severity.ERROR, "paragraph ID outside the declared range"),
    "DZ006": (Severity.ERROR, "empty translation"),
    "DZ007": (Severity.ERROR, "unclosed block"),
    "DZ008": (Severity.ERROR, "link to a paragraph or figure anchor that does not exist"),
    "DZ009": (Severity.WARNING, "article has no '## 导言' section"),
    "DZ010": (Severity.ERROR, "unreadable front matter"),
    "DZ011": (
        Severity.ERROR,
        "file or page name not UTF-8, file cannot be read, not a regular file or too large",
    ),
    "DZ012": (Severity.ERROR, "front matter has no title"),
    "DZ013": (Severity.ERROR, "malformed 'paragraphs:' range"),
    "DZ014": (Severity.ERROR, "unknown 'status:' value"),
    "DZ015": (Severity.WARNING, "code fence never closed"),
    "DZ016": (Severity.WARNING, "closing '///' with no open block"),
    "DZ017": (Severity.WARNING, "link to a Markdown file that does not exist"),
    "DZ018": (Severity.ERROR, "file or link resolves (through a symlink) outside the project"),
    "DZ019": (Severity.ERROR, "mkdocs.yml unreadable (duizhao CLI)"),
    "DZ020": (Severity.WARNING, "Markdown nested more than 32 levels deep: shown as text"),
    "DZ021": (Severity.WARNING, "HTML nested more than 256 levels deep: shown as text"),
    "DZ022": (Severity.WARNING, "'///' blocks nested more than 32 levels deep: shown as text"),
    "DZ101": (Severity.ERROR, "figure (or table) placed that the .figures.yml does not declare"),
    "DZ102": (Severity.ERROR, "figure placed twice"),
    "DZ103": (Severity.ERROR, "declared figure never placed (not reported for status: draft)"),
    "DZ104": (
        Severity.ERROR,
        "'figures: N' disagrees with the .figures.yml (a draft may declare fewer)",
    ),
    "DZ105": (Severity.ERROR, "figure spec unreadable, or a field missing or of the wrong type"),
    "DZ106": (Severity.ERROR, "figure source missing"),
    "DZ107": (Severity.ERROR, "figure source outside the project root"),
    "DZ108": (Severity.ERROR, "figure page out of range (or a page for an image source)"),
    "DZ109": (
        Severity.ERROR,
        "figure box not four finite numbers, inverted, empty or outside the page",
    ),
    "DZ110": (
        Severity.ERROR,
        "figure source is a corrupt or truncated PDF or image, or not a PDF, PNG, JPEG or WebP "
        "by content",
    ),
    "DZ111": (
        Severity.ERROR,
        "figure over Pillow's decompression-bomb limit, or its PDF page over 14,400 pt",
    ),
    "DZ112": (Severity.ERROR, "figure (or table) declared twice in the .figures.yml"),
    "DZ113": (
        Severity.ERROR,
        "PDF not read (figures detect, import, update): damaged, encrypted, no text layer, or a "
        "page over a limit (size, objects, form depth, parse time or memory); in a build, a "
        "figure's PDF page over such a limit is not rendered",
    ),
    # site and attribution (attribution.py, digest.py)
    "DZ201": (Severity.WARNING, "paragraph or figure blocks but no 'paper: license:'"),
    "DZ202": (Severity.WARNING, "unknown licence (not an SPDX id duizhao knows)"),
    "DZ203": (Severity.WARNING, "licence does not allow adaptations such as a translation"),
    "DZ204": (Severity.WARNING, "malformed 'paper:' field"),
    "DZ205": (Severity.WARNING, "more than one article has 'featured: true'"),
    "DZ206": (Severity.WARNING, "'weight', 'date', 'featured' or 'digest' of the wrong type"),
    "DZ207": (Severity.ERROR, "seed record unreadable or malformed (duizhao new)"),
    "DZ208": (Severity.WARNING, "search index incomplete (search: pagefind): the old one is kept"),
    # Translator's workflow (duizhao status / renumber / update)
    "DZ301": (Severity.WARNING, "stale translation: the original changed after it was accepted"),
    "DZ302": (Severity.ERROR, "renumber refused: a link points at a duplicated paragraph ID"),
    "DZ303": (Severity.ERROR, "unreadable or malformed duizhao.lock"),
    "DZ304": (Severity.ERROR, "update refused: the article cannot take the new version as it is"),
    "DZ305": (Severity.WARNING, "link to a paragraph that the new version of the original removed"),
    "DZ306": (Severity.WARNING, "the new original shares no paragraph with the article"),
    "DZ401": (Severity.ERROR, "inline code of the translation differs from the original's"),
    "DZ402": (Severity.ERROR, "math of the translation differs from the original's"),
    "DZ403": (Severity.ERROR, "link or image targets differ from the original's"),
    "DZ404": (Severity.ERROR, "a citation of the original is missing or changed"),
    "DZ405": (Severity.ERROR, "a number of the original is missing or changed"),
    "DZ406": (Severity.ERROR, "a figure, table, section or equation reference does not correspond"),
    "DZ407": (Severity.ERROR, "the translation is identical to the original"),
    "DZ420": (Severity.WARNING, "an English sentence is left untranslated"),
    "DZ421": (Severity.WARNING, "an acronym of the original is missing from the translation"),
    "DZ423": (Severity.WARNING, "half-width punctuation between Chinese characters"),
    "DZ424": (Severity.WARNING, "full-width digits or Latin letters"),
    "DZ425": (Severity.WARNING, "no space between Chinese and Latin letters or digits"),
    # The glossary (quality/glossary/)
    "DZ440": (Severity.ERROR, "glossary.yml unreadable, or not a list of entries"),
    "DZ441": (
        Severity.ERROR,
        "glossary entry malformed: no 'en' or 'zh', or a value of the wrong type",
    ),
    "DZ442": (Severity.WARNING, "English form that is already the term of another glossary entry"),
    "DZ443": (Severity.WARNING, "unknown key in a glossary entry"),
    "DZ445": (Severity.WARNING, "term of the original translated with none of its renderings"),
    "DZ446": (Severity.WARNING, "term of the original translated with a forbidden rendering"),
    "DZ447": (Severity.WARNING, "keep_en term not kept in Latin letters in the translation"),
    "DZ448": (Severity.ERROR, "glossary import file unreadable or of unknown columns"),
}


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A problem in an author's source, located by file and 1-based line."""

    path: Path
    line: int
    code: str
    message: str

    @property
    def severity(self) -> Severity:
        """From :data:`CODES`; a code not in it (a tool's own refusal) is an error."""
        entry = CODES.get(self.code)
        return entry[0] if entry is not None else Severity.ERROR

    def display_path(self, base: str | os.PathLike[str] | None = None) -> str:
        return display_path(self.path, base)

    def format(self, base: str | os.PathLike[str] | None = None) -> str:
        return f"{self.display_path(base)}:{self.line}: {self.code} {self.message}"

    def to_json(self, base: str | os.PathLike[str] | None = None) -> dict[str, object]:
        return {
            "path": self.display_path(base),
            "line": self.line,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
        }


def display_path(path: Path, base: str | os.PathLike[str] | None = None) -> str:
    """``path`` relative to ``base`` (default: the current directory) where that is short.

    Printable in UTF-8 whatever the name's bytes: an undecodable byte shows as ``\\xff``.
    """
    try:
        rel = os.path.relpath(path, base if base is not None else os.getcwd())
    except ValueError:  # another drive on Windows
        rel = str(path)
    shown = str(path) if rel.startswith(".." + os.sep + "..") else rel
    return os.fsencode(shown).decode("utf-8", "backslashreplace")


def to_sarif(diagnostics: list[Diagnostic]) -> dict[str, object]:
    """``diagnostics`` as a SARIF 2.1.0 log (GitHub code scanning, review tools): one rule per
    code of :data:`CODES` that occurs, one result per diagnostic."""
    used = sorted({d.code for d in diagnostics})
    rules = [
        {
            "id": code,
            "shortDescription": {"text": CODES[code][1] if code in CODES else code},
            "defaultConfiguration": {"level": _level(code)},
        }
        for code in used
    ]
    results = [
        {
            "ruleId": d.code,
            "ruleIndex": used.index(d.code),
            "level": _level(d.code),
            "message": {"text": d.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": d.display_path().replace(os.sep, "/")},
                        "region": {"startLine": max(d.line, 1)},
                    }
                }
            ],
        }
        for d in diagnostics
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "duizhao", "rules": rules}}, "results": results}],
    }


def _level(code: str) -> str:
    entry = CODES.get(code)
    return "warning" if entry is not None and entry[0] is Severity.WARNING else "error"
