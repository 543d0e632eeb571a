"""Front matter (YAML ``---`` or TOML ``+++``) → the article's title, ``paper:`` and date."""

from __future__ import annotations

import datetime as dt
import importlib
import re
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from ...yamlsafe import InputError, load_yaml
from .text import excerpt

_DATE_RE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9])")
_WEB_RE = re.compile(r"^https?://")

Warn = Callable[[int | None, str], None]


def read_yaml(content: str, line: int | None, warn: Warn) -> dict[str, Any]:
    try:
        data, _node = load_yaml(content)  # the one bounded loader (depth, aliases, size)
    except InputError as exc:
        warn(line, f"front matter is not YAML ({excerpt(exc.message)}); ignored")
        return {}
    if isinstance(data, dict):
        return {str(k): v for k, v in data.items()}
    if data is not None:
        warn(line, "front matter is not a mapping; ignored")
    return {}


def read_toml(content: str, line: int, warn: Warn) -> dict[str, Any]:
    try:
        # tomllib from Python 3.11; tomli (the same parser) on 3.10 if it is installed
        toml = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    except ImportError:
        warn(line, "TOML front matter needs Python 3.11 (or tomli); ignored")
        return {}
    try:
        data: dict[str, Any] = toml.loads(content)
    except ValueError as exc:  # TOMLDecodeError is a ValueError
        warn(line, f"front matter is not TOML ({excerpt(str(exc))}); ignored")
        return {}
    return data


def text_value(value: object) -> str | None:
    if isinstance(value, (str, int, float)) and str(value).strip():
        return " ".join(str(value).split())
    return None


def authors(value: object) -> str | list[str] | None:
    if isinstance(value, dict):
        return text_value(value.get("name")) or text_value(value.get("display_name"))
    if isinstance(value, list):
        names = [a for a in (authors(v) for v in value) if isinstance(a, str)]
        return names if len(names) > 1 else (names[0] if names else None)
    return text_value(value)


def source_url(front: dict[str, Any], base_url: str | None) -> str | None:
    # (not Jekyll's `link:`, the target of a link post, nor `source:`, often a file)
    for key in ("canonical_url", "canonical", "original_url", "source_url", "url", "permalink"):
        value = text_value(front.get(key))
        if not value:
            continue
        if _WEB_RE.match(value):
            return value
        if base_url and value.startswith("/"):
            return urljoin(base_url, value)
    if base_url and _WEB_RE.match(base_url):
        return base_url
    return None


def paper_fields(front: dict[str, Any], title: str | None, base_url: str | None) -> dict[str, Any]:
    paper: dict[str, Any] = {}
    if title:
        paper["title"] = title
    names = authors(front.get("authors", front.get("author")))
    if names:
        paper["authors"] = names
    url = source_url(front, base_url)
    if url:
        paper["url"] = url
    return paper


def date_of(front: dict[str, Any], name: str, warn: Warn) -> dict[str, Any]:
    """``{"date": …}`` from the front matter, else a Jekyll file name's ``YYYY-MM-DD-``."""
    date = front.get("date")
    if isinstance(date, dt.datetime):
        return {"date": date.date()}
    if isinstance(date, dt.date):
        return {"date": date}
    named = _DATE_RE.match(date.strip() if isinstance(date, str) else name)
    if not named:
        return {}
    try:
        return {"date": dt.date.fromisoformat(named.group(0))}
    except ValueError:
        warn(None, f"date {named.group(0)!r} is not a calendar date; ignored")
        return {}
