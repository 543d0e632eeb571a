"""The one shape every problem takes: ``PATH:LINE: CODE message``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """A problem in an author's source, located by file and 1-based line."""

    path: Path
    line: int
    code: str
    message: str
    severity: Severity = field(default=Severity.ERROR, compare=False)

    def display_path(self, base: str | os.PathLike[str] | None = None) -> str:
        """The path relative to ``base`` (default: the current directory) where possible."""
        try:
            rel = os.path.relpath(self.path, base if base is not None else os.getcwd())
        except ValueError:  # another drive on Windows
            return str(self.path)
        return str(self.path) if rel.startswith(".." + os.sep + "..") else rel

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
