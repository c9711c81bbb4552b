"""The triggering event, parsed from the real webhook payloads in tests/fixtures/github."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from fairwitness.errors import EXIT_INVALID, ActionContextError
from fairwitness.github import (
    OtherEvent,
    PullRequestEvent,
    PushEvent,
    WorkflowRunEvent,
    load_event,
    parse_event,
)

PULL_REQUEST_PAYLOADS = [
    "pull_request.opened.payload.json",
    "pull_request.opened.with-null-body.json",
    "pull_request.reopened.with-organization.payload.json",
    "pull_request.synchronize.payload.json",
]


def payload(github_fixtures: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (github_fixtures / "webhooks" / name).read_text(encoding="utf-8")
    )
    return data


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("filename", PULL_REQUEST_PAYLOADS)
@pytest.mark.parametrize("name", ["pull_request", "pull_request_target"])
def test_pull_request_payloads(github_fixtures: Path, filename: str, name: str) -> None:
    path = github_fixtures / "webhooks" / filename
    raw = payload(github_fixtures, filename)
    event = load_event(name, path)
    assert isinstance(event, PullRequestEvent)
    assert event.name == name
    assert event.action == raw["action"]
    assert event.number == 2
    assert event.head_sha == "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
    assert event.head_ref == "changes"
    assert event.head_repo == "Codertocat/Hello-World"
    assert event.base_repo == "Codertocat/Hello-World"
    assert event.base_ref == "master"
    assert event.base_sha == "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
    assert event.is_fork is False


def test_a_pull_request_from_a_fork(github_fixtures: Path, tmp_path: Path) -> None:
    data = payload(github_fixtures, "pull_request.opened.payload.json")
    head_repo = data["pull_request"]["head"]["repo"]
    head_repo["full_name"] = "mallory/Hello-World"
    head_repo["fork"] = True
    event = load_event("pull_request_target", write(tmp_path, data))
    assert isinstance(event, PullRequestEvent)
    assert event.head_repo == "mallory/Hello-World"
    assert event.is_fork is True


def test_the_fork_flag_alone_does_not_make_a_fork(github_fixtures: Path) -> None:
    # `head.repo.fork` says the repository is a fork of something, not that the change comes
    # from another repository: a branch inside a forked repository is not a fork pull request.
    data = payload(github_fixtures, "pull_request.opened.payload.json")
    data["pull_request"]["head"]["repo"]["fork"] = True
    data["pull_request"]["base"]["repo"]["fork"] = True
    event = parse_event("pull_request", data)
    assert isinstance(event, PullRequestEvent)
    assert event.is_fork is False


def test_a_pull_request_from_a_deleted_fork(github_fixtures: Path) -> None:
    data = payload(github_fixtures, "pull_request.synchronize.payload.json")
    data["pull_request"]["head"]["repo"] = None
    event = parse_event("pull_request", data)
    assert isinstance(event, PullRequestEvent)
    assert event.head_repo is None
    assert event.is_fork is True


def test_repository_names_compare_without_case(github_fixtures: Path) -> None:
    data = payload(github_fixtures, "pull_request.opened.payload.json")
    data["pull_request"]["head"]["repo"]["full_name"] = "codertocat/hello-world"
    event = parse_event("pull_request", data)
    assert isinstance(event, PullRequestEvent)
    assert event.is_fork is False


def test_a_tag_push_is_not_to_the_default_branch(github_fixtures: Path) -> None:
    event = load_event("push", github_fixtures / "webhooks" / "push.payload.json")
    assert isinstance(event, PushEvent)
    assert event.ref == "refs/tags/simple-tag"
    assert event.after == "0000000000000000000000000000000000000000"
    assert event.before == "6113728f27ae82c7b1a177c8d03f9e96e0adf246"
    assert event.default_branch == "master"
    assert event.deleted is True
    assert event.is_default_branch is False


def test_a_push_to_the_default_branch(github_fixtures: Path) -> None:
    event = load_event("push", github_fixtures / "webhooks" / "push.with-new-branch.payload.json")
    assert isinstance(event, PushEvent)
    assert event.ref == "refs/heads/master"
    assert event.after == "6113728f27ae82c7b1a177c8d03f9e96e0adf246"
    assert event.repository == "Codertocat/Hello-World"
    assert event.is_default_branch is True


def test_a_push_to_another_branch(github_fixtures: Path) -> None:
    data = payload(github_fixtures, "push.with-new-branch.payload.json")
    data["ref"] = "refs/heads/master-2"
    event = parse_event("push", data)
    assert isinstance(event, PushEvent)
    assert event.is_default_branch is False


def test_a_workflow_run(github_fixtures: Path) -> None:
    path = github_fixtures / "webhooks" / "workflow_run.completed.with-pull-requests.payload.json"
    event = load_event("workflow_run", path)
    assert isinstance(event, WorkflowRunEvent)
    assert event.action == "completed"
    assert event.run_id == 289782451
    assert event.head_sha == "3484a3fb816e0859fd6e1cea078d76385ff50625"
    assert event.head_branch == "master"
    assert event.conclusion == "success"
    assert event.status == "completed"
    assert event.event == "repository_dispatch"
    assert event.pull_requests == (2,)
    assert event.head_repo == "octo-org/octo-repo"
    assert event.repository == "octo-org/octo-repo"
    assert event.is_fork is False


def test_a_workflow_run_from_a_fork_has_no_pull_requests(github_fixtures: Path) -> None:
    data = payload(github_fixtures, "workflow_run.completed.with-pull-requests.payload.json")
    data["workflow_run"]["pull_requests"] = []
    data["workflow_run"]["head_repository"]["full_name"] = "mallory/octo-repo"
    data["workflow_run"]["conclusion"] = None
    event = parse_event("workflow_run", data)
    assert isinstance(event, WorkflowRunEvent)
    assert event.pull_requests == ()
    assert event.conclusion is None
    assert event.is_fork is True


@pytest.mark.parametrize(
    ("name", "filename", "repository"),
    [
        ("workflow_dispatch", "workflow_dispatch.payload.json", "octo-org/octo-repo"),
        ("issue_comment", "issue_comment.created.payload.json", "Codertocat/Hello-World"),
    ],
)
def test_other_events(github_fixtures: Path, name: str, filename: str, repository: str) -> None:
    event = load_event(name, github_fixtures / "webhooks" / filename)
    assert event == OtherEvent(name=name, repository=repository)


def test_another_event_needs_no_payload() -> None:
    assert load_event("schedule", None) == OtherEvent(name="schedule", repository=None)


def test_a_pull_request_needs_its_payload() -> None:
    with pytest.raises(ActionContextError, match="GITHUB_EVENT_PATH: not set"):
        load_event("pull_request", None)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(ActionContextError) as caught:
        load_event("push", path)
    assert str(caught.value).startswith(f"{path}: cannot read the event payload")
    assert caught.value.exit_code == EXIT_INVALID


def test_bad_json_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text('{\n  "ref": "refs/heads/main",\n  oops\n}', encoding="utf-8")
    with pytest.raises(ActionContextError) as caught:
        load_event("push", path)
    assert str(caught.value).startswith(f"{path}:3: not valid JSON")


def test_a_payload_that_is_not_an_object(tmp_path: Path) -> None:
    with pytest.raises(ActionContextError, match="not a JSON object"):
        load_event("push", write(tmp_path, [1, 2]))


@pytest.mark.parametrize(
    ("name", "filename", "dotted", "value", "expected"),
    [
        ("pull_request", PULL_REQUEST_PAYLOADS[0], "pull_request.head.sha", None, "missing"),
        ("pull_request", PULL_REQUEST_PAYLOADS[0], "pull_request.number", "2", "positive integer"),
        ("pull_request", PULL_REQUEST_PAYLOADS[0], "pull_request.base.repo", None, "missing"),
        ("push", "push.payload.json", "after", 7, "non-empty string"),
        ("push", "push.payload.json", "ref", "", "non-empty string"),
        (
            "workflow_run",
            "workflow_run.completed.with-pull-requests.payload.json",
            "workflow_run.id",
            None,
            "missing",
        ),
        (
            "workflow_run",
            "workflow_run.completed.with-pull-requests.payload.json",
            "workflow_run.pull_requests",
            {"number": 2},
            "expected a list",
        ),
    ],
)
def test_a_bad_field_names_file_and_field(
    github_fixtures: Path,
    tmp_path: Path,
    name: str,
    filename: str,
    dotted: str,
    value: object,
    expected: str,
) -> None:
    data = copy.deepcopy(payload(github_fixtures, filename))
    *parents, last = dotted.split(".")
    node = data
    for part in parents:
        node = node[part]
    node[last] = value
    path = write(tmp_path, data)
    with pytest.raises(ActionContextError) as caught:
        load_event(name, path)
    text = str(caught.value)
    prefix = (
        dotted.removesuffix(".repo") + ".repo.full_name" if dotted.endswith(".repo") else dotted
    )
    assert text.startswith(f"{path}: field '{prefix}': ")
    assert expected in text


def test_a_missing_pull_request_number_in_a_workflow_run(github_fixtures: Path) -> None:
    data = payload(github_fixtures, "workflow_run.completed.with-pull-requests.payload.json")
    del data["workflow_run"]["pull_requests"][0]["number"]
    with pytest.raises(ActionContextError, match=r"field 'workflow_run.pull_requests.0.number'"):
        parse_event("workflow_run", data, source="event.json")
