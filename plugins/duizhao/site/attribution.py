"""Attribution: the source box from ``paper:`` front matter, the licence table, DZ201–DZ204.

Pure: no MkDocs import. A translation republishes someone else's work; the licences that allow
it (CC BY and friends) ask for the title, the authors, a link, the licence with its link, and a
statement of what was changed. The box says all of that in the page, next to the title.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..article import Article
from ..diagnostics import Diagnostic, Severity

#: String fields of ``paper:`` (all optional).
FIELDS = ("title", "authors", "url", "version", "branch", "commit", "license", "changes")


@dataclass(frozen=True)
class Licence:
    spdx: str
    #: the short name the licence itself uses ("CC BY 4.0")
    short: str
    #: the official full name ("Creative Commons Attribution 4.0 International")
    name: str
    url: str
    #: may others publish adaptations (a translation is one)?
    adaptations: bool = True
    #: must an adaptation say what was changed?
    indicate_changes: bool = True


def _cc(code: str, short: str, name: str, version: str = "4.0", **kw: Any) -> Licence:
    spdx = f"CC-{code.upper()}-{version}"
    url = f"https://creativecommons.org/licenses/{code}/{version}/"
    return Licence(spdx, f"CC {short} {version}", name, url, **kw)


#: Common licences of papers and code, by SPDX id (https://spdx.org/licenses/).
LICENCES: dict[str, Licence] = {
    lic.spdx: lic
    for lic in (
        _cc("by", "BY", "Creative Commons Attribution 4.0 International"),
        _cc("by-sa", "BY-SA", "Creative Commons Attribution-ShareAlike 4.0 International"),
        _cc("by-nc", "BY-NC", "Creative Commons Attribution-NonCommercial 4.0 International"),
        _cc(
            "by-nc-sa",
            "BY-NC-SA",
            "Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International",
        ),
        _cc(
            "by-nd",
            "BY-ND",
            "Creative Commons Attribution-NoDerivatives 4.0 International",
            adaptations=False,
        ),
        _cc(
            "by-nc-nd",
            "BY-NC-ND",
            "Creative Commons Attribution-NonCommercial-NoDerivatives 4.0 International",
            adaptations=False,
        ),
        _cc("by", "BY", "Creative Commons Attribution 3.0 Unported", version="3.0"),
        _cc("by-sa", "BY-SA", "Creative Commons Attribution-ShareAlike 3.0 Unported", "3.0"),
        Licence(
            "CC0-1.0",
            "CC0 1.0",
            "CC0 1.0 Universal",
            "https://creativecommons.org/publicdomain/zero/1.0/",
            indicate_changes=False,
        ),
        Licence(
            "MIT",
            "MIT",
            "MIT License",
            "https://opensource.org/license/mit",
            indicate_changes=False,
        ),
        Licence(
            "Apache-2.0",
            "Apache-2.0",
            "Apache License 2.0",
            "https://www.apache.org/licenses/LICENSE-2.0",
        ),
        Licence(
            "BSD-3-Clause",
            "BSD-3-Clause",
            'BSD 3-Clause "New" or "Revised" License',
            "https://opensource.org/license/bsd-3-clause",
            indicate_changes=False,
        ),
        # arXiv's default licence lets arXiv distribute the paper; it grants readers nothing.
        Licence(
            "LicenseRef-arXiv-nonexclusive-distrib-1.0",
            "arXiv non-exclusive-distrib 1.0",
            "arXiv.org perpetual, non-exclusive license 1.0",
            "https://arxiv.org/licenses/nonexclusive-distrib/1.0/license.html",
            adaptations=False,
        ),
    )
}


def find_licence(spdx: str) -> Licence | None:
    return LICENCES.get(spdx)


def _suggest(spdx: str) -> str | None:
    """The table's spelling of ``spdx`` written with other case or spaces ("cc by 4.0")."""
    key = spdx.replace(" ", "-").casefold()
    return next((k for k in LICENCES if k.casefold() == key), None)


def paper_fields(article: Article) -> dict[str, str]:
    """The usable string fields of ``paper:`` (numbers such as ``version: 6`` become text)."""
    out: dict[str, str] = {}
    for key in FIELDS:
        value = article.paper.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = "、".join(value)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            text = str(value).strip()
            if text:
                out[key] = text
    return out


def _is_web_url(url: str) -> bool:
    return url.startswith(("https://", "http://"))


def changes_statement(article: Article, fields: Mapping[str, str]) -> str:
    """What the translation changed: the author's ``changes:``, else what the article shows."""
    if "changes" in fields:
        return fields["changes"]
    done = []
    if article.paragraphs:
        done.append("将原文译为中文")
    if article.figures:
        done.append("裁切并收录了原图")
    if article.intro:
        done.append("加入了译者的导言与注释")
    if not done:
        done.append("以中文介绍并解读原文")
    return "本文" + "，".join(done) + "；改动不代表原作者观点。"


def source_box(article: Article) -> str:
    """The HTML of the source box, or "" when the article names no source."""
    from ..escape import html_attr, html_text  # (markupsafe: not needed by `duizhao check`)

    fields = paper_fields(article)
    if not fields:
        return ""
    rows: list[str] = []
    title: str = html_text(fields.get("title", "原文"))
    url = fields.get("url", "")
    if _is_web_url(url):
        title = f'<a href="{html_attr(url)}">{title}</a>'
    rows.append(
        f'<p class="dz-source__title"><span class="dz-source__label">来源</span>{title}</p>'
    )
    if "authors" in fields:
        rows.append(f"<p>作者：{html_text(fields['authors'])}</p>")
    version = [fields[k] for k in ("version",) if k in fields]
    if "branch" in fields:
        version.append(f"分支 {fields['branch']}")
    if "commit" in fields:
        version.append(f"commit {fields['commit']}")
    if version:
        rows.append(f"<p>版本：{html_text(' · '.join(version))}</p>")
    spdx = fields.get("license")
    licence = find_licence(spdx) if spdx else None
    if licence is not None:
        rows.append(
            f'<p>许可：<a href="{html_attr(licence.url)}" rel="license">'
            f"{html_text(licence.short)}</a>"
            f"（{html_text(licence.name)}）</p>"
        )
    elif spdx:
        rows.append(f"<p>许可：{html_text(spdx)}</p>")
    else:
        rows.append("<p>许可：未注明</p>")
    if "changes" in fields or licence is None or licence.indicate_changes:
        rows.append(f"<p>改动说明：{html_text(changes_statement(article, fields))}</p>")
    body = "\n".join(rows)
    return f'<aside class="dz-source" aria-label="来源与许可">\n{body}\n</aside>\n'


def insert_box(page_html: str, box: str) -> str:
    """``box`` right after the page's first ``</h1>`` (or first of all when there is none)."""
    if not box:
        return page_html
    at = page_html.find("</h1>")
    if at < 0:
        return box + page_html
    at += len("</h1>")
    return page_html[:at] + "\n" + box + page_html[at:]


# --------------------------------------------------------------------------------------------
# Checks


def _warn(article: Article, code: str, message: str) -> Diagnostic:
    line = article.meta_lines.get("paper", 1)
    return Diagnostic(article.path, line, code, message)


def check_attribution(article: Article) -> Iterator[Diagnostic]:
    """DZ201 no licence, DZ202 unknown licence, DZ203 no adaptations allowed, DZ204 bad field."""
    example = "paper: {title: ..., license: CC-BY-4.0}"
    raw = article.meta.get("paper")
    if raw is not None and not isinstance(raw, dict):
        yield _warn(
            article,
            "DZ204",
            f"'paper: {raw}' is not a mapping; write the source's fields under it, as in "
            f"'{example}'",
        )
    for key, value in article.paper.items():
        if key in FIELDS and not isinstance(value, (str, int, float, list)):
            yield _warn(article, "DZ204", f"'paper.{key}' should be text, not {value!r}")
    fields = paper_fields(article)
    url = fields.get("url")
    if url is not None and not _is_web_url(url):
        yield _warn(
            article,
            "DZ204",
            f"'paper.url: {url}' is not a web address; write it as 'url: https://arxiv.org/abs/…'",
        )
    spdx = fields.get("license")
    if spdx is None:
        if article.paragraphs or article.figures:
            yield _warn(
                article,
                "DZ201",
                "article republishes paragraphs or figures but names no licence; add the "
                "source's licence as an SPDX id under 'paper:', as in "
                f"'{example}'",
            )
        return
    licence = find_licence(spdx)
    if licence is None:
        hint = _suggest(spdx)
        known = ", ".join(sorted(LICENCES))
        yield _warn(
            article,
            "DZ202",
            f"unknown licence 'license: {spdx}'; "
            + (f"write 'license: {hint}'" if hint else f"use an SPDX id, one of: {known}"),
        )
    elif not licence.adaptations:
        yield _warn(
            article,
            "DZ203",
            f"'license: {spdx}' ({licence.short}) does not allow publishing adaptations, and a "
            "translation is one; ask the authors for permission and record it in "
            "'paper.changes', or do not publish the translation",
        )
