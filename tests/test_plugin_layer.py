"""The plugin layer's own mechanisms: the search index a dirty build leaves, block elements out
of paragraphs, the Open Graph locale, and public interfaces only (generated pages and dirty
rebuilds are tested through real builds in test_site.py and test_progress.py)."""

from __future__ import annotations

import json
import re

from conftest import ROOT
from duizhao.markdown import unwrap_blocks
from duizhao.search.index import IndexText, fresh_entries, split_index
from duizhao.site.social import locale


def entry(location: str, text: str = "") -> dict[str, str]:
    return {"location": location, "title": location, "text": text}


def test_index_text_is_cut_into_entries_by_page() -> None:
    entries = [entry(""), entry("#x", 'a "{\\"location\\":\\"" b'), entry("a/"), entry('q"/#P001')]
    text = json.dumps({"config": {"lang": ["zh"]}, "docs": entries}, separators=(",", ":"))
    index = split_index(text)
    assert index is not None
    assert [page for page, _ in index.entries] == ["", "", "a/", 'q"/']
    assert [json.loads(t) for _, t in index.entries] == entries
    assert index.join(t for _, t in index.entries) == text
    assert split_index('{"config":{},"docs":[]}') == IndexText('{"config":{},"docs":[', [], "]}")
    assert split_index('{"docs":[{"title":"x"}]}') is None  # another layout: parse it instead


def test_fresh_entries_undo_materials_dirty_merge() -> None:
    def pages(*urls: str) -> list[tuple[str, str]]:
        return [(url, url) for url in urls]

    # Material keeps the previous entries that do not start with the first new location,
    # then appends this build's entries: here b/ was rendered again
    assert fresh_entries(pages("", "", "a/", "b/", "b/"), "b/") == pages("b/", "b/")
    # the home page's location "" starts every location: Material wrote this build's alone
    assert fresh_entries(pages("", "a/"), "") == pages("", "a/")
    assert fresh_entries(pages("", "a/"), None) == []  # nothing rendered, nothing fresh


def test_block_elements_leave_the_paragraph_around_them() -> None:
    code = '<div class="highlight"><pre><code>x</code></pre></div>'
    assert unwrap_blocks(f"<p>{code}\n译文。</p>") == f"{code}\n<p>译文。</p>"
    assert unwrap_blocks(f"<p>甲：\n{code}</p>") == f"<p>甲：</p>\n{code}"
    assert unwrap_blocks("<p><div><div>a</div></div></p>") == "<div><div>a</div></div>"
    assert (
        unwrap_blocks('<p data-x="1">a<hr>b</p>')
        == '<p data-x="1">a</p>\n<hr>\n<p data-x="1">b</p>'
    )
    plain = "<p>a <b>b</b> <code>&lt;div&gt;</code></p>"
    assert unwrap_blocks(plain) == plain


def test_open_graph_locale_follows_the_site_language() -> None:
    assert locale("zh") == "zh_CN"
    assert locale("en") == "en_US"
    assert locale("zh-TW") == "zh_TW"
    assert locale("pt_BR") == "pt_BR"
    assert locale("xx") == "xx"


#: attributes of MkDocs' File and Material's search plugin that earlier versions of duizhao wrote
_THEIRS = {
    "search_index",
    "search_index_prev",
    "entries",
    "content_bytes",
    "content_string",
    "abs_src_path",
    "abs_dest_path",
    "dest_uri",
    "url",
    "generated_by",
}


def test_no_private_attribute_of_mkdocs_or_material_is_written() -> None:
    """No assignment to a private attribute of another object, nor to the File and search
    plugin internals that a plugin must leave to MkDocs and Material."""
    for path in (ROOT / "plugins/duizhao").rglob("*.py"):
        text = path.read_text("utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            for target in re.findall(r"\b(\w+(?:\.\w+)+)\s*=(?!=)", line):
                owner, _, name = target.rpartition(".")
                if owner in ("self", "cls"):
                    continue  # duizhao's own state
                assert not name.startswith("_"), f"{path.name}:{number}: assigns {target}"
                assert name not in _THEIRS, f"{path.name}:{number}: assigns {target}"
        assert "os.utime" not in text, path.name
        assert not re.search(r"class \w+\((File|Page|SearchIndex)\)", text), path.name
