"""The viewer's page: its policy allows exactly its own script and style, its data cannot close
its block, and its script never builds markup from strings."""

from __future__ import annotations

import base64
import gzip
import json
import re

from fairwitness.view import csp_hash, script_safe
from fairwitness.view._page import asset, embed, encode, page

FORBIDDEN = (
    "innerHTML",
    "outerHTML",
    "insertAdjacentHTML",
    "document.write",
    "eval(",
    "new Function",
)


def test_the_shipped_script_builds_no_markup_from_strings() -> None:
    script = asset("view.js")
    found = [name for name in FORBIDDEN if name in script]
    assert found == []
    assert 'setTimeout("' not in script and 'setInterval("' not in script


def test_the_policy_allows_exactly_the_inline_script_and_style() -> None:
    html = page({"v": 1})
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert policy is not None
    rules = dict(r.strip().split(" ", 1) for r in policy.group(1).split(";"))
    assert rules["default-src"] == "'none'"
    assert rules["script-src"] == csp_hash(asset("view.js"))
    assert rules["style-src"] == csp_hash(asset("view.css"))
    scripts = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    assert scripts == [asset("view.js")]
    assert re.findall(r"<style>(.*?)</style>", html, flags=re.S) == [asset("view.css")]
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in html


def test_the_data_round_trips_and_cannot_close_its_block() -> None:
    data = {"s": ["</script><script>alert(1)</script>", "a\u2028b\u2029c", "<!--"]}
    block = embed(encode(data))
    inner = block.split(">", 1)[1].rsplit("</script>", 1)[0]
    assert "<" not in inner
    assert json.loads(gzip.decompress(base64.b64decode(inner))) == data


def test_script_safe_escapes_closers_and_line_separators() -> None:
    assert script_safe("a</script>\u2028\u2029") == "a<\\/script>\\u2028\\u2029"


def test_the_page_is_reproducible() -> None:
    assert page({"s": ["x"]}) == page({"s": ["x"]})
