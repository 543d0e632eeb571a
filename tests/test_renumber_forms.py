"""`duizhao renumber` (and so `duizhao update`) follows the link forms the site tests of
tests/test_renumber_links.py leave out: an ``href`` on a later line than its ``<a``, the docs
folder's ``.html`` pages (copied to the site as they are), full URLs of the site itself
(``site_url`` + the page + ``#P042``); and leaves links in indented code blocks alone, as it
leaves those in fenced code. No site is built: the forms' landing is
:class:`duizhao.siteurls.SiteUrls`' (tested against a browser's join there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from duizhao.siteurls import SiteUrls
from test_cli import project, run

A = """\
---
title: A
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P003
status: draft
---

## 导言

引言。

/// paragraph | P001
> One.

一。
///

/// paragraph | P???
> Inserted.

插入。
///

/// paragraph | P002
> Two.

二。
///

/// paragraph | P003
> Three.

三。
///
"""

CONFIG = "docs_dir: docs\nsite_url: https://example.org/duizhao/\nplugins: [duizhao]\n"


def _renumber(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _out, err = run(["renumber", "docs/papers/a.md", "--write"], root, monkeypatch)
    assert code == 0, err


def test_an_href_on_a_later_line_than_its_tag_is_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = (
        '<a class="md-button"\n   href="../../papers/a/#P002">二</a>\n'
        "<a\n  title='x'\n  href='../../papers/a/#P003'\n>三</a>\n"
        '<a class="x">no href</a> href="../../papers/a/#P002" in prose\n'
    )
    root = project(tmp_path, {"docs/papers/a.md": A, "docs/notes/b.md": notes}, CONFIG)
    _renumber(root, monkeypatch)
    assert (root / "docs/notes/b.md").read_text(encoding="utf-8") == (
        '<a class="md-button"\n   href="../../papers/a/#P003">二</a>\n'
        "<a\n  title='x'\n  href='../../papers/a/#P004'\n>三</a>\n"
        '<a class="x">no href</a> href="../../papers/a/#P002" in prose\n'
    )


def test_links_in_an_html_page_of_the_docs_are_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = (
        "<!DOCTYPE html>\n<html><body>\n"
        '<p><a href="papers/a/#P002">二</a> <a\n href="/duizhao/papers/a/#P003">三</a></p>\n'
        '<p><a href="papers/c/#P002">another page</a></p>\n'
        "</body></html>\n"
    )
    files = {"docs/papers/a.md": A, "docs/links.html": page, "docs/papers/c.md": "# C\n"}
    root = project(tmp_path, files, CONFIG)
    _renumber(root, monkeypatch)
    assert (root / "docs/links.html").read_text(encoding="utf-8") == page.replace(
        "papers/a/#P003", "papers/a/#P004"
    ).replace("papers/a/#P002", "papers/a/#P003")


def test_full_urls_of_the_site_itself_are_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = (
        "[full](https://example.org/duizhao/papers/a/#P002) "
        '<a href="https://example.org/duizhao/papers/a/#P003">三</a>\n'
        "[other host](https://other.example/duizhao/papers/a/#P002) "
        "[other path](https://example.org/elsewhere/papers/a/#P002)\n"
    )
    root = project(tmp_path, {"docs/papers/a.md": A, "docs/notes/b.md": notes}, CONFIG)
    _renumber(root, monkeypatch)
    assert (root / "docs/notes/b.md").read_text(encoding="utf-8") == (
        "[full](https://example.org/duizhao/papers/a/#P003) "
        '<a href="https://example.org/duizhao/papers/a/#P004">三</a>\n'
        "[other host](https://other.example/duizhao/papers/a/#P002) "
        "[other path](https://example.org/elsewhere/papers/a/#P002)\n"
    )


def test_links_in_indented_code_are_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = (
        "An example of a link:\n\n"
        '    [code](../papers/a.md#P002) <a href="../../papers/a/#P002">code</a>\n\n'
        "- a list item\n\n"
        "    [in the item](../papers/a.md#P002)\n\n"
        "And [prose](../papers/a.md#P002).\n"
    )
    root = project(tmp_path, {"docs/papers/a.md": A, "docs/notes/b.md": notes}, CONFIG)
    _renumber(root, monkeypatch)
    assert (root / "docs/notes/b.md").read_text(encoding="utf-8") == notes.replace(
        "[in the item](../papers/a.md#P002)", "[in the item](../papers/a.md#P003)"
    ).replace("[prose](../papers/a.md#P002)", "[prose](../papers/a.md#P003)")


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("https://example.org/duizhao/papers/a/", "/duizhao/papers/a/"),
        ("HTTPS://Example.ORG/duizhao/papers/a/", "/duizhao/papers/a/"),
        ("http://example.org/duizhao/papers/a/", "/duizhao/papers/a/"),
        ("//example.org/duizhao/", "/duizhao/"),
        ("https://example.org:8443/duizhao/papers/a/", None),
        ("https://other.example/duizhao/papers/a/", None),
        ("mailto:someone@example.org", None),
    ],
)
def test_a_full_url_of_the_site_is_its_path(url: str, path: str | None) -> None:
    urls = SiteUrls.from_config({"site_url": "https://example.org/duizhao/"})
    assert urls.own_path(url) == path
    assert SiteUrls().own_path(url) is None  # no site_url: no URL is the site's own


def test_an_html_page_is_published_at_its_own_path() -> None:
    urls = SiteUrls()
    assert urls.page_url("links.html") == "links.html"
    assert urls.page_url("notes/index.html") == "notes/"
    assert urls.lands_on("links.html", "papers/a/") == "papers/a/"
    assert urls.lands_on("notes/x.html", "../papers/a/") == "papers/a/"


GOOD = """\
---
title: Good
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P002
status: complete
---

## 导言

引言 LINKS。

/// paragraph | P001
> One.

一。
///

/// paragraph | P002
> Two.

二。
///
"""


@pytest.mark.parametrize(
    ("config", "links", "broken"),
    [
        (
            "",
            "[b](../sub/b/#P002) [c](../sub/b/#P003) [d](/sub/b/#P009) [i](../sub/#P004)",
            ["../sub/b/#P003", "/sub/b/#P009", "../sub/#P004"],
        ),
        (
            "site_url: https://example.org/duizhao/\n",
            "[b](/duizhao/sub/b/#P002) [c](https://example.org/duizhao/sub/b/#P005) "
            "[off](/elsewhere/sub/b/#P007) [e](https://other.example/duizhao/sub/b/#P006)",
            ["https://example.org/duizhao/sub/b/#P005"],
        ),
        (
            "use_directory_urls: false\n",
            "[b](sub/b.html#P002) [c](sub/b.html#P003) [dir](sub/b/#P008)",
            ["sub/b.html#P003"],
        ),
    ],
    ids=["directory-urls", "site-url", "file-urls"],
)
def test_check_validates_links_to_the_built_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str, links: str, broken: list[str]
) -> None:
    """`duizhao check` reads a link to a page as built (``../b/#P042``, the site's full
    URL) as it reads ``b.md#P042``: an ID the article does not have is DZ008."""
    files = {
        "docs/a/index.md": GOOD.replace("LINKS", links),
        "docs/sub/b.md": GOOD.replace("LINKS", ""),
        "docs/sub/index.md": GOOD.replace("LINKS", ""),
    }
    if "use_directory_urls" in config:
        files = {"docs/a.md": files.pop("docs/a/index.md"), **files}
    root = project(tmp_path, files, "docs_dir: docs\n" + config)
    code, out, _err = run(["check"], root, monkeypatch)
    found = [line.split("(", 1)[1].split(")", 1)[0] for line in out.splitlines() if "DZ008" in line]
    assert found == broken, out
    assert code == (1 if broken else 0)
