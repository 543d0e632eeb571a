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
