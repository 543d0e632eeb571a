"""`duizhao renumber` and `duizhao update` follow every link form that lands on a renumbered
paragraph: raw HTML's ``href`` (HTML blocks and inline HTML), links to the built site
(``../a/#P042``, ``/duizhao/papers/a/#P042``, ``a.html#P042``, ``a/index.html#P042``), with
``use_directory_urls`` on and off and under ``site_url``'s path; and only those: external URLs,
another page's same-numbered anchors, code spans, fenced code, comments and link texts stay.

Each site is built before and after the write: every link of the built pages must land on the
paragraph (the same original) it landed on before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from conftest import Logs, Site
from duizhao.article import parse
from duizhao.cli import main
from duizhao.htmlscan import hrefs
from duizhao.siteurls import SiteUrls
from test_cli import project

A = """\
---
title: A
paper: {title: A paper, license: CC-BY-4.0}
paragraphs: P001-P003
status: draft
---

## 导言

引言，见 <a href="#P002">P002</a> 与 <a href="./#P003">第三段</a>。

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

C = """\
---
title: C
paper: {title: C paper, license: CC-BY-4.0}
paragraphs: P001-P002
---

## 导言

引言。

/// paragraph | P001
> Cee one.

丙一。
///

/// paragraph | P002
> Cee two.

丙二。
///
"""

#: links to A's P002 and P003 (P003 and P004 after the renumbering) from notes/b.md, in the
#: forms of the site with directory URLs under /duizhao/, and what must not change
B_DIRECTORY = """\
# B

[md](../../papers/a/#P002) [root](/duizhao/papers/a/#P003) [index](../../papers/a/index.html#P002)
[no slash](../../papers/a#P003) [source](../papers/a.md#P002) [P002](../../papers/a/#P002)

<div class="links">
<a href="../../papers/a/#P002">P002</a> <a class="x" href='/duizhao/papers/a/#P003'>三</a>
<a href=../../papers/a/#P003>bare</a>
<a href="../../papers/a/#P002"
   class="md-button">按钮</a>
</div>

行内 <a href="../../papers/a/#P002" title="P002">第二段 P002</a>，另一页 <a href="../../papers/c/#P002">丙</a>。

外部 <a href="https://other.example/duizhao/papers/a/#P002">x</a> [y](https://other.example/papers/a/#P002)
站外 [z](/elsewhere/papers/a/#P002) 与 `<a href="../../papers/a/#P002">` 与 <!-- <a href="../../papers/a/#P002"> -->

```html
<a href="../../papers/a/#P002">code</a>
```
"""

B_DIRECTORY_NEW = (
    B_DIRECTORY.replace("[md](../../papers/a/#P002)", "[md](../../papers/a/#P003)")
    .replace("[root](/duizhao/papers/a/#P003)", "[root](/duizhao/papers/a/#P004)")
    .replace("a/index.html#P002", "a/index.html#P003")
    .replace("(../../papers/a#P003)", "(../../papers/a#P004)")
    .replace("(../papers/a.md#P002)", "(../papers/a.md#P003)")
    .replace("[P002](../../papers/a/#P002)", "[P003](../../papers/a/#P003)")
    .replace('<a href="../../papers/a/#P002">P002</a>', '<a href="../../papers/a/#P003">P003</a>')
    .replace("href='/duizhao/papers/a/#P003'", "href='/duizhao/papers/a/#P004'")
    .replace("href=../../papers/a/#P003>", "href=../../papers/a/#P004>")
    .replace('<a href="../../papers/a/#P002"\n', '<a href="../../papers/a/#P003"\n')
    .replace('行内 <a href="../../papers/a/#P002"', '行内 <a href="../../papers/a/#P003"')
)

#: the same without directory URLs and without a site_url path
B_FILES = """\
# B

[html](../papers/a.html#P002) [root](/papers/a.html#P003) [folder](../papers/#P002)
<p><a href="../papers/a.html#P002">P002</a> <a href="/papers/a.html#P003">三</a></p>
另一页 <a href="../papers/c.html#P002">丙</a> 与 [目录式](../papers/a/#P002) `[x](../papers/a.html#P002)`
"""

B_FILES_NEW = (
    B_FILES.replace("[html](../papers/a.html#P002)", "[html](../papers/a.html#P003)")
    .replace("[root](/papers/a.html#P003)", "[root](/papers/a.html#P004)")
    .replace('<a href="../papers/a.html#P002">P002</a>', '<a href="../papers/a.html#P003">P003</a>')
    .replace('<a href="/papers/a.html#P003">', '<a href="/papers/a.html#P004">')
)

A_NEW = (
    A.replace("paragraphs: P001-P003", "paragraphs: P001-P004")
    .replace("/// paragraph | P003", "/// paragraph | P004")
    .replace("/// paragraph | P002", "/// paragraph | P003")
    .replace("/// paragraph | P???", "/// paragraph | P002")
    .replace('<a href="#P002">P002</a>', '<a href="#P003">P003</a>')
    .replace('<a href="./#P003">', '<a href="./#P004">')
)

#: MkDocs reports links to the built site ("../a/") as unrecognized: not these tests' concern
VALIDATION = {
    "links": {
        "anchors": "warn",
        "unrecognized_links": "info",
        "absolute_links": "info",
        "not_found": "info",
    }
}
#: the paper's folder index (papers/index.md): what ../papers/ lands on
INDEX = "# 论文\n"

_ANCHOR_RE = re.compile(r"<a\b[^>]*?\shref=(\"[^\"]*\"|'[^']*'|[^\s>]+)")
_ORIGINAL_RE = re.compile(r'<div class="dz-en" lang="en">(.*?)</div>', re.S)


def landings(site: Site, base: str, page: str) -> list[tuple[str, str | None]]:
    """(href, the original of the paragraph it lands on) for each link of the built
    ``page`` (a path under the site) to a paragraph anchor of this site, in order."""
    html = re.sub(r"<!--.*?-->", "", (site.site_dir / page).read_text(encoding="utf-8"), flags=re.S)
    here = urljoin(base, page.removesuffix("index.html"))
    found: list[tuple[str, str | None]] = []
    for m in _ANCHOR_RE.finditer(html):
        if "dz-pid" in m.group(0):
            continue  # a block's own number: not a link an author wrote
        href = unescape(m.group(1).strip("\"'"))
        url = urlsplit(urljoin(here, href))
        if not re.fullmatch(r"P[0-9]+", url.fragment) or not (
            url.scheme + "://" + url.netloc + url.path
        ).startswith(base):
            continue
        rel = url.path[len(urlsplit(base).path) :]
        target = site.site_dir / (rel + "index.html" if rel.endswith("/") or not rel else rel)
        if not target.is_file() and (site.site_dir / rel / "index.html").is_file():
            target = site.site_dir / rel / "index.html"  # a folder without its slash
        text = target.read_text(encoding="utf-8") if target.is_file() else ""
        at = text.find(f'id="{url.fragment}"')
        original = _ORIGINAL_RE.search(text, at) if at >= 0 else None
        found.append(
            (href, re.sub(r"<[^>]+>", "", original.group(1)).strip() if original else None)
        )
    return found


def _run(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stderr


@pytest.mark.parametrize(
    ("config", "notes", "expected", "base", "pages"),
    [
        (
            {"site_url": "https://example.org/duizhao/"},
            B_DIRECTORY,
            B_DIRECTORY_NEW,
            "https://example.org/duizhao/",
            ("notes/b/index.html", "papers/a/index.html"),
        ),
        (
            {"use_directory_urls": False},
            B_FILES,
            B_FILES_NEW,
            "https://example.org/",
            ("notes/b.html", "papers/a.html"),
        ),
    ],
    ids=["directory-urls-under-a-path", "file-urls"],
)
def test_every_link_form_still_lands_on_its_paragraph(
    make_site: Callable[..., Site],
    monkeypatch: pytest.MonkeyPatch,
    logs: Logs,
    config: dict[str, object],
    notes: str,
    expected: str,
    base: str,
    pages: tuple[str, ...],
) -> None:
    site = make_site(
        {
            "papers/a.md": A,
            "papers/c.md": C,
            "papers/index.md": INDEX,
            "notes/b.md": notes,
            "index.md": "# 首页\n",
        },
        validation=VALIDATION,
        **config,
    )
    site.build()
    logs.take(r"DZ001 malformed paragraph ID 'P\?\?\?'", 1)
    before = {page: landings(site, base, page) for page in pages}
    assert len([original for _, original in before[pages[0]] if original]) >= 5

    _run(site.root, monkeypatch, "renumber", "docs/papers/a.md", "--write")
    assert (site.docs / "notes/b.md").read_text(encoding="utf-8") == expected
    # "./" is the article's own page with directory URLs, papers/index.html without them
    own = A_NEW if "/duizhao/" in base else A_NEW.replace("./#P004", "./#P003")
    assert (site.docs / "papers/a.md").read_text(encoding="utf-8") == own
    site.build()
    after = {page: landings(site, base, page) for page in pages}
    for page in pages:
        assert [original for _, original in after[page]] == [o for _, o in before[page]], page
    assert "nothing to change" in _run(site.root, monkeypatch, "renumber", "docs/papers/a.md")


def test_update_follows_html_and_built_url_links(
    make_site: Callable[..., Site], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An update renumbers with the same planner: a new first paragraph moves every ID."""
    site = make_site(
        {
            "papers/a.md": A.replace("/// paragraph | P???\n> Inserted.\n\n插入。\n///\n\n", ""),
            "notes/b.md": '<p><a href="../../papers/a/#P002">二</a></p>\n[三](../../papers/a/#P003)\n',
            "index.md": "# 首页\n",
        },
        validation=VALIDATION,
    )
    (site.root / "new.md").write_text("Zero.\n\nOne.\n\nTwo.\n\nThree.\n", encoding="utf-8")
    site.build()
    before = landings(site, "http://127.0.0.1:8000/", "notes/b/index.html")
    err = _run(site.root, monkeypatch, "update", "docs/papers/a.md", "--from", "new.md", "--write")
    assert "3 → 4 paragraphs: 3 same, 1 new" in err
    assert (site.docs / "notes/b.md").read_text(encoding="utf-8") == (
        '<p><a href="../../papers/a/#P003">二</a></p>\n[三](../../papers/a/#P004)\n'
    )
    site.build()
    assert landings(site, "http://127.0.0.1:8000/", "notes/b/index.html") == [
        (href.replace("P003", "P004").replace("P002", "P003"), original)
        for href, original in before
    ]


@pytest.mark.parametrize(
    ("page", "href", "lands"),
    [
        ("notes/b.md", "../../papers/a/", "papers/a/"),
        ("notes/b.md", "../../papers/a", "papers/a/"),
        ("notes/b.md", "../../papers/a/index.html", "papers/a/"),
        ("notes/b.md", "/duizhao/papers/a/", "papers/a/"),
        ("notes/b.md", "/duizhao/papers/%61/", "papers/a/"),
        ("notes/b.md", "/papers/a/", None),  # outside the site's path
        ("notes/b.md", "../../../../papers/a/", None),  # above the site's root
        ("notes/index.md", "../papers/a/", "papers/a/"),
        ("notes/README.md", "./", "notes/"),
        ("index.md", "papers/", "papers/"),
        ("papers/a.md", "./", "papers/a/"),
        ("papers/a.md", ".", "papers/a/"),
        ("papers/a.md", "../c/", "papers/c/"),
    ],
)
def test_built_urls_land_where_a_browser_goes(page: str, href: str, lands: str | None) -> None:
    urls = SiteUrls.from_config({"site_url": "https://example.org/duizhao"})
    assert urls.prefix == "/duizhao/"
    assert urls.lands_on(page, href) == lands


def test_site_url_written_with_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdocs.yml's reader reads ``!ENV [SITE_URL, default]`` as a list (this project's own)."""
    monkeypatch.delenv("SITE_URL", raising=False)
    written = {"site_url": ["SITE_URL", "https://example.github.io/duizhao/"]}
    assert SiteUrls.from_config(written).prefix == "/duizhao/"
    assert SiteUrls.from_config({"site_url": "SITE_URL"}).prefix == "/"
    monkeypatch.setenv("SITE_URL", "http://127.0.0.1:8000/preview/")
    assert SiteUrls.from_config(written).prefix == "/preview/"
    assert SiteUrls.from_config({"site_url": "SITE_URL"}).prefix == "/preview/"


def _browser(urls: SiteUrls, src: str, href: str) -> str | None:
    """Where a browser goes (urllib's RFC 3986 join of the page's URL and the link), as a page
    URL of the site, or None off it: the model :meth:`SiteUrls.lands_on` must agree with."""
    page = "https://example.org" + urls.prefix + urls.page_url(src)
    url = urlsplit(urljoin(page, href))
    if not (url.path + "/").startswith(urls.prefix):
        return None
    rel = url.path[len(urls.prefix) :]
    if rel == "index.html" or rel.endswith("/index.html"):
        return rel.removesuffix("index.html")
    if urls.directory_urls and rel and not rel.endswith(("/", ".html")):
        return rel + "/"  # a folder without its slash: servers redirect
    return rel


_SEGMENTS = st.sampled_from(["..", ".", "papers", "a", "a.html", "notes", "index.html", "duizhao"])


@settings(max_examples=examples(300, 5000), deadline=None)
@given(
    directory=st.booleans(),
    prefix=st.sampled_from(["", "duizhao/", "a/b/"]),
    src=st.sampled_from(["index.md", "a.md", "papers/a.md", "papers/index.md", "notes/README.md"]),
    absolute=st.booleans(),
    segments=st.lists(_SEGMENTS, max_size=6),
    slash=st.booleans(),
)
def test_built_urls_land_as_a_browser_joins_them(
    directory: bool, prefix: str, src: str, absolute: bool, segments: list[str], slash: bool
) -> None:
    urls = SiteUrls.from_config(
        {"use_directory_urls": directory, "site_url": "https://example.org/" + prefix}
    )
    href = ("/" if absolute else "") + "/".join(segments) + ("/" if slash and segments else "")
    assert urls.lands_on(src, href) == _browser(urls, src, href), href


def test_file_urls_land_on_html_files() -> None:
    urls = SiteUrls.from_config({"use_directory_urls": False})
    assert (urls.prefix, urls.page_url("papers/a.md"), urls.page_url("papers/index.md")) == (
        "/",
        "papers/a.html",
        "papers/",
    )
    assert urls.lands_on("notes/b.md", "../papers/a.html") == "papers/a.html"
    assert urls.lands_on("notes/b.md", "../papers/index.html") == "papers/"
    assert urls.lands_on("notes/b.md", "../papers/a/") == "papers/a/"  # not a.html's URL


def test_hrefs_of_raw_html() -> None:
    line = (
        '<a title=\'href="#P9"\' href="#P1">P1</a> <!-- <a href="#P2"> --> '
        "<A HREF=#P3>x <b>y</b></A> <area href='#P4'> <a href>"
    )
    found = [(h.value, h.text, line[h.start : h.end]) for h in hrefs(line)]
    assert found == [("#P1", "P1", "#P1"), ("#P3", "", "#P3"), ("#P4", "", "#P4")]
    # a tag whose ">" is on a later line; not one in a comment or a quote left open
    assert [h.value for h in hrefs('<p>x</p> <a href="#P5"')] == ["#P5"]
    assert [h.value for h in hrefs('x <!-- <a href="#P6"')] == []
    assert [h.value for h in hrefs('<a title="x href="#P7"')] == []


def test_the_parser_finds_html_links_outside_code_and_comments() -> None:
    article = parse(
        '见 <a href="#P001">一</a> 与 `<a href="#P002">`\n\n'
        '<!--\n<a href="#P003">\n-->\n\n```\n<a href="#P004">\n```\n\n'
        "<div><a href='x.md#P005'>五</a></div>\n"
    )
    assert [(link.line, link.url, link.html) for link in article.links] == [
        (1, "#P001", True),
        (11, "x.md#P005", True),
    ]


def test_a_link_to_a_removed_paragraph_names_what_its_id_becomes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P002 is removed and a new paragraph takes its number: the link left as written will
    land on that new paragraph, and DZ305 says so (it said "nothing")."""
    root = project(
        tmp_path,
        {
            "docs/a.md": A.replace("/// paragraph | P???\n> Inserted.\n\n插入。\n///\n\n", ""),
            "docs/o.md": '# O\n\n<a href="../a/#P002">二</a>\n',
        },
    )
    (root / "new.md").write_text(
        "One.\n\nA wholly different paragraph about the scheduler's queues.\n\nThree.\n",
        encoding="utf-8",
    )
    err = _run(root, monkeypatch, "update", "docs/a.md", "--from", "new.md")
    assert "3 → 3 paragraphs: 2 same, 1 new, 1 removed" in err
    assert (
        "docs/o.md:3: DZ305 link to P002, which the new version of docs/a.md no longer has (its "
        "block goes to the removed file); it will point at another paragraph, P002: point it at "
        "the paragraph that took its place"
    ) in err


def test_an_html_link_to_a_shared_id_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A built-site link in raw HTML to an ID two blocks share cannot be followed: refused, as
    a Markdown link to it is, and named as written."""
    root = project(
        tmp_path,
        {
            "docs/a.md": A.replace("/// paragraph | P???", "/// paragraph | P002"),
            "docs/o.md": '# O\n\n<p><a href="../a/#P002">二</a></p>\n',
        },
    )
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["renumber", "docs/a.md", "--write"])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2:] == [
        'docs/o.md:3: DZ302 link <a href="../a/#P002"> is ambiguous: P002 is the ID of the '
        "blocks at lines 18, 24 of docs/a.md; give the inserted block a placeholder ID such as "
        "'/// paragraph | P???' so that renumber can tell them apart",
        "cannot renumber docs/a.md; nothing written",
    ]
    assert (root / "docs/o.md").read_text(encoding="utf-8").endswith('"../a/#P002">二</a></p>\n')
