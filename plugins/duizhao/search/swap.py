"""Swapping a new search index in at its place in the site, whole, whatever else happens.

The index is written beside its place (a staging folder), checked whole, then swapped in: the
old folder moved aside, the new one moved in, the old one removed. Two things could leave
half of that done:

- A signal between the two moves: the forked worker (:mod:`.worker`) turns SIGTERM into
  ``SystemExit`` wherever it is, and a build's SIGINT is ``KeyboardInterrupt``; either one
  there left no index at all (and the old one aside). :func:`signals_held` holds them until
  the swap is done, then lets them act.
- Another build of the same site swapping its own index in between the two moves (two
  ``mkdocs build`` at once, or one beside a ``mkdocs serve`` of the same folder): the second
  move then found the place taken and failed. The last build to swap wins; neither fails.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

#: The signals held while an index is swapped in.
HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: How many times a swap moves aside an index another build put in its place meanwhile.
SWAP_ATTEMPTS = 5
#: The move failed because the place holds a folder again (another build's index).
_TAKEN = (errno.ENOTEMPTY, errno.EEXIST)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold :data:`HELD_SIGNALS` that arrive meanwhile, then act on them as they would have
    acted (in the main thread, where Python's signal handlers run; elsewhere: nothing held,
    the thread is not interrupted by them)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(number: int, _frame: FrameType | None) -> None:
        caught.append(number)

    previous: dict[int, Callable[[int, FrameType | None], Any] | int] = {}
    for number in HELD_SIGNALS:
        handler = signal.getsignal(number)
        if handler is None:  # set outside Python: it could not be put back
            continue
        previous[number] = handler
        signal.signal(number, hold)
    try:
        yield
    finally:
        for held, handler in previous.items():
            signal.signal(held, handler)
        for arrived in dict.fromkeys(caught):
            signal.raise_signal(arrived)


def swap(staging: Path, target: Path) -> None:
    """Move the folder ``staging`` to ``target`` (a folder or nothing), removing what was
    there; :data:`HELD_SIGNALS` wait until it is done."""
    with signals_held():
        for _attempt in range(SWAP_ATTEMPTS):
            aside = _move_aside(target)
            try:
                os.replace(staging, target)
            except OSError as error:
                if aside is not None and not target.exists():
                    os.replace(aside / target.name, target)  # the old index stays
                if error.errno not in _TAKEN:
                    raise
                continue  # another build's index is there now: moved aside in its turn
            finally:
                if aside is not None:
                    shutil.rmtree(aside, ignore_errors=True)
            return
        raise OSError(errno.EBUSY, f"{target} was replaced {SWAP_ATTEMPTS} times meanwhile")


def _move_aside(target: Path) -> Path | None:
    """Move ``target`` into a new folder of its own beside it; that folder (None: there was
    no ``target``)."""
    if not target.exists():
        return None
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
    try:
        os.replace(target, aside / target.name)
    except FileNotFoundError:  # another build moved it first
        aside.rmdir()
        return None
    return aside
