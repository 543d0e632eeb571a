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
#: the schemes of a site's own full URLs
_WEB_SCHEMES = ("http", "https")


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
    #: the host of ``site_url`` (``example.org``, ``example.org:8443``), lower case: a full URL
    #: on it is a link to the site itself; "" when ``site_url`` is not set
    host: str = ""

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SiteUrls:
        """The settings of mkdocs.yml's data (values that are not what MkDocs takes: default)."""
        directory = config.get("use_directory_urls", True)
        site_url = _env(config.get("site_url"))
        parts = urlsplit(site_url) if isinstance(site_url, str) else None
        path = parts.path if parts else ""
        return cls(
            directory_urls=directory if isinstance(directory, bool) else True,
            prefix="/" + path.strip("/") + "/" if path.strip("/") else "/",
            host=parts.netloc.lower() if parts and parts.scheme in _WEB_SCHEMES else "",
        )

    def own_path(self, url: str) -> str | None:
        """The path (from the server's root, query and fragment left out) of ``url`` when it
        is a full URL of the site itself: ``https://example.org/duizhao/papers/x/`` under
        ``site_url: https://example.org/duizhao/`` is ``/duizhao/papers/x/`` (http or https,
        the host in any case, ``//example.org/…`` too). None for any other URL, and for every
        URL when ``site_url`` is not set."""
        if not self.host:
            return None
        try:
            parts = urlsplit("https:" + url if url.startswith("//") else url)
        except ValueError:  # ("http://[x" is no URL)
            return None
        if parts.scheme.lower() not in _WEB_SCHEMES or parts.netloc.lower() != self.host:
            return None
        return parts.path or "/"

    def page_url(self, src: str) -> str:
        """The URL of the page made of ``src`` (a docs-relative POSIX path of a Markdown file,
        or of an HTML page, published at its own path) from the site's root: ``papers/x/`` or
        ``papers/x.html``; ``""`` for the home page."""
        parent, name = posixpath.split(src)
        stem, suffix = posixpath.splitext(name)
        folder = parent + "/" if parent else ""
        if suffix != ".md":  # a page of its own (``x.html``): MkDocs copies it as it is
            return folder if name == _INDEX_FILE else src
        if stem in _INDEX_STEMS:
            return folder
        return f"{folder}{stem}/" if self.directory_urls else f"{folder}{stem}.html"

    def sources(self, url: str) -> list[str]:
        """The docs-relative Markdown files that may make the page at ``url`` (as
        :meth:`page_url` writes it), in MkDocs' order of preference: ``papers/x/`` is
        ``papers/x.md``, ``papers/x/index.md`` or ``papers/x/README.md``."""
        if url == "" or url.endswith("/"):
            found = [f"{url}{stem}.md" for stem in _INDEX_STEMS]
            if self.directory_urls and url:
                found.insert(0, url[:-1] + ".md")
            return found
        if not self.directory_urls and url.endswith(".html"):
            return [url[: -len(".html")] + ".md"]
        return []

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
