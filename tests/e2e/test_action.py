"""The action's entrypoint end to end: a subprocess with the runner's environment, real git
repositories, real webhook payloads, and the fake GitHub REST server on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from action_world import World

from github_fake import BOT, TOKEN, FakeGitHub

pytestmark = pytest.mark.e2e


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        yield World(tmp_path, fake)


def test_first_pull_request_without_a_baseline(world: World) -> None:
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event())
    assert result.code == 0, result.stdout + result.stderr
    (comment,) = world.comments()
    assert comment["body"].startswith("<!-- fairwitness:comment default -->\n### ")
    assert "no baseline to compare with" in comment["body"]
    assert "no baseline:" in comment["body"]
    assert result.outputs["exit-code"] == "0"
    assert result.outputs["verdict"] == "report"
    assert result.outputs["report-path"] == "evals/fairwitness-out/jobsearch.report.json"
    assert result.outputs["comment-url"] == comment["html_url"]
    assert "## " in result.summary


def test_the_merge_base_artifact_is_the_baseline_and_the_comment_stays_sticky(
    world: World,
) -> None:
    world.publish_baseline()
    world.open_pull_request()
    event = world.pull_request_event()
    first = world.run("pull_request", event)
    assert first.code == 2, first.stdout + first.stderr
    (comment,) = world.comments()
    body = comment["body"]
    assert "must-pass failed (exit 2)" in body.splitlines()[1]
    assert "baseline: the main run" in body and "at the merge base" in body
    assert "'args' regressed: per-trial rate 1.000 -&gt; 0.588 over 34 paired cases (14 went" in (
        body
    )
    assert first.outputs["verdict"] == "must-pass failed"
    assert "::error title=fairwitness jobsearch%3A must-pass failed::" in first.stdout
    second = world.run("pull_request", event, fail_on="regression")
    assert second.code == 0  # must-pass failures do not fail the step under fail-on: regression
    assert second.outputs["exit-code"] == "2"
    comments = world.comments()
    assert len(comments) == 1 and comments[0]["id"] == comment["id"]
    assert "the step passes" in second.stdout


def test_the_sticky_comment_is_found_past_the_first_hundred(world: World) -> None:
    world.open_pull_request(candidate=False)
    for i in range(150):
        world.fake.add_comment(world.repo, world.number, f"chatter {i}", login="someone")
    world.fake.add_comment(
        world.repo, world.number, "<!-- fairwitness:comment default -->\nold", login="intruder"
    )
    first = world.run("pull_request", world.pull_request_event())
    assert first.code == 0, first.stdout + first.stderr
    ours = [c for c in world.comments() if c["user"]["login"] == BOT]
    assert len(ours) == 1
    for i in range(120):
        world.fake.add_comment(world.repo, world.number, f"more {i}", login="someone")
    world.run("pull_request", world.pull_request_event())
    ours_again = [c for c in world.comments() if c["user"]["login"] == BOT]
    assert [c["id"] for c in ours_again] == [ours[0]["id"]]
    assert len(world.comments()) == 150 + 1 + 1 + 120
    pages = [r for r in world.fake.requests if r.method == "GET" and "/comments" in r.path]
    assert any(r.query.get("page") == ["3"] for r in pages)


def test_different_comment_keys_keep_their_own_comments(world: World) -> None:
    world.open_pull_request(candidate=False)
    event = world.pull_request_event()
    world.run("pull_request", event, comment_key="leg-a")
    world.run("pull_request", event, comment_key="leg-b")
    world.run("pull_request", event, comment_key="leg-a")
    markers = sorted(c["body"].splitlines()[0] for c in world.comments())
    assert markers == [
        "<!-- fairwitness:comment leg-a -->",
        "<!-- fairwitness:comment leg-b -->",
    ]


def test_a_fork_leaves_its_comment_for_the_workflow_run_relay(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    fork = world.run("pull_request", world.pull_request_event(fork="forker/Hello-World"))
    assert fork.code == 2
    assert world.comments() == []
    assert not [r for r in world.fake.requests if r.method in ("POST", "PATCH")]
    left = world.workspace / "fairwitness-comment"
    assert sorted(p.name for p in left.iterdir()) == ["default.json", "default.report.json"]
    assert "fairwitness comment deferred" in fork.stdout
    # the fork's run uploads that folder; the relay runs on the default branch with a write token
    files = {p.name: p.read_bytes() for p in left.iterdir()}
    run_id = world.fake.add_run(
        world.repo, head_sha=world.head_sha, head_branch="feature", event="pull_request"
    )
    from action_world import zipped

    world.fake.add_artifact(world.repo, run_id, "fairwitness-comment", zipped(files))
    relay = world.run("workflow_run", world.workflow_run_event(run_id))
    assert relay.code == 0, relay.stdout + relay.stderr
    (comment,) = world.comments()
    assert "must-pass failed (exit 2)" in comment["body"]
    assert "workflow\\_run relay" in comment["body"]


def test_the_relay_refuses_an_artifact_for_another_head(world: World) -> None:
    world.open_pull_request()
    world.run("pull_request", world.pull_request_event(fork="forker/Hello-World"))
    left = world.workspace / "fairwitness-comment"
    files = {p.name: p.read_bytes() for p in left.iterdir()}
    from action_world import zipped

    run_id = world.fake.add_run(world.repo, head_sha="f" * 40, head_branch="feature")
    world.fake.add_artifact(world.repo, run_id, "fairwitness-comment", zipped(files))
    world.head_sha = "f" * 40  # the run was made on another commit than the PR's head
    relay = world.run("workflow_run", world.workflow_run_event(run_id))
    assert relay.code == 0
    assert world.comments() == []
    assert "not posted" in relay.stdout


def test_github_enterprise_server_api_url(tmp_path: Path) -> None:
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.add_token(TOKEN, BOT)
        world = World(tmp_path, fake)
        world.publish_baseline()
        world.open_pull_request()
        result = world.run("pull_request", world.pull_request_event())
        assert result.code == 2
        assert len(world.comments()) == 1
        api = [r for r in fake.requests if not r.path.startswith("/_blobs/")]
        assert api and all(r.path.startswith("/api/v3/") for r in api)


def test_the_api_being_down_never_changes_the_exit_code(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    world.fake.inject(503, times=1000, message="Service Unavailable", path="/comments")
    result = world.run("pull_request", world.pull_request_event(), fail_on="regression")
    assert result.code == 0
    assert result.outputs["exit-code"] == "2"
    assert (
        "::warning" in result.stdout and "could not write the pull request comment" in result.stdout
    )
    assert world.comments() == []


def test_the_committed_report_on_the_base_branch_is_the_last_resort(world: World) -> None:
    out = world.workspace / "evals" / "fairwitness-out"
    out.mkdir()
    (out / "jobsearch.report.json").write_bytes(
        (
            Path(__file__).resolve().parents[2]
            / "examples/jobsearch/baseline/jobsearch.report.json"
        ).read_bytes()
    )
    from action_world import git

    git(world.workspace, "add", "-A")
    git(world.workspace, "commit", "-q", "-m", "commit the baseline report")
    git(world.workspace, "push", "-q", "origin", "main")
    world.main_sha = git(world.workspace, "rev-parse", "HEAD")
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event())
    assert result.code == 2, result.stdout + result.stderr
    body = world.comments()[0]["body"]
    assert "evals/fairwitness-out/jobsearch.report.json as committed on main" in body.replace(
        "\\", ""
    )


def test_an_incomparable_baseline_is_invalid_with_the_reason_in_the_comment(
    world: World, tmp_path: Path
) -> None:
    import json as _json

    from action_world import BASELINE_REPORT, zipped

    data = _json.loads(BASELINE_REPORT.read_text(encoding="utf-8"))
    data["suite_version"] = "2"
    run_id = world.fake.add_run(world.repo, head_sha=world.main_sha)
    world.fake.add_artifact(
        world.repo,
        run_id,
        "fairwitness-baseline",
        zipped({"jobsearch.report.json": _json.dumps(data).encode()}),
    )
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event(), fail_on="regression")
    assert result.code == 4
    body = world.comments()[0]["body"]
    assert "invalid (exit 4)" in body and "suite\\_version" in body


def test_require_baseline_makes_a_missing_baseline_invalid(world: World) -> None:
    world.open_pull_request(candidate=False)
    result = world.run("pull_request", world.pull_request_event(), require_baseline="true")
    assert result.code == 4
    assert "require-baseline is set" in world.comments()[0]["body"]


def test_pull_request_target_never_runs_the_suite_unless_allowed(world: World) -> None:
    world.open_pull_request()
    event = world.pull_request_event(name="pull_request_target")
    result = world.run("pull_request_target", event)
    assert result.code == 4
    assert "allow-pr-head-code" in result.stdout
    assert not (world.workspace / "evals" / "fairwitness-out").exists()
    assert world.comments() == []


def test_a_push_to_main_reports_and_updates_the_readme(world: World) -> None:
    result = world.run("push", world.push_event(), update_readme="true", readme="README.md")
    assert result.code == 0, result.stdout + result.stderr
    assert result.outputs["readme-changed"] == "true"
    readme = (world.workspace / "README.md").read_text(encoding="utf-8")
    assert "| route (per trial) | 97.4% | 63 | 93.2% \u2013 99.0% |" in readme
    assert "| route pass^3 | 93.7% | 63 | 84.8% \u2013 97.5% |" in readme
    assert world.comments() == []


def test_bad_input_is_one_error_line_and_exit_4(world: World) -> None:
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event(), comment="loud")
    assert result.code == 4
    assert "::error" in result.stdout and "FW_COMMENT" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    assert result.outputs["exit-code"] == "4" and result.outputs["verdict"] == "invalid"


def test_the_token_never_reaches_the_log(world: World) -> None:
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event())
    assert f"::add-mask::{TOKEN}" in result.stdout.splitlines()[0]
    rest = "\n".join(result.stdout.splitlines()[1:]) + result.stderr
    assert TOKEN not in rest


def test_an_oversized_suite_still_gets_one_comment_under_the_limit(world: World) -> None:
    from builders import FAIL, PASS, build, edit

    n = 4000
    plan = {f"case-{'x' * 150}-{i:05d}": [PASS] for i in range(n)}
    base = build(plan)
    cand = build({k: [FAIL] if i % 2 else [PASS] for i, k in enumerate(plan)})
    cand = edit(cand, lambda d: d.update(suite="s"))
    (world.workspace / "evals" / "base.report.json").write_text(base.to_json(), encoding="utf-8")
    (world.workspace / "evals" / "cand.report.json").write_text(cand.to_json(), encoding="utf-8")
    world.open_pull_request(candidate=False)
    result = world.run(
        "pull_request",
        world.pull_request_event(),
        report="cand.report.json",
        baseline="base.report.json",
        fail_on="must-pass",
    )
    assert result.code == 0, result.stdout + result.stderr
    assert result.outputs["exit-code"] == "1"
    (comment,) = world.comments()
    assert len(comment["body"]) < 65_536
    assert "(showing 25 of 2000)" in comment["body"]
    assert not [r for r in world.fake.requests if r.status == 422]
    assert len(result.summary.encode("utf-8")) <= 1_048_576


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid"), reason="POSIX ownership")
def test_files_written_into_the_workspace_belong_to_its_owner(world: World) -> None:
    import os

    if os.geteuid() != 0:
        pytest.skip("only a root process (as in the action's container) changes ownership")
    world.open_pull_request()
    for root, dirs, files in os.walk(world.workspace):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(root, name), 1234, 1234)
    os.chown(world.workspace, 1234, 1234)
    result = world.run("pull_request", world.pull_request_event(fork="forker/Hello-World"))
    assert result.code == 0, result.stdout + result.stderr
    made = [
        world.workspace / "evals" / "fairwitness-out" / "jobsearch.report.json",
        world.workspace / "evals" / "fairwitness-out" / "jobsearch.comment.md",
        world.workspace / "fairwitness-comment" / "default.json",
        world.workspace / "fairwitness-comment",
    ]
    for path in made:
        assert (path.stat().st_uid, path.stat().st_gid) == (1234, 1234), path


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid"), reason="POSIX ownership")
def test_fetching_the_committed_baseline_leaves_nothing_foreign_owned_in_git(
    open_tmp: Path,
) -> None:
    """The baseline is the report committed on the base branch, which the checkout lacks, so the
    action fetches it; afterwards every path of the workspace, ``.git`` included, still belongs
    to the workspace's owner, and that owner's own ``git fetch`` works."""
    import os

    from ownership import foreign_owned, git_as

    if os.geteuid() != 0:
        pytest.skip("only a root process (as in the action's container) can run as another user")
    owner = 1234
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        world = World(open_tmp, fake)
        world.commit_baseline_report()
        world.open_pull_request()
        world.forget_the_base_branch()
        world.hand_to(owner, owner)
        result = world.run("pull_request", world.pull_request_event())
        assert result.code == 2, result.stdout + result.stderr
        body = world.comments()[0]["body"].replace("\\", "")
        assert "evals/fairwitness-out/jobsearch.report.json as committed on main" in body
    assert (world.workspace / ".git" / "FETCH_HEAD").exists()  # the base branch was fetched
    foreign = foreign_owned(world.workspace, owner, owner)
    assert not foreign, f"not owned by {owner}:{owner} after the run:\n" + "\n".join(foreign)
    again = git_as(owner, world.workspace, open_tmp, "fetch", "origin")
    assert again.returncode == 0, again.stderr


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid"), reason="POSIX ownership")
def test_what_the_install_command_makes_is_given_back_and_what_was_not_ours_is_left(
    world: World,
) -> None:
    """The install command runs as root (it installs into the image); whatever it leaves in the
    workspace, in or out of the working directory, goes to the owner (a link itself, not what it
    points to). A file someone else owned before the run is left as found."""
    import os

    from ownership import foreign_owned

    if os.geteuid() != 0:
        pytest.skip("only a root process (as in the action's container) changes ownership")
    owner = 1234
    world.open_pull_request()
    world.hand_to(owner, owner)
    kept = world.workspace / "evals" / "made-by-an-earlier-step.txt"
    kept.write_text("root's\n", encoding="utf-8")
    os.chown(kept, 0, 0)
    result = world.run(
        "pull_request",
        world.pull_request_event(),
        install="mkdir -p ../build/cache && echo ok > ../build/cache/made && ln -s /etc ../build/etc",
    )
    assert result.code == 0, result.stdout + result.stderr
    assert (world.workspace / "build" / "cache" / "made").is_file()
    foreign = foreign_owned(world.workspace, owner, owner)
    left = [line for line in foreign if not line.startswith("evals/made-by-an-earlier-step.txt")]
    assert not left, f"not owned by {owner}:{owner} after the run:\n" + "\n".join(left)
    assert os.stat("/etc").st_uid == 0
    assert foreign == ["evals/made-by-an-earlier-step.txt (0:0)"]


def test_the_container_contract(installed: Path, tmp_path: Path) -> None:
    """The package installed from its wheel into a fresh environment, as the Dockerfile does,
    and the entrypoint copied out of the checkout (the image runs /entrypoint.py), with the
    workspace under a /github/workspace-style path."""
    import shutil

    root = tmp_path / "github"
    root.mkdir()
    entrypoint = tmp_path / "entrypoint.py"
    shutil.copy(Path(__file__).resolve().parents[2] / "entrypoint.py", entrypoint)
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        world = World(root, fake)
        world.publish_baseline()
        world.open_pull_request()
        result = world.run(
            "pull_request",
            world.pull_request_event(),
            python=str(installed / "python"),
            entrypoint=entrypoint,
        )
        assert result.code == 2, result.stdout + result.stderr
        assert "must-pass failed (exit 2)" in world.comments()[0]["body"]
        assert result.outputs["report-path"] == "evals/fairwitness-out/jobsearch.report.json"


def test_the_newest_main_artifact_is_used_when_the_merge_base_has_none(world: World) -> None:
    old = "a" * 40
    world.publish_baseline(at=old)  # made three commits before the merge base
    world.open_pull_request()
    world.fake.set_compare(world.repo, old, world.main_sha, merge_base=old, ahead=3, behind=0)
    result = world.run("pull_request", world.pull_request_event())
    assert result.code == 2, result.stdout + result.stderr
    body = world.comments()[0]["body"]
    assert "the newest main artifact" in body
    assert "it is 3 commit(s) behind the merge base" in body


def test_explicit_baselines_path_at_ref_and_artifact_name(world: World) -> None:
    from action_world import BASELINE_REPORT, git

    kept = world.workspace / "evals" / "reports"
    kept.mkdir()
    (kept / "jobsearch.report.json").write_bytes(BASELINE_REPORT.read_bytes())
    git(world.workspace, "add", "-A")
    git(world.workspace, "commit", "-q", "-m", "keep a report")
    git(world.workspace, "push", "-q", "origin", "main")
    world.main_sha = git(world.workspace, "rev-parse", "HEAD")
    world.publish_baseline(name="nightly")
    world.open_pull_request()
    event = world.pull_request_event()
    at_ref = world.run("pull_request", event, baseline="evals/reports/jobsearch.report.json@main")
    assert at_ref.code == 2, at_ref.stdout + at_ref.stderr
    assert "evals/reports/jobsearch.report.json as committed on main" in world.comments()[0][
        "body"
    ].replace("\\", "")
    named = world.run("pull_request", event, baseline="artifact:nightly")
    assert named.code == 2, named.stdout + named.stderr
    assert "artifact 'nightly'" in world.comments()[0]["body"]
    missing = world.run("pull_request", event, baseline="nope.report.json")
    assert missing.code == 4
    assert "baseline report not found" in missing.stdout


def test_a_four_shard_matrix_merges_gates_and_comments_once(world: World) -> None:
    """Four legs run one shard each and upload it; the final job downloads the shards through
    the API (zips), merges, gates and posts one comment."""
    from action_world import zipped

    world.publish_baseline()
    world.open_pull_request()
    event = world.pull_request_event()
    out = world.workspace / "evals" / "fairwitness-out"
    this_run = world.fake.add_run(
        world.repo, head_sha=world.head_sha, head_branch="feature", event="pull_request"
    )
    for i in range(1, 5):
        leg = world.run("pull_request", event, shard=f"{i}/4", run_id=this_run)
        assert leg.code == 0, leg.stdout + leg.stderr
        assert leg.outputs["verdict"] == "shard"
        stem = f"jobsearch.shard-{i}-of-4"
        assert leg.outputs["report-path"] == f"evals/fairwitness-out/{stem}.report.json"
        files = {
            f"{stem}.report.json": (out / f"{stem}.report.json").read_bytes(),
            f"{stem}.traces.jsonl": (out / f"{stem}.traces.jsonl").read_bytes(),
        }
        world.fake.add_artifact(world.repo, this_run, f"fairwitness-shard-{i}", zipped(files))
    assert world.comments() == []  # legs never comment
    final = world.run("pull_request", event, merge_artifacts="fairwitness-shard-", run_id=this_run)
    assert final.code == 2, final.stdout + final.stderr
    (comment,) = world.comments()
    assert "must-pass failed (exit 2)" in comment["body"]
    assert "merged 4 shard report(s)" in final.stdout
    downloads = [r for r in world.fake.requests if r.path.endswith("/zip")]
    assert len(downloads) == 4 + 1  # the four shards, and the baseline
    from fairwitness.report import Report

    merged = Report.load(out / "jobsearch.report.json")
    assert merged.shard is None and merged.counts.cases == 63
    whole = world.run("pull_request", event, fail_on="regression")  # unsharded, same code
    assert whole.outputs["exit-code"] == "2"
    unsharded = Report.load(out / "jobsearch.report.json")
    assert merged.metrics == unsharded.metrics
    assert len(world.comments()) == 1
