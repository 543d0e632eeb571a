"""A client of Pagefind's service (``pagefind --service``, the binary ``pagefind[extended]``
ships), speaking its protocol as the package's own client does: each request and each answer
is JSON, base64-encoded and ended by a comma, on the binary's stdin and stdout.

The package's client (``pagefind.service.PagefindService``) reads one answer every 0.1 s: the
documents of a 40-article site sent one at a time as its pages are built (317 of them) would
wait 32 s for their answers. It is also asyncio, where MkDocs' build is not. Here a thread
writes the requests (a request is queued, never waited for: the build goes on while Pagefind
indexes on the other core) and another reads the answers as they come; each request gives a
:class:`~concurrent.futures.Future` of its answer.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import io
import json
import os
import queue
import subprocess
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

#: How long closing waits for the binary to end once its stdin is closed, before killing it.
EXIT_SECONDS = 5.0
#: How much of the binary's output one read takes (an answer may hold a whole index's files).
READ_BYTES = 1 << 20


class ServiceError(Exception):
    """Pagefind's service answered with an error, or stopped before it answered."""


class Service:
    """One running ``pagefind --service``; :meth:`close` ends it (also as a context manager)."""

    def __init__(self, executable: Path) -> None:
        self._process = subprocess.Popen(
            [os.fspath(executable), "--service"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._lock = threading.Lock()
        self._answers: dict[int, Future[dict[str, Any]]] = {}
        self._last = 0
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._stopped: str | None = None
        self._writer = threading.Thread(target=self._write, daemon=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        try:
            self._writer.start()
            self._reader.start()
        except BaseException:  # no thread (a process at its limit): nothing would end it
            self._abandon()
            raise

    def request(self, payload: dict[str, Any]) -> Future[dict[str, Any]]:
        """Send ``payload`` (a request of Pagefind's protocol); the Future of its answer."""
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            if self._stopped is not None:
                future.set_exception(ServiceError(self._stopped))
                return future
            self._last += 1
            self._answers[self._last] = future
            message = json.dumps({"message_id": self._last, "payload": payload})
        self._outbox.put(base64.b64encode(message.encode("utf-8")) + b",")
        return future

    def close(self) -> None:
        """End the binary (its stdin closed; killed if it does not end) and fail what is
        still unanswered."""
        self._outbox.put(None)
        self._writer.join()
        try:
            self._process.wait(EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._reader.join()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._stop("Pagefind's service was closed")

    def _abandon(self) -> None:
        """End the binary and close its pipes, the threads not started or not all."""
        self._outbox.put(None)
        if self._writer.is_alive():
            self._writer.join()
        self._process.kill()
        self._process.wait()
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            while (data := self._outbox.get()) is not None:
                stdin.write(data)
                stdin.flush()
        except OSError:  # the binary ended: the reader fails what is unanswered
            pass
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def _read(self) -> None:
        stdout = self._process.stdout
        assert isinstance(stdout, io.BufferedReader)
        pending = b""
        while chunk := stdout.read1(READ_BYTES):
            *messages, pending = (pending + chunk).split(b",")
            for message in messages:
                self._answer(message)
        self._stop(f"Pagefind's service stopped (exit status {self._process.wait()})")

    def _answer(self, message: bytes) -> None:
        try:
            answer = json.loads(base64.b64decode(message, validate=True))
            ident, payload = answer.get("message_id"), answer["payload"]
        except (binascii.Error, ValueError, KeyError, TypeError, AttributeError):
            return  # not an answer (the binary's own output)
        with self._lock:
            future = self._answers.pop(ident, None) if isinstance(ident, int) else None
        if future is None:
            return
        if isinstance(payload, dict) and payload.get("type") == "Error":
            future.set_exception(ServiceError(str(payload.get("message") or "error")))
        else:
            future.set_result(payload if isinstance(payload, dict) else {})

    def _stop(self, reason: str) -> None:
        with self._lock:
            if self._stopped is None:
                self._stopped = reason
            unanswered, self._answers = list(self._answers.values()), {}
        for future in unanswered:
            future.set_exception(ServiceError(reason))
