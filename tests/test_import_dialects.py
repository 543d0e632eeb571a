"""`duizhao import` of the dialects of issue 21, rule by rule, and hostile HTML through a
whole site build (the corpus of real pages is tests/test_import_corpus.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from conftest import Site
from duizhao.cli import main
from duizhao.importer import Chunk, Original, import_chunks, new_article, parse_markdown
from duizhao.sanitize import sanitize_html


def units(original: Original) -> list[tuple[str, str]]:
    return [(c.kind, c.text) for c in original.chunks]


def notes(original: Original) -> list[tuple[int | None, str]]:
    return [(n.line, n.message) for n in original.notes]


# ---------------------------------------------------------------------------------------------
# Inline and block HTML: formatting kept through the sanitiser, the rest dropped by line


def test_inline_formatting_stays_html_and_base_url_rewrites_its_links() -> None:
    text = (
        "Peak <small>(measured)</small> is 3 W m<sup>-2</sup>, press <kbd>Ctrl</kbd>; see "
        '<a href="/docs/x">the docs</a> and <img src="img/icon.png" alt="icon" onerror="x()">.\n'
    )
    original = parse_markdown(text, base_url="https://e.org/blog/post/")
    assert units(original) == [
        (
            "paragraph",
            "Peak <small>(measured)</small> is 3 W m<sup>-2</sup>, press <kbd>Ctrl</kbd>; see "
            '<a href="https&#58;//e.org/docs/x">the docs</a> and '
            '<img src="https&#58;//e.org/blog/post/img/icon.png" alt="icon">.',
        )
    ]
    assert notes(original) == [(1, "HTML onerror attribute of <img> (text kept)")]
    # without --base-url the relative picture keeps its alt text (one warning says why)
    bare = parse_markdown(text)
    assert bare.chunks[0].text.endswith("<a>the docs</a> and icon.")


def test_markup_only_units_are_never_numbered() -> None:
    text = (
        "First.\n\n<br/><br/>\n\n<p></p>\n\n"
        '<div class="spacer"></div>\n\n&nbsp;\n\n<span> </span>\n\nLast.\n'
    )
    original = parse_markdown(text)
    assert units(original) == [("paragraph", "First."), ("paragraph", "Last.")]
    assert [line for line, _message in notes(original)] == [3, 5, 7, 9, 11]


def test_an_html_figure_is_a_candidate_and_its_caption_a_paragraph() -> None:
    text = (
        '<p align="center">\n  <img src="https://e.org/a.png" alt="Arch" width="60%"><br>\n'
        "  <small>Figure 1: The <b>architecture</b>.</small>\n</p>\n\n"
        '<figure><img src="https://e.org/b.png"><figcaption>Figure 2: Flow.</figcaption></figure>'
        "\n\n![](https://e.org/c.png)\n*Figure 3: Inline caption.*\n\n"
        "An ![icon](https://e.org/i.png) inside a sentence stays inline.\n"
    )
    original = parse_markdown(text)
    assert units(original) == [
        ("figure", "![Arch](https://e.org/a.png)"),
        ("paragraph", "<small>Figure 1: The <b>architecture</b>.</small>"),
        ("figure", "![](https://e.org/b.png)"),
        ("paragraph", "Figure 2: Flow."),
        ("figure", "![](https://e.org/c.png)"),
        ("paragraph", "*Figure 3: Inline caption.*"),
        ("paragraph", "An ![icon](https://e.org/i.png) inside a sentence stays inline."),
    ]


HOSTILE_HTML = (
    'Text <img src=x onerror=alert(1)> and <img src="https://e.org/a.png" onerror="alert(2)">.\n\n'
    '<a href="javascript:alert(3)">click</a> <a href="data:text/html,<script>x</script>">d</a> '
    '<a title="<img src=x onerror=alert(4)>" href="https://e.org">t</a> '
    '<span style="x" onmouseover="alert(5)">over</span> <b>unclosed <i>tags\n\n'
    "<svg><script>alert(6)</script><text>label</text></svg>\n\n"
    '<iframe src="https://evil.example/"></iframe>\n\n<style>body{display:none}</style>\n\n'
    '<div><p>Block <a href="vbscript:x">v</a> <img src=x:y onerror="z"></p><form action=x>'
    '<button formaction="javascript:alert(7)">b</button></form></div>\n\n'
    "<details open ontoggle=alert(8)><summary>More</summary>\n\nInside.\n\n</details>\n\n"
    '<table><tr><td onclick="alert(9)">cell `a` *b* [c](javascript:d)</td></tr></table>\n\n'
    + "<div>" * 10_000
    + "deep"
    + "\n\nAfter.\n"
)


def test_hostile_html_reaches_no_page_as_active_markup(
    make_site: Callable[..., Site], chdir: Callable[[Path], None]
) -> None:
    """The issue's hostile originals, imported with the CLI and built strictly: no script,
    no handler, no unsafe URL on the page, every drop reported by line, never a crash."""
    site = make_site(
        {"index.md": "# Home\n"}, markdown_extensions=["tables", "md_in_html", "attr_list"]
    )
    chdir(site.root)
    (site.root / "hostile.md").write_text(HOSTILE_HTML, "utf-8")
    result = CliRunner().invoke(
        main, ["import", "docs/h.md", "--from", "hostile.md", "--base-url", "https://e.org/p/"]
    )
    assert result.exit_code == 0, result.output
    report = result.stderr
    for dropped in (
        "hostile.md:1: dropped: HTML onerror attribute of <img>",
        "javascript: URL in <a href>",
        "hostile.md:5: dropped: HTML <svg>, <script> with its content",
        "ontoggle attribute of <details>",
        "hostile.md:7: dropped: HTML <iframe> with its content (https://evil.example/)",
        "hostile.md:9: dropped: HTML <style> with its content",
        "onclick attribute of <td>",
    ):
        assert dropped in report, (dropped, report)
    path = site.root / "docs" / "h.md"
    _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
    body = body.replace("<!-- duizhao:todo -->\n", "译者的导言。\n", 1)  # (the 导言)
    meta = yaml.safe_load(front)
    meta.setdefault("paper", {})["license"] = "MIT"
    path.write_text(f"---\n{yaml.safe_dump(meta)}---\n{body}", "utf-8")
    site.build(strict=True)
    page = site.html("h.md")
    article = page.split('<article class="md-content__inner', 1)[1].split("</article>")[0]
    tree = _Tree()
    tree.feed(article)
    own = [s for s in tree.scripts if "assets/duizhao/" not in s]
    assert not own, own
    for tag, name, value in tree.attrs:
        assert not name.startswith("on") and name not in ("style", "formaction", "srcdoc"), tag
        if name in ("href", "src", "action"):
            scheme = re.sub(r"[\x00-\x20]", "", value).lower().partition(":")
            assert not scheme[1] or scheme[0] in ("http", "https", "mailto"), value
    assert not {"svg", "iframe", "style", "form", "button", "math"} & tree.tags
    assert tree.depth < 20  # the 10,000 nested divs are one paragraph, not a tower
    for shown in (
        "Text",
        "click",
        "over",
        "unclosed tags",
        "Block",
        "More",
        "Inside.",
        "deep",
        "After.",
    ):
        assert shown in tree.text, shown


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str, str]] = []
        self.scripts: list[str] = []
        self.open: list[str] = []
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(tag, k, v or "") for k, v in attrs]
        if tag == "script":
            self.scripts.append(dict(attrs).get("src") or "inline")
        if tag not in ("br", "img", "hr", "input", "meta", "link", "wbr"):
            self.open.append(tag)
            self.depth = max(self.depth, len(self.open))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


HTML_PIECES = st.sampled_from(
    [
        "<b>",
        "</b>",
        "<i>",
        "<img src=x onerror=y>",
        '<a href="javascript:x">',
        "</a>",
        "<svg>",
        "<script>",
        "</script>",
        "<div>",
        "</div>",
        '<p onclick="x">',
        "<br>",
        "`",
        "*",
        "[",
        '<span title="a`b*c[d](e)">',
        "</span>",
        "<!--",
        "-->",
        "&lt;",
        "<small>",
        "x",
        " ",
        "\n",
        '<img src="https://e.org/a.png" alt="[x](javascript:y)">',
        "<details>",
        "<table><tr><td>",
    ]
)


@settings(
    max_examples=examples(40, 1200), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.lists(HTML_PIECES, max_size=30).map("".join))
def test_any_html_in_an_original_renders_without_active_markup(text: str) -> None:
    """Whatever HTML an original holds, the article renders (through Python-Markdown and
    duizhao's extension, raw HTML passed through) with nothing that runs."""
    original = parse_markdown(text, base_url="https://e.org/")
    result = import_chunks(new_article("T"), Path("a.md"), original.chunks or [Chunk("x")])
    page = markdown.markdown(
        result.data.decode().split("---\n", 2)[2],
        extensions=["duizhao", "tables", "md_in_html", "attr_list", "pymdownx.superfences"],
    )
    tree = _Tree()
    tree.feed(page)
    assert not tree.scripts and not {"svg", "iframe", "style"} & tree.tags, page
    for tag, name, value in tree.attrs:
        assert not name.startswith("on"), (tag, name, page)
        if name in ("href", "src"):
            assert not value.lower().startswith(("javascript", "data")), page


def test_the_sanitiser_reports_what_it_drops() -> None:
    result = sanitize_html(
        '<p onclick="x">a <Tip>b</Tip> <img src="data:image/png;base64,AA"></p><script>c</script>',
        inline=False,
    )
    assert result.html == "<p>a b </p>"
    assert result.dropped == (
        "onclick attribute of <p>",
        "<tip>",
        "data: URL in <img src>",
        "<script> with its content",
    )


# ---------------------------------------------------------------------------------------------
# MyST


MYST = """\
---
jupytext:
  text_representation: {format_name: myst}
---
(intro)=
# Serving at scale

% a comment for the authors

See {ref}`the intro <intro>`, {ref}`intro`, {func}`~jax.numpy.sum`, {math}`x^2`,
H{sub}`2`O and {doc}`the guide <guide/x>`.

```{figure} img/arch.png
:alt: The architecture
:width: 80%

Figure 1: The *architecture*.

A legend under it.
```

```{list-table} Results
:header-rows: 1

* - Model
  - Tokens/s
* - Llama
  - **42**
```

:::{note} Be careful
Text in a colon fence.
:::

```{warning}
No title here.
```

```{code-block} python
:linenos:
print("x")
```

```{eval-rst}
.. autofunction:: x
```

```{toctree}
a
b
```
"""


def test_myst_targets_roles_and_directives() -> None:
    original = parse_markdown(MYST, name="x.md", base_url="https://e.org/docs/")
    assert original.title == "Serving at scale"
    assert original.dialects[0].startswith("MyST (jupytext front matter")
    assert units(original) == [
        (
            "paragraph",
            "See [the intro](#serving-at-scale), [Serving at scale](#serving-at-scale), "
            "`sum()`, $x^2$, H<sub>2</sub>O and the guide.",
        ),
        ("figure", "![The architecture](https://e.org/docs/img/arch.png)"),
        ("paragraph", "Figure 1: The *architecture*."),
        ("paragraph", "A legend under it."),
        ("paragraph", "**Results**"),
        ("paragraph", "| Model | Tokens/s |\n| --- | --- |\n| Llama | **42** |"),
        ("paragraph", "**Be careful**"),
        ("paragraph", "Text in a colon fence."),
        ("paragraph", "No title here."),
        ("verbatim", '```python\nprint("x")\n```'),
    ]
    messages = [m for _line, m in notes(original)]
    assert "MyST target (intro)=" in messages
    assert "MyST comment 'a comment for the authors'" in messages
    assert "reStructuredText {eval-rst} '.. autofunction:: x'" in messages
    assert "MyST directive {toctree} 'a b'" in messages


# ---------------------------------------------------------------------------------------------
# R Markdown and Quarto

RMD = """\
---
title: "Tensors"
output: rmarkdown::html_vignette
vignette: >
  %\\VignetteIndexEntry{Tensors}
---

```{r, include = FALSE}
knitr::opts_chunk$set(collapse = TRUE)
```

Some `r 1 + 1` prose.

```{r}
x <- torch_randn(2)
```

```{r, echo=FALSE, fig.cap="A plot of x"}
knitr::include_graphics("plot.png")
```

```{r, echo=FALSE}
plot(x)
```
"""

QMD = """\
---
title: Quarto
---

::: {.callout-tip title="Read first"}
The callout's text.
:::

::: {.callout-note}
## A heading that titles it
Its text.
:::

::: {#fig-pair layout-ncol=2}
![Left](https://e.org/l.png){width=40%}

![Right](https://e.org/r.png){fig-align="center"}

Two views of the same thing.
:::

```{python}
#| echo: false
print("hidden")
```

```{python}
#| label: shown
print("shown")
```
"""


def test_r_markdown_chunks() -> None:
    original = parse_markdown(RMD, name="tensors.Rmd", base_url="https://e.org/a/")
    assert original.dialects[0].startswith("R Markdown (the .Rmd suffix")
    assert units(original) == [
        ("paragraph", "Some `r 1 + 1` prose."),
        ("verbatim", "```r\nx <- torch_randn(2)\n```"),
        ("figure", "![A plot of x](https://e.org/a/plot.png)"),
        ("paragraph", "A plot of x"),
    ]
    assert [m for _l, m in notes(original)] == [
        "{r} chunk the original's page does not show",
        "{r} chunk the original's page does not show",
    ]


def test_quarto_callouts_figures_and_chunk_options() -> None:
    original = parse_markdown(QMD, name="x.qmd")
    assert units(original) == [
        ("paragraph", "**Read first**"),
        ("paragraph", "The callout's text."),
        ("paragraph", "**A heading that titles it**"),
        ("paragraph", "Its text."),
        ("figure", "![Left](https://e.org/l.png)"),
        ("paragraph", "Left"),
        ("figure", "![Right](https://e.org/r.png)"),
        ("paragraph", "Right"),
        ("paragraph", "Two views of the same thing."),
        ("verbatim", '```python\nprint("shown")\n```'),
    ]


# ---------------------------------------------------------------------------------------------
# Hugging Face doc-builder, alerts, Docusaurus, MDX


DOC_BUILDER = """\
<!--Copyright 2024 The HuggingFace Team. All rights reserved.
-->

# Pipelines

Load a [`DiffusionPipeline`] with [`~loaders.LoraLoaderMixin.load_lora_weights`] and see
[`Trainer`][trainer] below.

<Tip warning={true}>

A tip with **bold** text.

</Tip>

<Tip>
A tip without blank lines.
</Tip>

<hfoptions id="backend">
<hfoption id="PyTorch">

PyTorch prose.

</hfoption>
</hfoptions>

> [!NOTE]
> An alert's text.

[[autodoc]] DiffusionPipeline
"""


def test_doc_builder_tips_references_options_and_alerts() -> None:
    original = parse_markdown(DOC_BUILDER, name="pipelines.md")
    assert original.title == "Pipelines"
    assert units(original) == [
        (
            "paragraph",
            "Load a `DiffusionPipeline` with `load_lora_weights` and see `Trainer` below.",
        ),
        ("paragraph", "A tip with **bold** text."),
        ("paragraph", "A tip without blank lines."),
        ("label", "**PyTorch**"),
        ("paragraph", "PyTorch prose."),
        ("paragraph", "An alert's text."),
    ]
    messages = [m for _l, m in notes(original)]
    assert messages[0].startswith("licence header (lines 1–2)")
    assert "alert marker '[!NOTE]'" in messages
    assert "doc-builder directive '[[autodoc]] DiffusionPipeline'" in messages


def test_docusaurus_admonitions_with_and_without_blank_lines() -> None:
    text = (
        ":::note Title on the line\nContent right after.\n:::\n\n"
        ":::tip[Bracketed title]\n\n- a list\n- in it\n\n:::\n\n"
        ":::warning\nNo title at all.\n:::\n"
    )
    original = parse_markdown(text, name="x.md")
    assert units(original) == [
        ("paragraph", "**Title on the line**"),
        ("paragraph", "Content right after."),
        ("paragraph", "**Bracketed title**"),
        ("paragraph", "- a list\n- in it"),
        ("paragraph", "No title at all."),
    ]
    assert "Docusaurus admonitions (':::note Title on the line' line 1" in original.dialects[0]


def test_mdx_components_keep_their_prose_children() -> None:
    text = (
        "import { Note } from '@site/components';\n\n"
        '<Note type="info">\nSome **prose** inside.\n</Note>\n\n'
        "<Callout>One line of prose.</Callout>\n\n"
        '<Youtube id="abc" />\n\n'
        'Text with an <Abbr title="x">inline component</Abbr>.\n\n'
        "{/* an MDX comment */}\n"
    )
    original = parse_markdown(text, name="x.mdx")
    assert units(original) == [
        ("paragraph", "Some **prose** inside."),
        ("paragraph", "One line of prose."),
        ("paragraph", "Text with an inline component."),
    ]
    messages = [m for _l, m in notes(original)]
    assert messages[0].startswith("include or MDX import")
    assert "MDX component tags '<Youtube id=\"abc\" />'" in messages
    assert "MDX comment '{/* an MDX comment */}'" in messages


def test_the_report_says_how_the_original_was_read(
    tmp_path: Path, chdir: Callable[[Path], None]
) -> None:
    chdir(tmp_path)
    (tmp_path / "x.md").write_text(MYST, "utf-8")
    result = CliRunner().invoke(main, ["import", "docs/a.md", "--from", "x.md"])
    assert result.exit_code == 0, result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        "import report for x.md (read as MyST (jupytext front matter (format_name: myst), "
        "target '(intro)=' line 5)): 8 paragraphs, 0 headings, 1 figure candidate,"
    )


@pytest.mark.parametrize(
    "text",
    [
        "```{figure} " + "a" * 200_000 + "\n```\n",
        ":::{note} " + " " * 200_000 + "x\n:::\n",
        "{func}`" + "x" * 200_000 + "`\n",
        "<Tip " + "a=b " * 50_000 + ">\n",
        "[`" + "a" * 100_000 + "`]\n",
        "```{r, " + "a=b, " * 40_000 + "}\nx\n```\n",
        ":::" * 70_000 + "\n",
        "(" + "a" * 200_000 + ")=\n",
    ],
    ids=[
        "figure path",
        "directive title",
        "role",
        "component",
        "reference",
        "chunk",
        "colons",
        "target",
    ],
)
def test_dialect_syntax_is_read_in_linear_time(text: str) -> None:
    original = parse_markdown(text, name="x.md")
    kept = "".join(c.text for c in original.chunks) + "".join(
        n.text + n.message for n in original.notes
    )
    assert kept.strip()
