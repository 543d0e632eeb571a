"""The block renderer, with and without MkDocs."""

from __future__ import annotations

import re
import textwrap

import markdown

from duizhao.markdown import DuizhaoExtension

EXTENSIONS = ["pymdownx.superfences", "pymdownx.blocks.details", "tables"]


def render(text: str) -> str:
    md = markdown.Markdown(extensions=[DuizhaoExtension(), *EXTENSIONS])
    return md.convert(textwrap.dedent(text))


def test_paragraph_block_renders_ids_languages_and_permalink() -> None:
    html = render(
        """
        /// paragraph | P001
        > Scaled-out **MoE** LLMs
        > create new challenges.

        规模化的 MoE 模型。

        - 列表
        ///
        """
    )
    assert html == textwrap.dedent(
        """\
        <div class="dz-para" data-dz-id="P001" id="P001"><a class="dz-pid" href="#P001" title="段落 P001 的链接">P001</a><div class="dz-en" lang="en">
        <p>Scaled-out <strong>MoE</strong> LLMs
        create new challenges.</p>
        </div>
        <div class="dz-zh" lang="zh-CN">
        <p>规模化的 MoE 模型。</p>
        <ul>
        <li>列表</li>
        </ul>
        </div>
        </div>"""
    )


def test_fenced_code_is_never_a_block() -> None:
    html = render(
        """
        ````markdown
        /// paragraph | P001
        text
        ///
        ````
        """
    )
    assert "dz-para" not in html
    assert "/// paragraph | P001" in html


def test_translation_only_block_and_nested_details() -> None:
    html = render(
        """
        /// paragraph | P002
        只有译文。

        /// details | 注
        内层
        ///
        ///

        after
        """
    )
    assert 'class="dz-para dz-para--zh-only"' in html
    assert 'lang="en"' not in html
    assert "<details>" in html and "<summary>注</summary>" in html
    assert html.rstrip().endswith("<p>after</p>")


def test_duplicate_and_malformed_ids_get_no_id_attribute() -> None:
    html = render(
        """
        /// paragraph | P001
        一
        ///

        /// paragraph | P001
        二
        ///

        /// paragraph | p3
        三
        ///
        """
    )
    assert len(re.findall(r'\sid="P001"', html)) == 1
    assert "dz-para--invalid" in html
    assert re.search(r'<span class="dz-pid">p3</span>', html)


def test_unclosed_block_is_closed_at_next_block() -> None:
    html = render(
        """
        /// paragraph | P001
        一

        /// paragraph | P002
        二
        ///
        """
    )
    assert html.count("data-dz-id=") == 2
    assert "///" not in html


def test_empty_links_get_paragraph_and_figure_text() -> None:
    html = render("见 [](#P042) 与 [](other.md#fig-3)，[原文](#P001)。\n")
    assert '<a href="#P042">P042</a>' in html
    assert '<a href="other.md#fig-3">图 3</a>' in html
    assert '<a href="#P001">原文</a>' in html


def test_extension_loads_by_name() -> None:
    html = markdown.markdown("/// paragraph | P001\n译文\n///\n", extensions=["duizhao"])
    assert 'id="P001"' in html


def test_empty_links_get_text_only_for_duizhaos_anchors_when_the_build_knows_them() -> None:
    """In a build, a site's own `[](#table-2)` to its heading "Table 2" stays empty; links to
    the anchors duizhao emits (here: on this page P001, on other.md fig-3) get their text."""
    ext = DuizhaoExtension()
    known = {"": frozenset({"P001"}), "other.md": frozenset({"fig-3"})}
    ext.link_anchors = lambda path: known.get(path, frozenset())
    md = markdown.Markdown(extensions=[ext, *EXTENSIONS])
    html = md.convert("[](#P001) [](#P002) [](#table-2) [](other.md#fig-3) [](plain.md#fig-3)\n")
    assert '<a href="#P001">P001</a>' in html and '<a href="other.md#fig-3">图 3</a>' in html
    for href in ("#P002", "#table-2", "plain.md#fig-3"):
        assert f'<a href="{href}"></a>' in html
