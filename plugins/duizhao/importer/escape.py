"""Escaping author text for the Markdown that duizhao writes (Python-Markdown reads it back).

An imported original is data: whatever it holds (``<script>``, ``*``, ``[x](y)``, ``{: .x}``)
must come out of the build as the same characters, never as markup. Each context has one
function: :func:`md_text` for running text, :func:`md_code_span` for inline code,
:func:`md_fence` for code blocks, :func:`md_url` for link targets, :func:`md_title` for link
titles. Only characters that Python-Markdown treats as escapable get a backslash (any other
backslash would show on the page, as ``75\\%`` did); a ``<`` that could open a tag and an ``&``
that could start an entity become entities.
"""

from __future__ import annotations

import re

# Python-Markdown's ESCAPED_CHARS that can start markup in running text. ``_`` is handled
# apart (intra-word underscores are not emphasis and stay readable as ``snake_case``).
_BACKSLASHED = frozenset("\\`*[]{}")
_LINE_START_RE = re.compile(r"^(?:[#>+=-]|[0-9]+[.)](?=\s|$)|:(?=\s))")
_ENTITY_RE = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);")
_TAG_START_RE = re.compile(r"<[A-Za-z/!?]")
_URL_UNSAFE = {" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E", '"': "%22"}


def md_text(text: str, *, table: bool = False) -> str:
    """``text`` as Markdown that renders to exactly ``text`` (one line: no line-start markup).

    ``table=True`` also escapes ``|`` for a cell of a pipe table.
    """
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch in _BACKSLASHED:
            out.append("\\" + ch)
        elif ch == "_":
            before = text[i - 1] if i else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            out.append("_" if before.isalnum() and after.isalnum() else "\\_")
        elif ch == "&" and _ENTITY_RE.match(text, i):
            out.append("&amp;")  # a bare '&' Python-Markdown escapes itself
        elif ch == "<" and _TAG_START_RE.match(text, i):
            out.append("&lt;")  # '3 < 4' is no tag and stays readable
        elif ch == "|" and table:
            out.append("\\|")
        elif ch in "\x02\x03":  # Python-Markdown's placeholders; never author text
            continue
        else:
            out.append(ch)
    return "".join(out)


def protect_line_start(line: str) -> str:
    """Escape what would make ``line`` a heading, list item, quote or definition."""
    stripped = line.lstrip(" \t")  # (an indent would make it code)
    m = _LINE_START_RE.match(stripped)
    if not m:
        return stripped
    token = m.group(0)
    if token[0].isdigit():
        # "1999. was a year": the dot after the number is what makes a list item.
        return token[:-1] + "\\" + token[-1] + stripped[len(token) :]
    if token in "#+-":
        return "\\" + stripped
    # '>' opens a quote, '=' underlines a heading, ':' starts a definition: Python-Markdown
    # cannot backslash-escape them, so they become character references.
    return {"=": "&#61;", ":": "&#58;", ">": "&gt;"}[token] + stripped[1:]


def md_code_span(code: str) -> str:
    """Inline code: a backtick run longer than any inside, padded when it touches the ends."""
    code = code.replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * (longest + 1)
    if code.startswith("`") or code.endswith("`"):
        code = f" {code} "
    return f"{fence}{code}{fence}"


def fence_for(code: str) -> str:
    """A backtick fence longer than any run of backticks in ``code`` (at least three)."""
    longest = max((len(run) for run in re.findall(r"`{3,}", code)), default=2)
    return "`" * max(3, longest + 1)


def md_fence(code: str, language: str = "") -> list[str]:
    """A fenced code block holding ``code`` verbatim (the fence is longer than any inside)."""
    lines = code.rstrip("\n").split("\n") if code.strip("\n") else []
    fence = fence_for(code)
    language = re.sub(r"[^A-Za-z0-9_+#.-]", "", language)[:30]
    return [fence + language, *(line.rstrip() for line in lines), fence]


def md_url(url: str) -> str:
    """A link target that Python-Markdown reads back whole (spaces, parentheses, quotes)."""
    return "".join(_URL_UNSAFE.get(ch, ch) for ch in url if ch >= " ")


def md_title(title: str) -> str:
    """A link title for ``[text](url "title")``: Python-Markdown cannot escape quotes there."""
    return " ".join(title.replace('"', "'").split())
