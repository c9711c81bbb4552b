"""Settings.from_environ: every variable read once, checked, and the token kept out of sight."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairwitness.errors import EXIT_INVALID, ActionContextError, FairwitnessError
from fairwitness.github import Secret, Settings, Shard

TOKEN = "ghs_0123456789abcdefSECRET"

FULL = {
    "GITHUB_EVENT_NAME": "pull_request",
    "GITHUB_EVENT_PATH": "/home/runner/work/_temp/_github_workflow/event.json",
    "GITHUB_REPOSITORY": "octo-org/octo-repo",
    "GITHUB_API_URL": "https://ghe.example/api/v3/",
    "GITHUB_SERVER_URL": "https://ghe.example",
    "GITHUB_SHA": "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
    "GITHUB_REF": "refs/pull/2/merge",
    "GITHUB_BASE_REF": "main",
    "GITHUB_HEAD_REF": "feature/x",
    "GITHUB_WORKSPACE": "/github/workspace",
    "GITHUB_OUTPUT": "/github/file_commands/set_output",
    "GITHUB_STEP_SUMMARY": "/github/file_commands/step_summary",
    "GITHUB_RUN_ID": "9876543210",
    "RUNNER_TEMP": "/home/runner/work/_temp",
    "FW_CONFIG": "evals/fairwitness.toml",
    "FW_SUITE": "smoke",
    "FW_REPORT": "",
    "FW_BASELINE": "artifact",
    "FW_INSTALL": "pip install -e .",
    "FW_GITHUB_TOKEN": TOKEN,
    "FW_COMMENT": "new",
    "FW_COMMENT_KEY": "job-a",
    "FW_UPDATE_README": "true",
    "FW_SHARD": "2/4",
    "FW_WORKING_DIRECTORY": "services/agent",
    "FW_FAIL_ON": "regression, must-pass",
    "FW_REQUIRE_BASELINE": "TRUE",
    "FW_ALLOW_PR_HEAD_CODE": "false",
}


def test_every_variable_is_read_and_typed() -> None:
    s = Settings.from_environ(FULL)
    assert s.event_name == "pull_request"
    assert s.event_path == Path("/home/runner/work/_temp/_github_workflow/event.json")
    assert s.repository == "octo-org/octo-repo"
    assert s.api_url == "https://ghe.example/api/v3"
    assert s.server_url == "https://ghe.example"
    assert s.sha == FULL["GITHUB_SHA"]
    assert (s.ref, s.base_ref, s.head_ref) == ("refs/pull/2/merge", "main", "feature/x")
    assert s.workspace == Path("/github/workspace")
    assert s.output_path == Path("/github/file_commands/set_output")
    assert s.step_summary_path == Path("/github/file_commands/step_summary")
    assert s.run_id == 9876543210
    assert s.runner_temp == Path("/home/runner/work/_temp")
    assert (s.config, s.suite, s.report) == ("evals/fairwitness.toml", "smoke", None)
    assert (s.baseline, s.install) == ("artifact", "pip install -e .")
    assert s.token == Secret(TOKEN)
    assert s.token is not None and s.token.reveal() == TOKEN
    assert (s.comment, s.comment_key) == ("new", "job-a")
    assert s.update_readme is True
    assert s.shard == Shard(2, 4)
    assert str(s.shard) == "2/4"
    assert s.working_directory == "services/agent"
    assert s.fail_on == frozenset({1, 2})
    assert s.require_baseline is True
    assert s.allow_pr_head_code is False
    assert s.run_url == "https://ghe.example/octo-org/octo-repo/actions/runs/9876543210"


def test_an_empty_environment_gives_the_defaults() -> None:
    s = Settings.from_environ({})
    assert s.api_url == "https://api.github.com"
    assert s.server_url == "https://github.com"
    assert s.token is None
    assert s.comment == "sticky"
    assert s.comment_key == "default"
    assert s.working_directory == "."
    assert s.shard is None
    assert s.fail_on == frozenset({1, 2, 3})
    assert (s.update_readme, s.require_baseline, s.allow_pr_head_code) == (False, False, False)
    assert s.run_url is None
    assert s.mask_commands() == ()


def test_empty_inputs_mean_unset() -> None:
    # action.yml passes an input that was not given as an empty string.
    env = dict.fromkeys(FULL, "")
    assert Settings.from_environ(env) == Settings.from_environ({})


def test_the_api_url_is_used_as_given() -> None:
    s = Settings.from_environ({"GITHUB_API_URL": "http://127.0.0.1:8080/api/v3"})
    assert s.api_url == "http://127.0.0.1:8080/api/v3"


def test_the_token_never_shows_in_repr_or_str() -> None:
    s = Settings.from_environ(FULL)
    for text in (repr(s), str(s), repr(s.token), str(s.token), f"{s.token}"):
        assert TOKEN not in text
    assert repr(s.token) == "Secret('***')"
    assert s.mask_commands() == (f"::add-mask::{TOKEN}",)


def test_github_token_is_the_fallback_for_an_empty_token_input() -> None:
    s = Settings.from_environ({"FW_GITHUB_TOKEN": "", "GITHUB_TOKEN": "ghs_fallback"})
    assert s.token == Secret("ghs_fallback")
    s = Settings.from_environ({"FW_GITHUB_TOKEN": "ghs_input", "GITHUB_TOKEN": "ghs_fallback"})
    assert s.token == Secret("ghs_input")


def test_a_multiline_secret_is_masked_line_by_line() -> None:
    s = Settings.from_environ({"FW_GITHUB_TOKEN": "first-half\nsecond-half"})
    assert s.mask_commands() == ("::add-mask::first-half", "::add-mask::second-half")


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("FW_UPDATE_README", "yes", "expected 'true' or 'false', got 'yes'"),
        ("FW_REQUIRE_BASELINE", "1", "expected 'true' or 'false', got '1'"),
        ("FW_ALLOW_PR_HEAD_CODE", "on", "expected 'true' or 'false', got 'on'"),
        (
            "FW_COMMENT",
            "always",
            "expected one of sticky, changes, failures, new, off, got 'always'",
        ),
        ("FW_SHARD", "3", "expected I/N (for example 1/4), got '3'"),
        ("FW_SHARD", "5/4", "shard index must be between 1 and 4, got '5/4'"),
        ("FW_SHARD", "0/4", "shard index must be between 1 and 4, got '0/4'"),
        ("FW_FAIL_ON", "regression,flaky", "unknown verdict 'flaky'"),
        ("GITHUB_RUN_ID", "12a", "expected a positive integer, got '12a'"),
        ("GITHUB_REPOSITORY", "just-a-name", "expected owner/name, got 'just-a-name'"),
        ("GITHUB_REPOSITORY", "a/b/c", "expected owner/name, got 'a/b/c'"),
        ("GITHUB_API_URL", "ftp://ghe.example", "expected an http(s) URL"),
        ("GITHUB_SERVER_URL", "github.com", "expected an http(s) URL"),
    ],
)
def test_a_bad_value_names_its_variable(name: str, value: str, expected: str) -> None:
    with pytest.raises(ActionContextError) as caught:
        Settings.from_environ({**FULL, name: value})
    assert str(caught.value).startswith(f"environment variable {name}: ")
    assert expected in str(caught.value)
    assert isinstance(caught.value, FairwitnessError)
    assert caught.value.exit_code == EXIT_INVALID


def test_fail_on_decides_which_verdicts_fail_the_job() -> None:
    s = Settings.from_environ({"FW_FAIL_ON": "inconclusive"})
    assert [s.fails(code) for code in range(5)] == [False, False, False, True, True]
    s = Settings.from_environ({"FW_FAIL_ON": "any"})
    assert [s.fails(code) for code in range(5)] == [False, True, True, True, True]
    s = Settings.from_environ({"FW_FAIL_ON": "must_pass regression"})
    assert [s.fails(code) for code in range(5)] == [False, True, True, False, True]


def test_settings_are_frozen() -> None:
    s = Settings.from_environ({})
    with pytest.raises(AttributeError):
        s.comment = "off"  # type: ignore[misc]
