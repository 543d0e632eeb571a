"""How often ``mkdocs serve`` looks for saved files (option ``serve_poll_interval``).

MkDocs 1.6 polls the watched files every 0.5 s (watchdog's ``PollingObserver``; it polls rather
than asking the OS so that Docker volumes, network mounts and symlinked folders work), and a
save then waits up to that long before the rebuild starts: on a small site that is most of the
save → reload time. MkDocs has no setting for it, but ``on_serve`` may return the server to
serve with: with the option set, duizhao returns a ``LiveReloadServer`` made with the same
arguments and ``polling_interval``, watching what the first one watched (read from the
watcher's public ``emitters``). The same way of watching, looking more often. Off by default.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import get_plugin_logger
from watchdog.observers.polling import PollingObserver

from .build import Build
from .features import Feature

log = get_plugin_logger(__name__)


class WatchFeature(Feature):
    def __init__(self, interval: float) -> None:
        self.interval = interval

    def on_serve(self, build: Build, server: LiveReloadServer) -> LiveReloadServer | None:
        observer = server.observer
        if not isinstance(observer, PollingObserver) or observer.is_alive():
            # A watcher of another kind, or one already running: not MkDocs' own as this
            # feature knows it, so it is kept.
            log.info("serve_poll_interval is not applied: the server watches in another way")
            return None
        if observer.timeout == self.interval:
            return None
        # (watchdog ≥ 5 keeps a watched file's own path as raw_path; path is its folder)
        watches = [(getattr(e.watch, "raw_path", e.watch.path), e.watch) for e in observer.emitters]
        installed = {
            os.path.abspath(d)
            for d in build.config.theme.dirs
            if not Path(d).resolve().is_relative_to(build.root.resolve())
        }
        if installed.intersection(os.path.abspath(path) for path, _watch in watches):
            # `--watch-theme`: Material's folder alone holds some 14,000 files; polling them
            # more often would keep a core busy. MkDocs' interval stays.
            log.info("serve_poll_interval is not applied while the installed theme is watched")
            return None
        host, port = server.server_address[:2]
        faster = LiveReloadServer(
            builder=server.builder,
            host=str(host),
            port=int(port),
            root=server.root,
            mount_path=server.mount_path,
            polling_interval=self.interval,
        )
        faster.error_handler = server.error_handler
        for path, watch in watches:
            faster.watch(path, recursive=watch.is_recursive)
        server.server_close()  # never bound (MkDocs binds in serve()): only its socket closes
        log.debug("mkdocs serve polls the watched files every %s s", self.interval)
        return faster
