"""Loopback HTTP plumbing for the fake GitHub: replies, recorded requests, a threaded server,
signed-URL blob storage on its own port, and a fake clock."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

DOCS = "https://docs.github.com/rest"


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Recorded:
    """One request as the fake saw it (header names lower-cased)."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    status: int = 0


def json_reply(status: int, payload: Any, headers: dict[str, str] | None = None) -> Reply:
    data = json.dumps(payload).encode("utf-8")
    return Reply(
        status,
        data,
        {"content-type": "application/json; charset=utf-8", **(headers or {})},
    )


def error_reply(status: int, message: str, docs: str = DOCS, **extra: Any) -> Reply:
    return json_reply(status, {"message": message, **extra, "documentation_url": docs})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: LoopbackServer

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        reply = self.server.app(self.command, self.path, dict(self.headers.items()), raw)
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(reply.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply.body)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _serve

    def log_message(self, format: str, *args: Any) -> None:
        return


App = Callable[[str, str, dict[str, str], bytes], Reply]


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, app: App) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.app = app
        self._thread = threading.Thread(target=self.serve_forever, args=(0.01,), daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(timeout=5)


class FakeBlobStore:
    """Signed-URL blob storage on its own port (another origin than the API)."""

    def __init__(self) -> None:
        self.blobs: dict[str, bytes] = {}
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._server = LoopbackServer(self._handle)
        self.url = self._server.url

    def put(self, key: str, data: bytes) -> str:
        with self._lock:
            self.blobs[key] = data
        return f"{self.url}/blobs/{key}?sig=s3cr3t-signature&se=2099-01-01"

    def _handle(self, method: str, target: str, headers: dict[str, str], raw: bytes) -> Reply:
        parts = urlsplit(target)
        with self._lock:
            self.requests.append(
                Recorded(method, parts.path, parse_qs(parts.query), lower(headers), None)
            )
            key = parts.path.removeprefix("/blobs/")
            data = self.blobs.get(key)
        if data is None or "sig" not in parse_qs(parts.query):
            return Reply(403, b"<Error>AuthenticationFailed</Error>", {"content-type": "text/xml"})
        return Reply(200, data, {"content-type": "application/zip"})

    def stop(self) -> None:
        self._server.stop()


def lower(headers: dict[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


class FakeClock:
    """A clock that moves only when something sleeps on it; records every sleep."""

    def __init__(self, start: float = 1_714_568_000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
