"""The comment's marker, key, author match and last-line-of-defence shortening."""

from __future__ import annotations

import pytest

from fairwitness.github import (
    FALLBACK_LOGIN,
    MAX_COMMENT_CHARS,
    Comment,
    comment_key,
    find_sticky,
    fit_comment,
    marker,
)


@pytest.mark.parametrize(
    ("given", "key"),
    [
        (None, "default"),
        ("", "default"),
        ("   ", "default"),
        ("job-a", "job-a"),
        ("matrix/py3.12_linux", "matrix/py3.12_linux"),
        ("a b", "a-b"),
        ("x --> <script>", "x-script"),
        ("ünïcode", "n-code"),
        ("-->", "default"),
        ("k" * 300, "k" * 100),
    ],
)
def test_keys_are_sanitised(given: str | None, key: str) -> None:
    assert comment_key(given) == key
    assert marker(given) == f"<!-- fairwitness:comment {key} -->"


def test_a_marker_is_not_a_prefix_of_another() -> None:
    assert marker("default") not in marker("default2")
    assert marker("a") not in marker("a/b")


def comment(cid: int, body: str, login: str | None) -> Comment:
    return Comment.model_validate(
        {
            "id": cid,
            "body": body,
            "html_url": f"https://x/{cid}",
            "user": login and {"login": login},
        }
    )


def test_find_sticky_wants_the_marker_and_the_author() -> None:
    mine = marker("job-a")
    comments = [
        comment(1, f"{mine}\nforged", "mallory"),
        comment(2, f"{marker('job-b')}\nother job", FALLBACK_LOGIN),
        comment(3, "no marker", FALLBACK_LOGIN),
        comment(4, f"{mine}\nfrom a deleted account", None),
        comment(5, f"{mine}\nmine", "GitHub-Actions[bot]"),
        comment(6, f"{mine}\nlater duplicate", FALLBACK_LOGIN),
    ]
    found = find_sticky(comments, "job-a", FALLBACK_LOGIN)
    assert found is not None and found.id == 5
    assert find_sticky(comments, "job-c", FALLBACK_LOGIN) is None
    assert find_sticky(comments, "job-a", "someone-else") is None


def test_a_null_body_reads_as_empty() -> None:
    c = Comment.model_validate({"id": 1, "body": None, "html_url": "u", "user": None})
    assert (c.body, c.user_login) == ("", None)


def test_a_body_within_the_limit_is_untouched() -> None:
    body = "x" * MAX_COMMENT_CHARS
    assert fit_comment(body) == (body, False)


def test_an_oversize_body_is_cut_at_a_line_with_a_note() -> None:
    lines = [f"| case-{i:05d} | failed |" for i in range(5000)]
    body = "\n".join(lines)
    assert len(body) > MAX_COMMENT_CHARS
    text, shortened = fit_comment(body, summary_url="https://github.com/o/r/actions/runs/1")
    assert shortened is True
    assert len(text) <= MAX_COMMENT_CHARS
    kept, _, note = text.partition("\n\n> [!NOTE]\n")
    assert kept.split("\n") == lines[: len(kept.split("\n"))]
    assert len(kept) > MAX_COMMENT_CHARS - 400  # cut close to the limit, not far below it
    assert "65,536 characters" in note
    assert "[job summary](https://github.com/o/r/actions/runs/1)" in note
    assert fit_comment(body, summary_url="https://github.com/o/r/actions/runs/1") == (text, True)


def test_one_huge_line_is_cut_hard() -> None:
    text, shortened = fit_comment("y" * 100_000)
    assert shortened is True
    assert len(text) <= MAX_COMMENT_CHARS
    assert text.startswith("y" * 60_000)
    assert "job summary of this workflow run" in text


def test_the_cut_closes_an_open_code_block() -> None:
    body = "head\n```\n" + "z\n" * 40_000
    text, _ = fit_comment(body)
    assert len(text) <= MAX_COMMENT_CHARS
    assert text.split("\n\n> [!NOTE]")[0].endswith("\n```")
