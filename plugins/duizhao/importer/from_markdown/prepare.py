"""Line-preserving passes before parsing: what no markdown-it plugin reads.

TOML front matter (``+++``, Hugo, Zola) is cut out to be read apart; Liquid's ``{% raw %}``
markers go; Liquid's ``{% highlight x %}`` and Hugo's paired code shortcodes become code
fences; pymdownx tabs (``=== "Tab"``, content indented by four spaces) lose their marker and
indent. Every line keeps its number, so the report's lines are the original's.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from ...escape import fence_for
from ...nesting import MAX_BLOCK_DEPTH, MAX_MARKDOWN_DEPTH, as_text, block_as_text, too_deep
from .text import excerpt

_RAW_TAG_RE = re.compile(r"\{%-?\s{0,8}(?:end)?raw\s{0,8}-?%\}")
_HIGHLIGHT_OPEN_RE = re.compile(
    r"^\s{0,16}\{%-?\s{0,8}highlight\s{1,8}([\w+#.-]{1,40})[^%]{0,200}-?%\}\s*$"
)
_HIGHLIGHT_CLOSE_RE = re.compile(r"^\s{0,16}\{%-?\s{0,8}endhighlight\s{0,8}-?%\}\s*$")
#: A paired Hugo shortcode of code: ``{{< highlight go >}}``, Istio's ``{{< text bash >}}``,
#: ``{{< code lang="yaml" >}}``: a code name (the first word its language), or any name with a
#: ``lang=``/``language=`` argument. Other paired shortcodes (``{{< idea >}}``) wrap prose.
_SHORTCODE_OPEN_RE = re.compile(
    r"^\s{0,16}\{\{([<%])\s{0,8}([\w-]{1,60})\b([^>%]{0,500})[>%]\}\}\s*$"
)
_SHORTCODE_CLOSE_RE = re.compile(r"^\s{0,16}\{\{[<%]\s{0,8}/([\w-]{1,60})\s{0,8}[>%]\}\}\s*$")
_CODE_SHORTCODES = frozenset(
    {"highlight", "text", "code", "codeblock", "code-block", "terminal", "console", "shell"}
)
_SHORTCODE_LANG_RE = re.compile(r"\blang(?:uage)?\s{0,8}=\s{0,8}[\"']?([\w+#.-]{1,40})")
_FIRST_WORD_RE = re.compile(r"\s{0,8}([\w+#.-]{1,40})(?=\s|$)")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: pymdownx.tabbed: ``=== "Tab"`` (``===+`` opens it), its content indented by four spaces.
_TEMPLATE_DEFINITION_RE = re.compile(r"^ {0,3}\[[^\]\n]{1,999}\]:[ \t]{0,8}\{[{%]")
_TAB_OPEN_RE = re.compile(r"^(\s{0,64})===\+?\s{1,8}\"([^\"\n]{0,300})\"\s*$")


@dataclass
class Prepared:
    text: str
    toml: str | None = None
    toml_line: int = 0
    #: ``(line, message, text)`` of what was dropped
    notes: list[tuple[int, str, str]] = field(default_factory=list)
    #: ``(line, label)`` of each tab (its line is blank in ``text``)
    labels: list[tuple[int, str]] = field(default_factory=list)
    #: ``(line, message)`` of what was kept but changed
    warnings: list[tuple[int, str]] = field(default_factory=list)


def prepare(text: str) -> Prepared:
    """Normalised line ends, TOML front matter apart, template code tags as fences, tab
    markers dropped (see the module docstring)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    out = Prepared("")
    if lines and lines[0].rstrip() == "+++":
        for i in range(1, len(lines)):
            if lines[i].rstrip() == "+++":
                out.toml = "\n".join(lines[1:i])
                out.toml_line = 1
                lines[: i + 1] = [""] * (i + 1)
                break
    raw: set[int] = set()  # lines inside Liquid's {% raw %}: their tags are text
    in_raw = False
    for i, line in enumerate(lines):
        if in_raw:
            raw.add(i)
        if "raw" not in line:
            continue
        raw_tags = _RAW_TAG_RE.findall(line)
        for tag in raw_tags:
            in_raw = not tag.replace(" ", "").strip("{%-}").startswith("end")
        if raw_tags:
            lines[i] = _RAW_TAG_RE.sub("", line)
    lines = _tabs(_code_shortcodes(lines, raw), out)
    _template_definitions(lines, out)
    _too_deep_as_text(lines, out)
    out.text = "\n".join(lines)
    return out


def _too_deep_as_text(lines: list[str], prepared: Prepared) -> None:
    """Lines nested past :data:`~duizhao.nesting.MAX_MARKDOWN_DEPTH` (quote and list markers,
    indentation), as a page of the site shows them (DZ020): at the top level, their markers
    shown as written; one warning per run of such lines. markdown-it stops at its own nesting
    limit and skips the rest of the container unreported (a quote 30 deep lost its text)."""
    from ...article import scan  # (the site's block scanner: ``///`` blocks as it sees them)

    # (the scanner reads links too: it runs only where blocks could nest that deep at all)
    openers = sum(1 for line in lines if line.lstrip(" ").startswith("///"))
    deep_blocks = [
        at - 1
        for at, kind, _ in (scan(lines).problems if openers > MAX_BLOCK_DEPTH else ())
        if kind in ("deep-block", "deep-close")
    ]
    if deep_blocks:
        for index in deep_blocks:
            lines[index] = block_as_text(lines[index])
        prepared.warnings.append(
            (
                deep_blocks[0] + 1,
                f"'///' blocks nested more than {MAX_BLOCK_DEPTH} levels: {len(deep_blocks):,} "
                "opening and closing lines past that depth imported as text",
            )
        )
    run: list[int] = []
    for index in [*too_deep(lines), -1]:
        if run and index != run[-1] + 1:
            count = f"{len(run):,} lines" if len(run) > 1 else "the line"
            prepared.warnings.append(
                (
                    run[0] + 1,
                    f"nested more than {MAX_MARKDOWN_DEPTH} levels (quote and list markers, "
                    f"indentation): {count} imported as text at the top level, markers shown "
                    "as written",
                )
            )
            run = []
        if index >= 0:
            lines[index] = as_text(lines[index])
            run.append(index)


def _code_shortcodes(lines: list[str], raw: set[int]) -> list[str]:
    """Liquid ``{% highlight x %}`` and paired Hugo code shortcodes (``{{< highlight x >}}``,
    ``{{< text bash >}}``) → code fences, when closed; an unclosed one stays (as a tag)."""
    out = list(lines)
    # Where each kind of tag closes, found in one pass: an opener takes the first close after
    # it (a search forward from each opener would cost the rest of the file per unclosed one).
    closes: dict[str, list[int]] = {}
    for j, line in enumerate(lines):
        if "{" not in line:
            continue
        if _HIGHLIGHT_CLOSE_RE.match(line):
            closes.setdefault("{% highlight", []).append(j)
        elif c := _SHORTCODE_CLOSE_RE.match(line):
            closes.setdefault(c.group(1), []).append(j)
    i = 0
    while i < len(out):
        line = out[i]
        lang, kind = ("", None) if i in raw or "{" not in line else _code_opener(line)
        at = closes.get(kind, []) if kind is not None else []
        k = bisect.bisect_right(at, i)
        if k == len(at):  # not closed (or not code): the tag stays text
            i += 1
            continue
        end = at[k]
        fence = fence_for("\n".join(out[i + 1 : end]))
        out[i], out[end] = fence + lang, fence
        i = end + 1
    return out


def _fence_step(line: str, fence: tuple[str, int] | None) -> tuple[tuple[str, int] | None, bool]:
    """The open fence (character, length) after `line`, and whether `line` is a fence line or
    code inside one (prose passes leave such lines alone)."""
    f = _FENCE_RE.match(line)
    if fence is not None:
        if f and f.group(1)[0] == fence[0] and len(f.group(1)) >= fence[1]:
            fence = fence if line[f.end() :].strip() else None
        return fence, True
    if f and not (f.group(1)[0] == "`" and "`" in line[f.end() :]):
        return (f.group(1)[0], len(f.group(1))), True
    return None, False


def _template_definitions(lines: list[str], prepared: Prepared) -> None:
    """A link reference definition whose destination is a template tag (Jekyll's
    ``[roadmap]: {{ site.repository }}/issues/1``) names a URL only the site's build knows:
    no parser reads it as a definition, so it would show as a paragraph. It goes, reported;
    the links to it keep their text."""
    fence: tuple[str, int] | None = None
    for i, line in enumerate(lines):
        fence, in_code = _fence_step(line, fence)
        if in_code:
            continue
        if "]:" in line and _TEMPLATE_DEFINITION_RE.match(line):
            prepared.notes.append(
                (i + 1, f"link definition through a template {excerpt(line.strip())!r}", line)
            )
            lines[i] = ""


def _code_opener(line: str) -> tuple[str, str | None]:
    """(language, kind) of a line that opens a code tag, else ("", None)."""
    m = _HIGHLIGHT_OPEN_RE.match(line)
    if m:
        return m.group(1), "{% highlight"
    h = _SHORTCODE_OPEN_RE.match(line)
    if not h:
        return "", None
    named = _SHORTCODE_LANG_RE.search(h.group(3))
    if h.group(2).lower() not in _CODE_SHORTCODES and not named:
        return "", None
    first = _FIRST_WORD_RE.match(h.group(3))
    return (named.group(1) if named else (first.group(1) if first else "")), h.group(2)


def _tabs(lines: list[str], prepared: Prepared) -> list[str]:
    """pymdownx tabs hold prose: the ``=== "Tab"`` line goes (its label is kept apart) and
    the content, indented by four spaces, is dedented. Code fences are left alone."""
    out = list(lines)
    indents: list[int] = []  # content indent of each open tab
    fence: tuple[str, int] | None = None
    for i, line in enumerate(out):
        if line.strip():
            width = len(line) - len(line.lstrip(" "))
            while indents and width < indents[-1]:
                indents.pop()
            if indents:
                line = line[min(width, indents[-1]) :]
        elif indents:
            line = ""
        out[i] = line
        fence, in_code = _fence_step(line, fence)
        if in_code:
            continue
        if "===" in line and (tab := _TAB_OPEN_RE.match(line)):
            prepared.notes.append((i + 1, f"tab marker {excerpt(line.strip())!r}", line))
            if tab.group(2).strip():
                prepared.labels.append((i + 1, tab.group(2).strip()))
            out[i] = ""
            indents.append(len(tab.group(1)) + 4)
    return out
