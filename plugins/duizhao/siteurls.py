"""Where MkDocs publishes the pages of a docs tree, and which page a link to a built URL reaches.

Authors link to a paragraph through its source (``x.md#P042``, which MkDocs rewrites) or through
the site as built: ``../x/#P042`` with ``use_directory_urls`` (the default), ``x.html#P042``
without it, ``/duizhao/papers/x/#P042`` under ``site_url``'s path, and in raw HTML, which
MkDocs leaves as written, only so. ``duizhao renumber`` follows all of them: :class:`SiteUrls`
answers, as a browser would on the built site, which page such a link lands on. Pure: the
settings come from mkdocs.yml (:meth:`SiteUrls.from_config`), nothing is read here.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = ["SiteUrls"]

#: the names MkDocs publishes as a folder's own page (``README.md`` as ``index.md``)
_INDEX_STEMS = ("index", "README")
#: the file a server sends for a folder's URL
_INDEX_FILE = "index.html"


def _env(value: object) -> object:
    """A value written with MkDocs' ``!ENV`` tag, which mkdocs.yml's reader reads as its plain
    scalar or sequence: ``!ENV [SITE_URL, "https://…/"]`` is the first variable set, else the
    last item; ``!ENV SITE_URL`` the variable (a URL is never a bare name: it has a scheme)."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        names, default = (value[:-1], value[-1]) if len(value) > 1 else (value, None)
        return next((os.environ[n] for n in names if n in os.environ), default)
    if isinstance(value, str) and "://" not in value and value.isidentifier():
        return os.environ.get(value)
    return value


@dataclass(frozen=True)
class SiteUrls:
    """How a site's page URLs are made: MkDocs' ``use_directory_urls`` and ``site_url``."""

    #: ``x.md`` is published as ``x/`` (True, MkDocs' default) or as ``x.html``
    directory_urls: bool = True
    #: the path of ``site_url`` ("/duizhao/"), where links from the server's root start
    prefix: str = "/"

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SiteUrls:
        """The settings of mkdocs.yml's data (values that are not what MkDocs takes: default)."""
        directory = config.get("use_directory_urls", True)
        site_url = _env(config.get("site_url"))
        path = urlsplit(site_url).path if isinstance(site_url, str) else ""
        return cls(
            directory_urls=directory if isinstance(directory, bool) else True,
            prefix="/" + path.strip("/") + "/" if path.strip("/") else "/",
        )

    def page_url(self, src: str) -> str:
        """The URL of the page made of ``src`` (a docs-relative POSIX path of a Markdown file)
        from the site's root: ``papers/x/`` or ``papers/x.html``; ``""`` for the home page."""
        parent, name = posixpath.split(src)
        stem = posixpath.splitext(name)[0]
        folder = parent + "/" if parent else ""
        if stem in _INDEX_STEMS:
            return folder
        return f"{folder}{stem}/" if self.directory_urls else f"{folder}{stem}.html"

    def lands_on(self, src: str, href: str) -> str | None:
        """The page URL (as :meth:`page_url` writes it) that a link whose path is ``href`` (no
        fragment, no query; percent-escapes allowed), written on the page made of ``src``,
        reaches; None when it leaves the site (or names none of its page URLs' forms)."""
        href = unquote(href)
        if not href:
            return self.page_url(src)  # the page itself
        if href.startswith("/"):
            full = href
        else:
            page = self.page_url(src)
            full = self.prefix + page[: page.rfind("/") + 1] + href
        folder = href.endswith(("/", "/.", "/..")) or href in (".", "..")
        # A browser resolves "." and ".." the same way, and never climbs above the host's root.
        joined = posixpath.normpath(full)
        if joined.startswith("//"):
            joined = "/" + joined.lstrip("/")
        if folder and not joined.endswith("/"):
            joined += "/"
        if not (joined + "/").startswith(self.prefix):
            return None
        url = joined[len(self.prefix) :]
        if url.endswith(_INDEX_FILE) and (url == _INDEX_FILE or url.endswith("/" + _INDEX_FILE)):
            url = url[: -len(_INDEX_FILE)]
        elif self.directory_urls and url and not url.endswith(("/", ".html")):
            url += "/"  # a folder's URL without its slash: servers redirect to it
        return url
