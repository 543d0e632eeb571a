"""Material's search box over duizhao's Pagefind worker, through a template override.

The folder ``theme/`` beside this module is put in the theme's template folders (after the
site's own ``custom_dir``, before Material's): its ``main.html`` extends ``duizhao/base.html``,
which overrides Material's documented ``config`` block: Material's own block, with the URL of
the search worker replaced by duizhao's. Everything else (the search box, the result list,
keyboard, instant navigation, palettes) stays Material's.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig

TEMPLATES = Path(__file__).parent / "theme"
WORKER = "search-worker.js"
_OPEN = '<script id="__config" type="application/json">'


#: The worker's comments (whole lines: a block that starts a line, a line of ``//``) and its
#: indentation: it has no template literal, and no string or regular expression starts a line.
_INDENT_RE = re.compile(r"^[ \t]+", re.M)


def worker_text(source: Path) -> str:
    """The worker as the site serves it: without its comments and indentation (the browser
    fetches it at every page load; 8.1 KB gzipped with them, 5.9 KB without)."""
    return _INDENT_RE.sub("", _without_comments(source.read_text(encoding="utf-8")))


def _without_comments(text: str) -> str:
    """``text`` without its comment lines: a line that is a ``//`` comment, and ``/* … */``
    comments that start a line and end one (over one line or several). One pass over the lines
    (a regular expression for it backtracked quadratically on an unclosed ``/*``)."""
    kept: list[str] = []
    block: list[str] = []  # the lines of an open /* comment, kept if it never ends a line
    for line in text.splitlines(keepends=True):
        code = line.lstrip(" \t")
        if block:
            block.append(line)
            end = line.find("*/")
            if end >= 0:
                if line[end + 2 :].strip(" \t") == "\n":
                    block.clear()  # the comment ends its line: dropped
                else:
                    kept += block
                    block = []
            continue
        if code.startswith("//") and line.endswith("\n"):
            continue
        if code.startswith("/*"):
            end = code.find("*/", 2)
            if end < 0:
                block = [line]
                continue
            if code[end + 2 :].strip(" \t") == "\n":
                continue
        kept.append(line)
    return "".join(kept + block)


def add_templates(config: MkDocsConfig) -> None:
    """Put :data:`TEMPLATES` after the site's ``custom_dir`` in the theme's folders (once)."""
    dirs = config.theme.dirs
    folder = str(TEMPLATES)
    if folder in dirs:
        return
    custom = config.theme.custom_dir
    at = 1 if custom and dirs and Path(dirs[0]) == Path(custom) else 0
    dirs.insert(at, folder)


def overridden_main(config: MkDocsConfig) -> Path | None:
    """The site's own ``main.html`` that does not extend duizhao's (it then keeps the lunr
    worker), or None."""
    custom = config.theme.custom_dir
    if not custom:
        return None
    main = Path(custom) / "main.html"
    try:
        text = main.read_text(encoding="utf-8")
    except OSError:
        return None
    return None if "duizhao/base.html" in text else main


def worker_version(text: str) -> str:
    """A short digest of the served worker, put in its URL (``v=``): a browser that cached an
    older worker (GitHub Pages: 10 minutes) fetches this one, which unpacks the index this
    build wrote (:mod:`.packing`)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:VERSION_DIGITS]


#: Hex digits of the worker's digest in its URL.
VERSION_DIGITS = 8


def search_config(block: str, worker: str, words: int = 0, version: str = "") -> Markup:
    """Material's config block (``super()``) with its search worker replaced by ``worker``
    (told with ``?words=N`` that the index's Chinese words are in N shards, and with ``v=``
    which worker it is)."""
    start = block.find(_OPEN)
    end = block.find("</script>", start)
    if start < 0 or end < 0:
        return Markup(block)
    head = start + len(_OPEN)
    try:
        data = json.loads(block[head:end])
    except ValueError:
        return Markup(block)
    query = "&".join(f"{key}={value}" for key, value in (("words", words), ("v", version)) if value)
    data["search"] = f"{worker}?{query}" if query else worker
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    # As Jinja's tojson writes it inside <script>: no "<", ">", "&" or "'" as such.
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("'", "\\u0027")):
        text = text.replace(char, code)
    return Markup(block[:head] + text + block[end:])
