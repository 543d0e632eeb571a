"""duizhao: bilingual, paragraph-numbered paper translations on MkDocs + Material."""

from __future__ import annotations

__version__ = "0.1.0"
