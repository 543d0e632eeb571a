"""duizhao is neutral on real third-party Material sites (issue 11).

The sites are subsets of real projects (tests/data/sites/*/SOURCES.md): CleanRL's documentation
(English, Material's default Roboto font, MathJax for `pymdownx.arithmatex`, search), Hatch's
(Material's blog plugin generating archive and category pages, hooks, a theme override,
snippets appended to every page, `navigation.instant`, a plugins mapping instead of a list) and
TonyCrane's notebook (Chinese: `language: zh` with jieba-segmented search, KaTeX loaded by
the site itself, `font: false`, `content.code.annotate`, `navigation.indexes`, theme overrides,
`validation:` and `not_in_nav`), FastAPI's Spanish docs (built in `docs/es` from a config that
`INHERIT`s the English one, a hook that sets the language in `on_config` and adds untranslated
English pages, `extra.alternate`, Material's typeset plugin and preview extension) and
Material's own docs (annotations, `def_list`, a hook rewriting shortcodes, a home template,
mermaid rendered by Material, MathJax loaded by the one page with math). Each is built in
tmp_path without duizhao and with it, and every output file is compared: a page that uses no
duizhao syntax must come out byte for byte the same, and so must its search entries, the
sitemap and the 404 page; files may be added only for a page that uses duizhao and needs them. A made-up site (:data:`LOOKALIKES`) adds
what a real site may hold that looks like duizhao's syntax but is not.

The projects are built where there is no node_modules, so duizhao's default `vendor_dir` finds
neither KaTeX nor mermaid, as on a new user's machine. The `vendored` variants point it at this
checkout's packages: installing them must not change the outcome either.

"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from budget import LONG
from conftest import BASE_CONFIG, ROOT, Logs, Site, fresh_mkdocs_plugins
from html_checks import empty_paragraphs

SITES_DIR = ROOT / "tests" / "data" / "sites"
VENDOR = ROOT / "node_modules"
#: Both sides of a comparison are built "on" this date (the sitemap and its gzip header hold it).
BUILD_DATE = "1767225600"


@dataclass(frozen=True)
class ThirdPartySite:
    """A copy of a real site under tests/data/sites, and where its `search` plugin is listed."""

    name: str
    #: the line(s) of mkdocs.yml after which duizhao's entry goes
    after: str
    #: `plugins:` is a list (`- search`) or a mapping (`search: {}`)
    mapping: bool = False
    #: the folder under tests/data/sites (default: ``name``)
    folder: str = ""
    #: appended to mkdocs.yml on both sides of the comparison
    config_tail: str = ""
    #: the top-level `nav:` line before which a "Translations" section holding the translated
    #: page goes; "" for a site without `nav:` (MkDocs then lists the page itself)
    nav_before: str = ""
    #: a script the site loads to render math itself ("" when it renders none)
    math_script: str = ""
    #: the site reads math (`pymdownx.arithmatex`); else `$x$` stays text
    arithmatex: bool = True
    #: the configuration file that holds `plugins:` and `nav:` (relative to the site's folder)
    config: str = "mkdocs.yml"
    #: the configuration file the site is built with, in its folder (default: ``config``);
    #: another one when it inherits ``config`` (`INHERIT:`)
    build_config: str = ""
    #: the docs_dir the translated page goes into (relative to the site's folder)
    docs: str = "docs"
    #: what an author of the site puts at the top of a page with math: the site renders math
    #: only on the pages that load a renderer themselves ("" when the site renders it for all)
    page_math: str = ""

    @property
    def path(self) -> Path:
        return SITES_DIR / (self.folder or self.name)

    def built_with(self, root: Path) -> Path:
        """The configuration file a copy of the site at ``root`` is built with."""
        return root / (self.build_config or self.config)

    def entry(self, options: dict[str, object] | None) -> str:
        """The plugin entry as a user would type it, in the site's own style."""
        indent = "  " if self.mapping else "  - "
        if not options:
            return f"{indent}duizhao: {{}}\n" if self.mapping else f"{indent}duizhao\n"
        inner = " " * (len(indent) + 2)
        lines = "".join(f"{inner}{key}: {json.dumps(value)}\n" for key, value in options.items())
        return f"{indent}duizhao:\n{lines}"


#: Material's own docs: where their `search` entry ends
MATERIAL_SEARCH = (
    "  - search:\n"
    + r"""      separator: '[\s\u200b\-_,:!=\[\]()"`/]+|\.(?!\d)|&[lg]t;|(?!\b)(?=[A-Z][a-z])'"""
    + "\n"
)
MATHJAX_CDN = "https://unpkg.com/mathjax@3/es5/tex-mml-chtml.js"
#: how Material's own docs render math on the one page that has some (reference/math.md)
MATHJAX_PAGE = f"""\
<script id="MathJax-script" async src="{MATHJAX_CDN}"></script>
<script>
  window.MathJax = {{
    tex: {{
      inlineMath: [["\\\\(", "\\\\)"]],
      displayMath: [["\\\\[", "\\\\]"]],
      processEscapes: true,
      processEnvironments: true
    }},
    options: {{
      ignoreHtmlClass: ".*|",
      processHtmlClass: "arithmatex"
    }}
  }};
</script>
"""

SITES = {
    site.name: site
    for site in (
        ThirdPartySite(
            "cleanrl",
            after="plugins:\n  - search\n",
            nav_before="  - Community:\n",
            math_script="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js",
        ),
        # arithmatex without `generic: true` and no renderer: the site shows TeX as written
        ThirdPartySite("hatch", after="  search: {}\n", mapping=True, nav_before="  - Blog:\n"),
        ThirdPartySite(
            "tonycrane-note",
            after="plugins:\n  - search\n",
            nav_before="  - DevOps:\n",
            math_script="https://cdn.tonycrane.cc/utils/katex.min.js",
        ),
        ThirdPartySite(
            "lookalikes",
            after="plugins:\n  - search\n",
            math_script="https://unpkg.com/katex@0/dist/katex.min.js",
        ),
        # `INHERIT:` (es → en → env), a hook that sets the language (es) and site_url in
        # on_config, adds English pages the translation lacks and a banner to every page;
        # Material's typeset plugin and preview extension, `extra.alternate`
        ThirdPartySite(
            "fastapi-es",
            after="  search: null\n",
            mapping=True,
            config="docs/en/mkdocs.yml",
            build_config="docs/es/mkdocs.yml",
            docs="docs/es/docs",
            nav_before="- About:\n",
            arithmatex=False,
        ),
        # annotations, shortcodes rewritten by a hook, snippets, a home template, mermaid
        # rendered by Material itself, math rendered by a page that loads MathJax itself
        ThirdPartySite(
            "material-docs",
            after=MATERIAL_SEARCH,
            nav_before="  - Blog:\n",
            math_script=MATHJAX_CDN,
            page_math=MATHJAX_PAGE,
        ),
        ThirdPartySite(
            "lookalikes-no-directory-urls",
            after="plugins:\n  - search\n",
            folder="lookalikes",
            config_tail="use_directory_urls: false\n",
            math_script="https://unpkg.com/katex@0/dist/katex.min.js",
        ),
    )
}
CLEANRL = SITES["cleanrl"]

#: duizhao's options in each variant: as added, with the vendored packages, switched off.
PLUGINS: dict[str, dict[str, object] | None] = {
    "default": None,
    "vendored": {"vendor_dir": str(VENDOR)},
    "disabled": {"enabled": False},
}

#: One translated page, added (to docs and nav) on both sides of the comparison, on every site.
#: Its originals are sentences of CleanRL's index.md and dqn.md (MIT); it holds inline math (P002)
#: and display math (P003), which each site renders its own way (or not at all), and no figure.
TRANSLATION = "translations/overview.md"
TRANSLATION_PAGE = """\
---
title: CleanRL 概览（中文）
paper:
  title: CleanRL documentation
  url: https://docs.cleanrl.dev/
  license: MIT
paragraphs: P001-P003
status: complete
---

# CleanRL 概览（中文）

## 导言

CleanRL 文档首页与 DQN 指标说明的中文对照。

/// paragraph | P001
> CleanRL is a Deep Reinforcement Learning library that provides high-quality single-file
> implementation with research-friendly features.

CleanRL 是一个深度强化学习库，提供高质量的单文件实现，并带有便于研究的功能。
///

/// paragraph | P002
> `losses/td_loss`: the mean squared error (MSE) between the Q values at timestep $t$ and
> the Bellman update target estimated using the reward $r_t$.

`losses/td_loss`：时间步 $t$ 的 Q 值与用奖励 $r_t$ 估计的 Bellman 更新目标之间的均方误差（MSE）。
///

/// paragraph | P003
> Formally, it can be expressed by the equation below.
>
> $$
> J(\\theta^{Q}) = \\mathbb{E}_{(s,a,r,s') \\sim \\mathcal{D}} \\big[ (Q(s, a) - y)^2 \\big],
> $$

形式上，它可以写成下面的等式：

$$
J(\\theta^{Q}) = \\mathbb{E}_{(s,a,r,s') \\sim \\mathcal{D}} \\big[ (Q(s, a) - y)^2 \\big],
$$

其中 Bellman 更新目标为 $y = r + \\gamma \\, Q^{'}(s', a')$。
///
"""
TRANSLATION_URL = "translations/overview/"


# ---------------------------------------------------------------------------------------------
# Building


@pytest.fixture(autouse=True)
def _fixed_build_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", BUILD_DATE)


def make_project(
    where: Path,
    variant: str | None = None,
    *,
    translation: bool = False,
    site: ThirdPartySite = CLEANRL,
) -> Path:
    """A copy of ``site`` under ``where``, with duizhao's ``variant`` added after `search`;
    returns the configuration file to build it with."""
    root = where / "project"
    shutil.copytree(site.path, root)
    config = root / site.config
    text = config.read_text(encoding="utf-8")
    text += site.config_tail
    if variant is not None:
        text = _replace_once(text, site.after, site.after + site.entry(PLUGINS[variant]))
    if translation:
        page = root / site.docs / TRANSLATION
        page.parent.mkdir()
        front, _, body = TRANSLATION_PAGE.partition("---\n\n")
        page.write_text(f"{front}---\n\n{site.page_math}{body}", encoding="utf-8")
        if site.nav_before:
            indent = site.nav_before[: len(site.nav_before) - len(site.nav_before.lstrip())]
            section = f"{indent}- Translations:\n{indent}  - {TRANSLATION}\n"
            text = _replace_once(text, site.nav_before, section + site.nav_before)
    config.write_text(text, encoding="utf-8")
    assert not (root / "node_modules").exists()  # the default vendor_dir finds nothing
    return site.built_with(root)


def _replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def build_project(config: Path, *, strict: bool = True) -> Path:
    """Build ``config`` as a user does: in its folder (some extensions read paths relative to
    the working directory, e.g. `pymdownx.snippets`' `base_path`)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site_dir = next(p for p in config.parents if p.name == "project").parent / "site"
    cwd = os.getcwd()
    os.chdir(config.parent)
    fresh_mkdocs_plugins()  # a build of its own, as a `mkdocs build` process is
    try:
        build(load_config(str(config), site_dir=str(site_dir), strict=strict))
    finally:
        os.chdir(cwd)
    return site_dir


PlainBuilds = Callable[..., Path]


@pytest.fixture(scope="module")
def plain_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlainBuilds]:
    """Each site as its authors build it (once per module), optionally with the translation."""
    built: dict[tuple[str, bool], Path] = {}

    def plain_build(site: ThirdPartySite = CLEANRL, *, translation: bool = False) -> Path:
        key = (site.name, translation)
        if key not in built:
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("SOURCE_DATE_EPOCH", BUILD_DATE)
                where = tmp_path_factory.mktemp(f"plain-{site.name}{'-tr' * translation}")
                built[key] = build_project(make_project(where, translation=translation, site=site))
        return built[key]

    yield plain_build


TranslatedBuilds = Callable[[ThirdPartySite, str], Path]


@pytest.fixture(scope="module")
def translated_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TranslatedBuilds]:
    """Each site with the translated page and duizhao's ``variant`` (once per module)."""
    built: dict[tuple[str, str], Path] = {}

    def translated_build(site: ThirdPartySite, variant: str) -> Path:
        key = (site.name, variant)
        if key not in built:
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("SOURCE_DATE_EPOCH", BUILD_DATE)
                where = tmp_path_factory.mktemp(f"duizhao-{site.name}-{variant}")
                built[key] = build_project(
                    make_project(where, variant, translation=True, site=site)
                )
        return built[key]

    yield translated_build


@pytest.fixture
def plain_with_translation(plain_builds: PlainBuilds) -> Path:
    """CleanRL with the translated page, built without duizhao (its blocks stay text)."""
    return plain_builds(translation=True)


# ---------------------------------------------------------------------------------------------
# Comparing two builds


def files_of(site_dir: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site_dir).as_posix(): p.read_bytes()
        for p in sorted(site_dir.rglob("*"))
        if p.is_file()
    }


def diff_excerpt(path: str, before: bytes, after: bytes, lines: int = 14) -> str:
    if path.endswith(".gz"):
        return f"{path}: differs (compressed)"
    diff = difflib.unified_diff(
        before.decode("utf-8", "replace").splitlines(),
        after.decode("utf-8", "replace").splitlines(),
        f"plain/{path}",
        f"duizhao/{path}",
        n=0,
        lineterm="",
    )
    shown = [line[:160] for line in diff][: lines + 2]
    return "\n".join(shown)


def search_docs(files: dict[str, bytes]) -> tuple[object, list[dict[str, object]]]:
    index = json.loads(files["search/search_index.json"])
    return index["config"], index["docs"]


def page_of(location: object) -> str:
    return str(location).partition("#")[0]


def compare(
    plain: dict[str, bytes],
    other: dict[str, bytes],
    *,
    syntax_pages: frozenset[str] = frozenset(),
    allowed_new: Callable[[str], bool] = lambda path: False,
) -> list[str]:
    """What differs between two builds, beyond the pages that use duizhao syntax.

    ``syntax_pages`` are page URLs ("translations/overview/") whose HTML and search entries
    may differ; ``allowed_new`` says which files may be added (shared assets they need).
    """
    problems: list[str] = []
    syntax_files = {f"{url}index.html" for url in syntax_pages}
    for path in sorted(plain.keys() - other.keys()):
        problems.append(f"missing: {path}")
    added = sorted(other.keys() - plain.keys())
    # pages and specs first, then the assets (KaTeX alone brings some sixty files)
    unexpected = sorted(
        (path for path in added if not allowed_new(path)),
        key=lambda p: (p.startswith("assets/"), p),
    )
    if unexpected:
        problems.append(f"{len(unexpected)} files added: {', '.join(unexpected[:12])}")
    for path in sorted(plain.keys() & other.keys()):
        if plain[path] == other[path] or path in syntax_files:
            continue
        if path == "search/search_index.json":
            problems += compare_search(plain, other, syntax_pages)
            continue
        problems.append(diff_excerpt(path, plain[path], other[path]))
    return problems


def compare_search(
    plain: dict[str, bytes], other: dict[str, bytes], syntax_pages: frozenset[str]
) -> list[str]:
    """Search entries of the pages without duizhao syntax: the same, in the same order."""
    config, docs = search_docs(plain)
    other_config, other_docs = search_docs(other)
    problems = [] if config == other_config else [f"search config: {config} -> {other_config}"]
    kept = [d for d in docs if page_of(d["location"]) not in syntax_pages]
    other_kept = [d for d in other_docs if page_of(d["location"]) not in syntax_pages]
    changed = sorted(
        {page_of(d["location"]) for d in kept if d not in other_kept}
        | {page_of(d["location"]) for d in other_kept if d not in kept}
    )
    if changed:
        problems.append(f"search entries changed or added for pages: {changed[:8]}")
    elif kept != other_kept:
        before = [d["location"] for d in kept][:4]
        after = [d["location"] for d in other_kept][:4]
        problems.append(f"search entries reordered: {before}… -> {after}…")
    return problems


def shared_asset(path: str) -> bool:
    """A file a duizhao page may need: duizhao's own CSS/JS (not KaTeX, mermaid or specs)."""
    return (
        path.startswith("assets/duizhao/")
        and "/vendor/" not in path
        and path.endswith((".css", ".js"))
    )


# ---------------------------------------------------------------------------------------------
# Pages without duizhao syntax


def test_disabled_plugin_publishes_and_changes_nothing(
    tmp_path: Path, plain_with_translation: Path
) -> None:
    """The translated page too stays as a build without duizhao makes it (CleanRL without the
    page, disabled: test_pages_without_duizhao_syntax_are_byte_identical[cleanrl-disabled])."""
    site = build_project(make_project(tmp_path, "disabled", translation=True))
    assert compare(files_of(plain_with_translation), files_of(site)) == []


#: The sites a page-less comparison runs on with duizhao's vendored packages and switched off:
#: every site under ``make fuzz``; in the suite the two whose plugin entries differ in form
#: (CleanRL's list, Hatch's mapping), each site with the default entry (ten builds of 1-1.5 s
#: of CPU each less in the suite).
QUIET_VARIANT_SITES = list(SITES) if LONG else ["cleanrl", "hatch"]


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        (name, variant)
        for name in SITES
        for variant in ("default", "vendored", "disabled")
        if variant == "default" or name in QUIET_VARIANT_SITES
    ],
)
def test_pages_without_duizhao_syntax_are_byte_identical(
    tmp_path: Path, plain_builds: PlainBuilds, name: str, variant: str
) -> None:
    site = SITES[name]
    built = build_project(make_project(tmp_path, variant, site=site))
    problems = compare(files_of(plain_builds(site)), files_of(built))
    assert problems == [], "\n\n".join(problems)


# ---------------------------------------------------------------------------------------------
# One page uses duizhao: only it (and the assets it needs) may change


#: The sites the translated page is added to (each with directory URLs; the look-alikes have no
#: `nav:`, so MkDocs lists the page itself).
TRANSLATED_SITES = [
    "cleanrl",
    "hatch",
    "tonycrane-note",
    "lookalikes",
    "fastapi-es",
    "material-docs",
]
translated_variants = pytest.mark.parametrize("variant", ["default", "vendored"])
translated_sites = pytest.mark.parametrize("name", TRANSLATED_SITES)


@translated_variants
@translated_sites
def test_one_translated_page_changes_only_itself(
    plain_builds: PlainBuilds, translated_builds: TranslatedBuilds, name: str, variant: str
) -> None:
    site = SITES[name]
    built = files_of(translated_builds(site, variant))
    html = built[f"{TRANSLATION_URL}index.html"].decode()
    assert html.count('class="dz-para') == 3  # the blocks are rendered
    problems = compare(
        files_of(plain_builds(site, translation=True)),
        built,
        syntax_pages=frozenset({TRANSLATION_URL}),
        allowed_new=shared_asset,
    )
    assert problems == [], "\n\n".join(problems)


@translated_variants
@translated_sites
def test_translated_page_keeps_the_sites_language_fonts_and_math(
    plain_builds: PlainBuilds, translated_builds: TranslatedBuilds, name: str, variant: str
) -> None:
    site = SITES[name]
    built = translated_builds(site, variant)
    page = (built / TRANSLATION_URL / "index.html").read_text(encoding="utf-8")
    plain = plain_builds(site, translation=True)
    before = (plain / TRANSLATION_URL / "index.html").read_text(encoding="utf-8")
    problems = []
    # Language: the page stays in the site's; only the translation's own elements say zh-CN.
    # The <head> gains duizhao's stylesheet and early script and nothing else (no og:locale);
    # an article's description is its 导言 (README "Social previews"), in place of the site's.
    html_tag = re.search(r"<html [^>]*>", page)
    html_tag_before = re.search(r"<html [^>]*>", before)
    assert html_tag is not None and html_tag_before is not None
    if html_tag.group(0) != html_tag_before.group(0):
        problems.append(f"<html> changed: {html_tag_before.group(0)} -> {html_tag.group(0)}")
    lang = re.search(r'lang="([^"]+)"', html_tag.group(0))
    description = '<meta name="description" content="CleanRL 文档首页与 DQN 指标说明的中文对照。">'
    for tag in sorted(head_tags(page) - head_tags(before) - {description}):
        if "assets/duizhao/" not in tag and "data-dz-mode" not in tag:
            problems.append(f"<head> gained {tag[:120]}")
    for tag in sorted(head_tags(before) - head_tags(page)):
        if not tag.startswith('<meta name="description"'):
            problems.append(f"<head> lost {tag[:120]}")
    # Math: the site's own renderer stays, the blocks' math is the site's arithmatex output
    # exactly as without duizhao, and no second renderer is added.
    if site.math_script and f'src="{site.math_script}"' not in page:
        problems.append(f"the site's math renderer is gone: {site.math_script}")
    math = math_output(page)
    if len(math) != (7 if site.arithmatex else 0) or math != math_output(before):
        problems.append(f"math changed: {math_output(before)} -> {math}")
    renderers = [src for src in scripts(page) - scripts(before) if _RENDERER.search(src)]
    if renderers:
        problems.append(f"a second math renderer: {sorted(renderers)}")
    # Fonts: the site's (Material's Google Fonts link and the theme's variables, or none with
    # `font: false`) stay, and no stylesheet the page gains sets the font of the whole page.
    if fonts(page) != fonts(before):
        problems.append(f"fonts changed: {fonts(before)} -> {fonts(page)}")
    for href in added_stylesheets(before, page):
        css = (built / TRANSLATION_URL / href).resolve()
        for selector in page_font_rules(css.read_text(encoding="utf-8"), lang and lang.group(1)):
            problems.append(f"{href} sets the page font: {selector}")
    # No empty <p> in the article.
    problems += empty_paragraphs(article_of(page))
    assert problems == [], "\n".join(problems)


def head_tags(html: str) -> set[str]:
    """The elements of a page's <head> (each tag with its content, when it has some)."""
    head = html[: html.index("</head>")]
    return set(re.findall(r"<(?:script|style)\b.*?</(?:script|style)>|<[a-z]+\b[^>]*>", head, re.S))


def scripts(html: str) -> set[str]:
    return set(re.findall(r'<script [^>]*src="([^"]+)"', html))


#: a script that renders math: MathJax, KaTeX or duizhao's loader of KaTeX
_RENDERER = re.compile(r"mathjax|katex|/math\.js", re.I)


def math_output(html: str) -> list[str]:
    """What pymdownx.arithmatex made of the page's math, in order: generic spans and divs for
    KaTeX or MathJax, or MathJax's own script tags."""
    found = re.finditer(
        r'<script type="math/tex[^"]*">.*?</script>|<(span|div) class="arithmatex">\\[(\[].*?</\1>',
        article_of(html),
        re.S,
    )
    return [match.group(0) for match in found]


def fonts(html: str) -> list[str]:
    """The page's font settings: Google Fonts links and Material's font variables."""
    return re.findall(
        r'href="https://fonts\.googleapis\.com[^"]*"|--md-(?:text|code)-font:[^;"}]*', html
    )


def article_of(html: str) -> str:
    body = html[html.index('<article class="md-content__inner md-typeset">') :]
    return body[: body.index("</article>")]


def added_stylesheets(before: str, after: str) -> list[str]:
    def links(html: str) -> set[str]:
        return set(re.findall(r'<link rel="stylesheet" href="([^"]+)"', html))

    return sorted(href for href in links(after) - links(before) if "://" not in href)


#: Selectors that reach the whole page (not only duizhao's own elements).
_PAGE_WIDE = re.compile(r"(^|[\s>+~(,])(html|body|:root|\*)(?![\w-])")


def page_font_rules(css: str, lang: str | None = "en") -> list[str]:
    """Selectors of ``css`` that set the font of the page as a whole (of a page in ``lang``:
    ``:lang(en)`` reaches all of an English page)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = []
    for selectors, body in re.findall(r"([^{}@;]+)\{([^{}]*)\}", css):
        if not re.search(r"(^|;|\s)(font-family|--md-text-font(-family)?)\s*:", body):
            continue
        for selector in selectors.split(","):
            selector = " ".join(selector.split())
            site_wide = lang is not None and re.search(
                rf":lang\({re.escape(lang.split('-')[0])}(-[\w-]*)?\)", selector, re.I
            )
            if (_PAGE_WIDE.search(selector) or site_wide) and "dz-" not in selector:
                found.append(selector)
    return found


def test_page_font_rules_finds_page_wide_font_overrides() -> None:
    css = """
    /* body { font-family: x } in a comment */
    :root > body, :lang(zh) { --md-text-font-family: a; font-family: var(--x); }
    :lang(en) { font-family: b; }
    .md-typeset .dz-zh, [lang="zh-CN"] { font-family: c; }
    body { color: red; }
    """
    assert page_font_rules(css) == [":root > body", ":lang(en)"]


# ---------------------------------------------------------------------------------------------
# Missing vendor packages


MERMAID_AND_MATH = {
    "markdown_extensions": [
        {
            "pymdownx.superfences": {
                "custom_fences": [
                    {
                        "name": "mermaid",
                        "class": "mermaid",
                        "format": "!!python/name:pymdownx.superfences.fence_code_format",
                    }
                ]
            }
        },
        {"pymdownx.arithmatex": {"generic": True}},
    ],
}


def _unquote_tags(site: Site) -> None:
    config = site.root / "mkdocs.yml"
    tag = "!!python/name:pymdownx.superfences.fence_code_format"
    config.write_text(config.read_text("utf-8").replace(f"'{tag}'", tag), "utf-8")


def test_site_configured_for_diagrams_and_math_builds_strict_without_them(
    make_site: Callable[..., Site],
) -> None:
    article = (
        "---\ntitle: A\npaper: {title: P, license: MIT}\n---\n\n# A\n\n## 导言\n\n导言。\n\n"
        "/// paragraph | P001\n译文。\n///\n"
    )
    site = make_site(
        {"index.md": "# Home\n\nNo diagram, no math.\n", "a.md": article},
        plugins=[{"duizhao": {"vendor_dir": "node_modules"}}],  # relative: tmp_path has none
        **MERMAID_AND_MATH,
    )
    _unquote_tags(site)
    site.build(strict=True)
    assert 'id="P001"' in site.html("a.md")
    assert not (site.site_dir / "assets/duizhao/vendor").exists()


def test_only_a_page_needing_a_missing_package_is_warned_about(
    make_site: Callable[..., Site], logs: Logs
) -> None:
    article = (
        "---\ntitle: A\npaper: {title: P, license: MIT}\n---\n\n# A\n\n## 导言\n\n导言。\n\n"
        "/// paragraph | P001\n> $E = mc^2$\n\n译文 $E = mc^2$。\n///\n"
    )
    site = make_site(
        {"index.md": "# Home\n\nInline $x$ without duizhao syntax.\n", "a.md": article},
        plugins=[{"duizhao": {"vendor_dir": "node_modules"}}],
        **MERMAID_AND_MATH,
    )
    _unquote_tags(site)
    site.build()
    warned = logs.take(r"(?i)katex", count=1)
    assert "a.md" in warned[0] and "index.md" not in warned[0]
    assert 'id="P001"' in site.html("a.md")


# ---------------------------------------------------------------------------------------------
# A math renderer the site loads in its theme override


#: How sites load their renderer from `custom_dir` instead of `extra_javascript`.
OVERRIDE_RENDERERS = {
    "mathjax-script": '<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js">'
    "</script>",
    "katex-self-hosted": "<script defer src=\"{{ 'vendor/katex.min.js' | url }}\"></script>",
    "mathjax-config": "<script>window.MathJax = {tex: {inlineMath: [['\\\\(', '\\\\)']]}};</script>"
    '<script src="{{ base_url }}/js/tex-mml-chtml.js"></script>',
}
#: An override that loads other scripts and only mentions KaTeX: duizhao's KaTeX still comes.
OVERRIDE_WITHOUT_RENDERER = (
    "{# math: KaTeX, served by duizhao #}<script src=\"{{ 'js/extra.js' | url }}\"></script>"
)


@pytest.mark.parametrize("how", list(OVERRIDE_RENDERERS))
def test_site_rendering_math_in_its_theme_override_keeps_it(
    make_site: Callable[..., Site], how: str
) -> None:
    article = (
        "---\ntitle: A\npaper: {title: P, license: MIT}\n---\n\n# A\n\n## 导言\n\n导言。\n\n"
        "/// paragraph | P001\n> $E = mc^2$\n\n译文 $E = mc^2$。\n///\n"
    )
    site = make_site(
        {"a.md": article},
        theme={**BASE_CONFIG["theme"], "custom_dir": "overrides"},
        markdown_extensions=[
            *BASE_CONFIG["markdown_extensions"],
            {"pymdownx.arithmatex": {"generic": True}},
        ],
    )
    main = site.root / "overrides" / "main.html"
    main.parent.mkdir()
    renderer = OVERRIDE_RENDERERS[how]
    main.write_text(
        f'{{% extends "base.html" %}}\n{{% block libs %}}\n  {{{{ super() }}}}\n  {renderer}\n'
        "{% endblock %}\n",
        encoding="utf-8",
    )
    site.build(strict=True)
    html = site.html("a.md")
    assert 'id="P001"' in html and 'class="arithmatex"' in html
    assert "duizhao/math.js" not in html and "duizhao/vendor/" not in html  # no KaTeX of ours
    assert renderer.partition(">")[0].split("{{")[0] in html  # the site's own is there
    assert not (site.site_dir / "assets/duizhao/vendor").exists()

    main.write_text(main.read_text("utf-8").replace(renderer, OVERRIDE_WITHOUT_RENDERER), "utf-8")
    site.build(strict=True)
    assert "duizhao/math.js" in site.html("a.md")
    assert (site.site_dir / "assets/duizhao/vendor/katex/katex.min.js").is_file()


#: Hooks (run after every plugin) and plugins listed after duizhao that set up the site's math
#: in their `on_config`, as FastAPI's hook sets the site's language there.
CONFIG_HOOKS = {
    "renderer": "config.extra_javascript.append(" + repr(MATHJAX_CDN) + ")",
    "arithmatex-off": "config.mdx_configs['pymdownx.arithmatex'] = {'generic': False}",
}


@pytest.mark.parametrize("how", list(CONFIG_HOOKS))
def test_math_set_up_by_a_hook_is_respected(make_site: Callable[..., Site], how: str) -> None:
    article = (
        "---\ntitle: A\npaper: {title: P, license: MIT}\n---\n\n# A\n\n## 导言\n\n导言。\n\n"
        "/// paragraph | P001\n> $E = mc^2$\n\n译文 $E = mc^2$。\n///\n"
    )
    site = make_site(
        {"a.md": article},
        plugins=[{"duizhao": {"vendor_dir": "node_modules"}}],  # relative: tmp_path has none
        hooks=["hook.py"],
        markdown_extensions=[
            *BASE_CONFIG["markdown_extensions"],
            {"pymdownx.arithmatex": {"generic": True}},
        ],
    )
    (site.root / "hook.py").write_text(
        f"def on_config(config):\n    {CONFIG_HOOKS[how]}\n", encoding="utf-8"
    )
    site.build(strict=True)  # no warning about a missing KaTeX: the page does not need it
    html = site.html("a.md")
    assert 'id="P001"' in html
    assert "duizhao/math.js" not in html
    if how == "renderer":
        assert f'src="{MATHJAX_CDN}"' in html


def test_math_enabled_by_a_hook_reaches_the_intro(make_site: Callable[..., Site]) -> None:
    """The 导言 is shown as Markdown with the site's math: also when a hook turns math on."""
    article = (
        "---\ntitle: A\npaper: {title: P, license: MIT}\n---\n\n# A\n\n## 导言\n\n"
        "导言 $\\frac{a}{b}$。\n\n/// paragraph | P001\n译文。\n///\n"
    )
    site = make_site({"a.md": article}, hooks=["hook.py"])
    (site.root / "hook.py").write_text(
        "def on_config(config):\n"
        "    config.markdown_extensions.append('pymdownx.arithmatex')\n"
        "    config.mdx_configs['pymdownx.arithmatex'] = {'generic': True}\n",
        encoding="utf-8",
    )
    site.build(strict=True)
    intro = site.html("a.md").partition("导言")[2]
    assert '<span class="arithmatex">\\(\\frac{a}{b}\\)</span>' in intro  # math, not text


#: How a page loads its own renderer in its Markdown (Material's docs do so on their math page).
PAGE_RENDERERS = {
    "mathjax-page": MATHJAX_PAGE,
    "katex-page": '<script defer src="https://cdn.jsdelivr.net/npm/katex/dist/katex.min.js">'
    "</script>\n",
}


@pytest.mark.parametrize("how", list(PAGE_RENDERERS))
def test_page_loading_its_own_math_renderer_keeps_it(
    make_site: Callable[..., Site], logs: Logs, how: str
) -> None:
    # above the 导言 (raw HTML in it shows as text: README "Escaping")
    article = (
        f"---\ntitle: A\npaper: {{title: P, license: MIT}}\n---\n\n{PAGE_RENDERERS[how]}\n"
        "# A\n\n## 导言\n\n导言。\n\n"
        "/// paragraph | P001\n> $E = mc^2$\n\n译文 $E = mc^2$。\n///\n"
    )
    shown = '```html\n<script src="katex.min.js"></script>\n```\n'
    site = make_site(
        {"a.md": article, "b.md": article.replace(PAGE_RENDERERS[how], shown)},
        plugins=[{"duizhao": {"vendor_dir": "node_modules"}}],  # relative: tmp_path has none
        markdown_extensions=[
            *BASE_CONFIG["markdown_extensions"],
            "pymdownx.highlight",
            "pymdownx.superfences",
            {"pymdownx.arithmatex": {"generic": True}},
        ],
    )
    site.build()
    html = site.html("a.md")
    assert 'id="P001"' in html and 'class="arithmatex"' in html
    assert "duizhao/math.js" not in html  # the page's own renderer, not a second one
    # a page that only shows a renderer's <script> in code still needs KaTeX (here: missing)
    warned = logs.take(r"(?i)katex", count=1)
    assert "b.md" in warned[0] and "a.md" not in warned[0]


# ---------------------------------------------------------------------------------------------
# No empty <p> from paragraph blocks


def test_empty_paragraph_finder() -> None:
    assert empty_paragraphs("<p>a</p><p><b>b</b></p><p><img src=x></p>") == []
    assert empty_paragraphs("<p>\n</p>") == ["<p></p> at line 2"]
    assert empty_paragraphs("<p><div>x</div></p>") == [
        "<p> closed by <div> at line 1",
        "</p> without <p> (a browser makes an empty <p>)",
    ]


BLOCK_BODIES = {
    "code": "> Original.\n\n```python\nx = 1\n```\n",
    "code-first": "```python\nx = 1\n```\n译文。\n",
    "code-after-text": "> Original.\n\n译文：\n```python\nx = 1\n```\n",
    "code-in-original": "> Original:\n>\n> ```\n> x = 1\n> ```\n\n译文。\n",
    "code-right-after-original": "> Original:\n```\nx = 1\n```\n\n译文。\n",
    "html": '<div class="note">原样的 HTML</div>\n',
    "html-then-text": "<div>原样的 HTML</div>\n译文。\n",
    "html-in-original": "> <div>Original</div>\n\n译文。\n",
    "list": "> Original.\n\n- 一\n- 二\n",
    "list-after-text": "> Original.\n\n译文：\n- 一\n- 二\n",
    "table": "| a | b |\n| - | - |\n| 1 | 2 |\n",
    "table-after-text": "> Original.\n\n译文：\n| a | b |\n| - | - |\n| 1 | 2 |\n",
    "admonition": '> Original.\n\n!!! note "译注"\n    说明。\n',
    "admonition-block": "> Original.\n\n/// admonition | 译注\n    type: note\n说明。\n///\n",
    "details": "> Original.\n\n译文。\n\n/// details | 注\n内容\n///\n",
}


@pytest.mark.parametrize(
    "kind",
    list(BLOCK_BODIES),
)
def test_paragraph_blocks_leave_no_empty_p(make_site: Callable[..., Site], kind: str) -> None:
    front = "---\ntitle: A\npaper: {title: P, license: MIT}\nstatus: draft\n---\n\n"
    page = f"{front}# A\n\n## 导言\n\n导言。\n\n/// paragraph | P001\n{BLOCK_BODIES[kind]}///\n"
    extensions = [
        *BASE_CONFIG["markdown_extensions"],
        "pymdownx.highlight",
        "pymdownx.blocks.admonition",
    ]
    site = make_site({"a.md": page}, markdown_extensions=extensions)
    site.build()
    html = site.html("a.md")
    body = html[html.index('<article class="md-content__inner md-typeset">') :]
    body = body[: body.index("</article>")]
    assert 'id="P001"' in body
    assert empty_paragraphs(body) == []
