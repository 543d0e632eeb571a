"""How often ``mkdocs serve`` looks for saved files (option ``serve_poll_interval``).

MkDocs 1.6 polls the watched files every 0.5 s (watchdog's ``PollingObserver``; it polls rather
than asking the OS so that Docker volumes, network mounts and symlinked folders work), and a
save then waits up to that long before the rebuild starts: on a small site that is most of the
save → reload time. With the option set, the server gets a polling observer of that interval
before anything is watched: the same way of watching, looking more often. ``on_serve`` is the
documented moment to change the server "before it is activated"; ``observer`` is a public
attribute of MkDocs' ``LiveReloadServer`` and ``emitters`` and ``timeout`` public properties of
watchdog's observers. Off by default: MkDocs' own interval is kept.
"""

from __future__ import annotations

from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import get_plugin_logger
from watchdog.observers.polling import PollingObserver

from .build import Build
from .features import Feature

log = get_plugin_logger(__name__)


class WatchFeature(Feature):
    def __init__(self, interval: float) -> None:
        self.interval = interval

    def on_serve(self, build: Build, server: LiveReloadServer) -> None:
        observer = server.observer
        if not isinstance(observer, PollingObserver) or observer.is_alive() or observer.emitters:
            # Another plugin (or a later MkDocs) watches already or watches otherwise: its
            # schedules live on that observer, so it is kept as it is.
            log.info(
                "serve_poll_interval is not applied: the server's file watcher is already in "
                "use; MkDocs' own interval stays"
            )
            return
        server.observer = PollingObserver(timeout=self.interval)
        log.debug("mkdocs serve polls the watched files every %s s", self.interval)
