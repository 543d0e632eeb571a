"""MyST (Sphinx, Jupyter Book): what its roles show and what its directives hold.

Pure functions on the parts mdit-py-plugins finds (``myst_role`` tokens, fence and colon-fence
``{name}`` info strings): no markdown is parsed here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Roles whose content is code: Sphinx's cross-references to objects (``{func}``, ``{py:class}``)
#: and inline literals (``{code}``, ``{file}``).
CODE_ROLES = frozenset(
    {"func", "meth", "class", "attr", "mod", "obj", "data", "exc", "const", "type", "var"}
    | {"member", "macro", "struct", "enum", "enumerator", "function", "method", "property"}
    | {"code", "literal", "samp", "file", "command", "program", "envvar", "option", "makevar"}
    | {"regexp", "keyword", "token", "mailheader", "confval", "event", "directive", "role"}
)
#: Roles that show HTML formatting.
HTML_ROLES = {"sub": "sub", "subscript": "sub", "sup": "sup", "superscript": "sup", "kbd": "kbd"}
#: Roles that show their text (or their target's title) as text, or a link in the page.
TEXT_ROLES = frozenset(
    {"ref", "doc", "term", "numref", "eq", "cite", "citep", "citet", "download", "any", "abbr"}
    | {"guilabel", "menuselection", "pep", "rfc", "external", "dfn", "index", "title-reference"}
    | {"emphasis", "strong", "u", "del", "delete"}
)
_TITLE_TARGET_RE = re.compile(r"^(.{0,2000}?)\s{0,8}<([^<>\n]{1,2000})>$", re.DOTALL)


def role_name(name: str) -> str:
    """``py:func`` → ``func``, ``cite:p`` → ``cite`` (the domain goes)."""
    base = name.rsplit(":", 1)[-1].lower() if ":" in name else name.lower()
    if name.lower().startswith("cite"):
        return "cite"
    if name.lower().startswith("prf:") or name.lower().startswith("external"):
        return "ref"
    return base


def title_and_target(content: str) -> tuple[str, str]:
    """``Some title <target>`` → (``Some title``, ``target``); ``target`` → ("", ``target``)."""
    m = _TITLE_TARGET_RE.match(content.strip())
    if m and m.group(1).strip():
        return m.group(1).strip(), m.group(2).strip()
    return "", content.strip()


def code_shown(content: str, role: str) -> str:
    """What Sphinx shows of a code role: ``~a.b.c`` → ``c``, ``!x`` → ``x``; functions and
    methods get ``()``."""
    title, target = title_and_target(content)
    if title:
        return title
    shown = target.lstrip("!")
    if shown.startswith("~"):
        shown = shown[1:].rsplit(".", 1)[-1]
    if role in ("func", "meth", "function", "method") and not shown.endswith(")"):
        shown += "()"
    return shown


#: Directives whose content is prose to translate; the argument is their title.
ADMONITIONS = frozenset(
    {"note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error"}
    | {"seealso", "admonition", "todo", "topic", "sidebar", "margin", "dropdown", "aside"}
    | {"versionadded", "versionchanged", "deprecated", "versionremoved", "epigraph"}
    | {"pull-quote", "highlights", "card", "grid-item-card", "tab-item", "tab", "div"}
    | {"container", "only", "exercise", "solution", "proof", "theorem", "lemma", "definition"}
    | {"example", "remark", "glossary", "centered", "hlist", "compound", "line-block"}
)
#: Directives of one tab: the argument is its label (not prose to translate).
TABS = frozenset({"tab-item", "tab"})
#: Directives that only arrange other directives (their title, if any, is no prose).
LAYOUT = frozenset({"tab-set", "grid", "grid-item", "card-carousel", "tabs", "subfigure"})
#: Directives whose content is code.
CODE = frozenset(
    {"code-block", "code", "sourcecode", "code-cell", "ipython", "jupyter-execute", "testcode"}
    | {"testoutput", "doctest", "mermaid", "graphviz", "literal", "parsed-literal", "prompt"}
    | {"myst", "myst-demo"}
)
#: Directives that bring in text from elsewhere or build it (tables of contents, API docs,
#: other files) or hold reStructuredText: nothing of the original to translate.
DROPPED = frozenset(
    {"toctree", "contents", "tableofcontents", "include", "literalinclude", "bibliography"}
    | {"eval-rst", "rst", "raw", "autosummary", "currentmodule", "module", "highlight", "index"}
    | {"meta", "tags", "glue", "embed", "jupyter-kernel", "mdinclude", "automodule", "autoclass"}
    | {"autofunction", "automethod", "autoattribute", "autodata", "autoexception", "autoprogram"}
    | {"cssclass", "rst-class", "role", "default-role", "sectionauthor", "codeauthor", "plot"}
    | {"iframe", "video", "youtube", "article-info", "button-ref", "button-link", "show-index"}
)
#: Directives that are a picture (the argument its path), the content its caption.
FIGURES = frozenset({"figure", "image", "figure-md"})
#: Directives that are a table: its caption is the argument.
TABLES = frozenset({"list-table", "table", "csv-table"})
#: Display math.
MATH = frozenset({"math", "prf:equation"})

_NAME_RE = re.compile(r"^\{([A-Za-z][\w:.-]{0,60})\}\s{0,8}(.{0,2000})$", re.DOTALL)
_OPTION_RE = re.compile(r"^:([\w-]{1,60}):(?:\s{1,8}(.{0,2000}))?$")


@dataclass
class Directive:
    name: str
    argument: str
    options: dict[str, str] = field(default_factory=dict)
    content: str = ""
    #: lines of the fence's body before its content (options)
    skipped: int = 0


def directive(info: str, body: str) -> Directive | None:
    """A MyST directive from a fence's info string (``{figure} img.png``) and body, else
    None. Options are the leading ``:key: value`` lines, or a leading ``---`` YAML block (read
    as ``key: value`` lines; nothing of it is evaluated)."""
    m = _NAME_RE.match(info.strip())
    if not m:
        return None
    lines = body.split("\n")
    options: dict[str, str] = {}
    skipped = 0
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            for line in lines[1:end]:
                key, colon, value = line.partition(":")
                if colon and key.strip():
                    options[key.strip()] = value.strip().strip("\"'")
            skipped = end + 1
    else:
        while skipped < len(lines):
            option = _OPTION_RE.match(lines[skipped].strip())
            if not option:
                break
            options[option.group(1)] = (option.group(2) or "").strip()
            skipped += 1
    content = "\n".join(lines[skipped:])
    return Directive(m.group(1).lower(), m.group(2).strip(), options, content, skipped)


def list_table_rows(items: list[list[str]], header_rows: int) -> list[str]:
    """Rows of cells (each already Markdown on one line) as a pipe table."""
    if not items:
        return []
    width = max(len(row) for row in items)
    rows = [row + [" "] * (width - len(row)) for row in items]
    lines = ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    rule = "| " + " | ".join(["---"] * width) + " |"
    if header_rows <= 0:
        # a pipe table needs a header: an empty one
        return ["| " + " | ".join([" "] * width) + " |", rule, *lines]
    return [*lines[:1], rule, *lines[1:]]
