"""Assemble the viewer's one HTML file: markup, the inline style and script, the data, the CSP.

The page makes no request of any kind. Its Content-Security-Policy starts from
``default-src 'none'`` and allows exactly the one inline script and the one inline style, by
their SHA-256 hashes computed here, so nothing else can run even if text from a report reached
the markup (it does not: the script renders it with ``textContent`` and attribute setters).

The data (:func:`~fairwitness.view._data.build_data`) is JSON, gzipped and base64-encoded into a
``<script type="application/octet-stream">`` block, which the browser never runs; the script
reads it, decompresses it with ``DecompressionStream('gzip')`` and parses it. Base64 has no
``<``, so the block cannot be closed early; :func:`embed` checks that as well, and escapes
``</``, U+2028 and U+2029 in any text it is given to embed.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any, Final

CSP_BASE: Final = "default-src 'none'; base-uri 'none'; form-action 'none'; img-src data:"
"""The policy's fixed part; the script and style hashes are added to it."""


@cache
def asset(name: str) -> str:
    """A static file shipped with the package (``view/static/NAME``)."""
    return (resources.files("fairwitness.view") / "static" / name).read_text(encoding="utf-8")


def csp_hash(text: str) -> str:
    """The CSP source expression (``'sha256-...'``) allowing the inline block ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def script_safe(text: str) -> str:
    """``text`` made safe inside a ``<script>`` element: ``</`` and the two JavaScript line
    separators escaped, so it can neither close the element nor break a string literal."""
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def encode(data: dict[str, Any]) -> str:
    """``data`` as JSON, gzipped (reproducibly: no timestamp) and base64-encoded."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    packed = gzip.compress(raw.encode("utf-8"), compresslevel=6, mtime=0)
    return base64.b64encode(packed).decode("ascii")


def embed(payload: str) -> str:
    """The data block holding ``payload`` (base64 text)."""
    if "<" in payload:
        raise ValueError("the data block must hold base64 text only")
    safe = script_safe(payload)
    return f'<script type="application/octet-stream" id="fw-data">{safe}</script>'


def page(data: dict[str, Any]) -> str:
    """The whole HTML page for the viewer's ``data``."""
    style = asset("view.css")
    script = asset("view.js")
    csp = f"{CSP_BASE}; style-src {csp_hash(style)}; script-src {csp_hash(script)}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>fairwitness report</title>\n"
        f"<style>{style}</style>\n</head>\n<body>\n"
        "<noscript>This report needs JavaScript to show its data.</noscript>\n"
        '<main id="app"><p id="loading">Loading the report\u2026</p></main>\n'
        f"{embed(encode(data))}\n"
        f"<script>{script}</script>\n</body>\n</html>\n"
    )
