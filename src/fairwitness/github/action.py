"""The GitHub Action: run the suite (or take a report), find the baseline, gate, comment, exit.

By event:

- ``pull_request`` (and ``pull_request_target`` when allowed): run, resolve the baseline, gate,
  post or update the sticky comment, append the full markdown to the job summary, set outputs,
  emit at most 10 annotations, and exit with the gate's code as ``fail-on`` filters it. A pull
  request from a fork gets a read-only token: its comment is left in
  ``fairwitness-comment/`` (metadata and the candidate report) for an artifact, and a second
  workflow on ``workflow_run`` relays it;
- ``workflow_run``: the relay. It downloads that artifact through the REST API, checks that the
  pull request it names has the head the run was made on, re-renders the comment from the report
  with this repository's own code and config (nothing from the fork runs), and posts it;
- ``push`` and anything else: run and report (the workflow uploads the report as the new
  baseline), and on ``update-readme`` regenerate the README's number blocks.

A failure to comment never changes the exit code; it becomes a warning.

The container runs as root, the workspace belongs to the runner's user, and later steps of the
job (a checkout, a ``git fetch``, the post-job cleanup) run as that user: nothing may be left in
the workspace, ``.git`` included, that its owner does not own. So git runs as the workspace's
owner (see :class:`~fairwitness.github.baseline.Git`), and at the end every path of the
workspace that is not the owner's is handed back, except one that was already someone else's
before the run and is still the same file (the action did not make it, and leaves it as found);
a file the action wrote itself is handed back even then.
"""

from __future__ import annotations

import os
import subprocess
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from fairwitness._gc import collector_for
from fairwitness.config import find_config
from fairwitness.errors import (
    EXIT_INVALID,
    EXIT_OK,
    ActionContextError,
    FairwitnessError,
    Problem,
)
from fairwitness.gate import Decision, decide, gate_settings
from fairwitness.gate._decision import PRECEDENCE, VERDICTS
from fairwitness.github._context import Ownership, PullContext, SuiteOutcome
from fairwitness.github._digest import decision_digest
from fairwitness.github._page import leave_page, page_path
from fairwitness.github.baseline import Baseline, BaselineFinder, Git
from fairwitness.github.client import GitHubClient
from fairwitness.github.comment import passes_now, post_comment
from fairwitness.github.event import PullRequestEvent, PushEvent, WorkflowRunEvent, load_event
from fairwitness.github.history import trend_for
from fairwitness.github.outputs import Annotations, annotation, append_step_summary, set_outputs
from fairwitness.github.relay import leave_for_relay, relay
from fairwitness.github.settings import Settings
from fairwitness.github.shards import collect_shards, merge_collected
from fairwitness.readme import write_blocks
from fairwitness.render import Renderer, render_comment, render_summary, suite_lines
from fairwitness.report import Report
from fairwitness.report.lite import load_for_decision


def combine(codes: list[int]) -> int:
    """Several suites' exit codes as one, by the usual precedence (4, 2, 3, 1, 0)."""
    for code in PRECEDENCE:
        if code in codes:
            return code
    return EXIT_OK


class Action:
    """One run of the action, with its collaborators."""

    def __init__(
        self,
        settings: Settings,
        *,
        client: GitHubClient | None,
        git_runner: Any = subprocess.run,
        stdout: TextIO,
        stderr: TextIO,
    ) -> None:
        self.s = settings
        self.client = client
        self.out = stdout
        self.err = stderr
        self.workspace = (settings.workspace or Path.cwd()).resolve()
        self.workdir = (self.workspace / settings.working_directory).resolve()
        if not self.workdir.is_dir():
            raise ActionContextError(
                Problem(
                    "working directory not found",
                    file=str(self.workdir),
                    field="FW_WORKING_DIRECTORY",
                )
            )
        self.ownership = Ownership.of(self.workspace)
        self.git = Git(self.workdir, git_runner, owner=self.ownership.owner)
        self.scratch = (settings.runner_temp or self.workdir / ".fairwitness") / "fairwitness-tmp"
        self.annotations = Annotations(lambda line: self.out.write(line + "\n"))
        self.written: list[Path] = []
        self.config = self._config_path()

    # -- small helpers ---------------------------------------------------------------------------

    def _config_path(self) -> Path | None:
        if self.s.config:
            path = self.workdir / self.s.config
            if not path.is_file():
                raise ActionContextError(
                    Problem("config file not found", file=str(path), field="FW_CONFIG")
                )
            return path
        return find_config(self.workdir)

    def rel(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.workspace).as_posix()
        except ValueError:
            return str(path)

    def write(self, path: Path, text: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        self.written.append(path)
        return path

    def say(self, text: str) -> None:
        self.out.write(f"fairwitness: {text}\n")
        self.out.flush()

    def give_back(self) -> None:
        """Hand to the workspace's owner every path of the workspace this run made or changed
        (root-owned files break later steps that run as the runner's user)."""
        failed = self.ownership.give_back(self.written)
        if failed and self.ownership.owner is not None:
            uid, gid = self.ownership.owner
            shown = ", ".join(self.rel(p) for p in failed[:5])
            more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
            self.annotations.warning(
                f"could not give {shown}{more} back to the workspace's owner {uid}:{gid}"
            )

    # -- the run ---------------------------------------------------------------------------------

    def main(self) -> tuple[int, dict[str, str]]:
        name = self.s.event_name
        if not name:
            raise ActionContextError(
                "environment variable GITHUB_EVENT_NAME: not set (run this inside GitHub Actions)"
            )
        event = load_event(name, self.s.event_path)
        if isinstance(event, WorkflowRunEvent):
            return relay(self, event)
        pull: PullContext | None = None
        if isinstance(event, PullRequestEvent):
            privileged = event.name == "pull_request_target"
            if privileged and not self.s.report and not self.s.allow_pr_head_code:
                raise ActionContextError(
                    Problem(
                        "on pull_request_target the suite is not run, because the token can "
                        "write: gate an existing report (report:) or set "
                        "allow-pr-head-code: true after reading the README's security note",
                        field="FW_ALLOW_PR_HEAD_CODE",
                    )
                )
            pull = PullContext(
                event.base_repo, event.number, event.base_ref, event.head_sha, event.is_fork
            )
        self.install()
        if self.s.shard is not None:
            return self.run_shard()
        outcomes = [self.handle(path, pull) for path in self.candidates()]
        outputs = self.outputs(outcomes)
        if isinstance(event, PushEvent) and self.s.update_readme:
            outputs["readme-changed"] = "true" if self.update_readme(outcomes) else "false"
        return combine([o.exit_code for o in outcomes]), outputs

    def install(self) -> None:
        if not self.s.install:
            return
        self.say(f"installing: {self.s.install}")
        done = subprocess.run(
            ["bash", "-c", self.s.install], cwd=self.workdir, check=False, timeout=3600
        )
        if done.returncode != 0:
            raise ActionContextError(
                Problem(f"the install command exited with {done.returncode}", field="FW_INSTALL")
            )

    def run_shard(self) -> tuple[int, dict[str, str]]:
        """A matrix leg: run one shard and report where it is; the final job merges and gates."""
        paths, code = self._run_suites(shard=str(self.s.shard))
        return code, {
            "exit-code": str(code),
            "verdict": "shard",
            "report-path": "\n".join(self.rel(p) for p in paths),
            "markdown-path": "",
            "comment-url": "",
            "readme-changed": "false",
        }

    def _out_dir(self) -> Path:
        if self.config is None:
            return self.workdir
        from fairwitness.config import load_config

        loaded = load_config(self.config)
        return loaded.resolve(loaded.config.run.out)

    def _run_suites(self, shard: str | None = None) -> tuple[list[Path], int]:
        if self.config is None:
            raise ActionContextError(
                Problem(
                    "no fairwitness.toml (or [tool.fairwitness] in pyproject.toml) here; set "
                    "config: or working-directory:",
                    file=str(self.workdir),
                    field="FW_CONFIG",
                )
            )
        from fairwitness.suites import SuiteRun, run_suites  # only when a suite runs

        def show(ran: SuiteRun) -> None:
            for line in suite_lines(ran.suite, ran.report, ran.repeats, ran.report_path):
                self.err.write(line + "\n")

        done = run_suites(
            str(self.config),
            suite=self.s.suite,
            force=True,
            shard=shard,
            progress=self.err,
            on_report=show,
        )
        paths = [ran.report_path for ran in done.suites]
        self.written.extend(p for path in paths for p in (path, path.parent))
        if not paths:
            raise ActionContextError(f"the suite run wrote no report (exit {done.exit_code})")
        return paths, done.exit_code

    def candidates(self) -> list[Path]:
        if self.s.merge_artifacts:
            by_suite = collect_shards(
                self.client, self.s.repository, self.s.run_id, self.s.merge_artifacts, self.scratch
            )
            if self.s.suite:
                by_suite = {k: v for k, v in by_suite.items() if k == self.s.suite}
            merged = merge_collected(by_suite, self._out_dir())
            self.written.extend(p for path in merged for p in (path, path.parent))
            self.say(f"merged {sum(len(v) for v in by_suite.values())} shard report(s)")
            return merged
        if self.s.report:
            path = self.workdir / self.s.report
            if not path.is_file():
                raise ActionContextError(
                    Problem("report not found", file=str(path), field="FW_REPORT")
                )
            return [path]
        paths, _ = self._run_suites()
        return paths

    def handle(self, path: Path, pull: PullContext | None, key: str | None = None) -> SuiteOutcome:
        cand = load_for_decision(path)
        settings, templates = gate_settings(config=str(self.config) if self.config else None)
        renderer = Renderer(templates)
        context: list[str] = []
        found = Baseline()
        decision: Decision | None = None
        if pull is not None:
            finder = BaselineFinder(
                client=self.client,
                git=self.git,
                repo=pull.repo,
                base_ref=pull.base_ref,
                head_sha=pull.head_sha,
                artifact_name=self.s.baseline_artifact,
                scratch=self.scratch,
            )
            top = self.git.toplevel()
            committed = None
            if top is not None and not pull.relayed:
                try:
                    committed = path.resolve().relative_to(top.resolve()).as_posix()
                except ValueError:
                    committed = None
            found = finder.resolve(
                self.s.baseline or "auto", suite=cand.suite, committed_path=committed
            )
            context.append(found.describe())
            if found.report is not None:
                decision = decide(
                    found.report, cand, settings, baseline_name="baseline", candidate_name=None
                )
            elif self.s.require_baseline:
                decision = _no_baseline(found, settings.alpha, settings.test)
        history = trend_for(self, pull, cand, context)
        if pull is not None and pull.relayed:
            context.append("posted for a pull request from a fork by the workflow_run relay")
        summary_url = self.s.run_url
        where = "the job summary of this run"
        relayed = pull is not None and pull.relayed
        artifact = None if relayed else leave_page(self, path, found, decision, history)
        comment = render_comment(
            cand,
            found.report,
            decision,
            full_location=where,
            renderer=renderer,
            context=context,
            artifact=artifact,
            history=history,
        )
        summary = render_summary(
            cand,
            found.report,
            decision,
            renderer=renderer,
            context=context,
            artifact=artifact,
            history=history,
        )
        folder = self.scratch if relayed else path.parent
        markdown = self.write(folder / f"{cand.suite}.comment.md", comment)
        if self.s.step_summary_path is not None:
            append_step_summary(self.s.step_summary_path, summary + "\n", where=summary_url)
        code = decision.exit_code if decision is not None else EXIT_OK
        verdict = decision.verdict if decision is not None else "report"
        digest = decision_digest(decision, code, verdict)
        outcome = SuiteOutcome(cand.suite, path, code, verdict, markdown, digest=digest)
        if decision is not None:
            outcome.reasons = list(decision.reasons)
            self.annotate(cand.suite, decision)
        self.say(
            f"{cand.suite}: {verdict} (exit {code}); {context[0] if context else 'no baseline asked for'}"
        )
        if pull is not None:
            self.comment(pull, comment, cand, path, outcome, key)
        return outcome

    def annotate(self, suite: str, decision: Decision) -> None:
        if decision.exit_code == EXIT_OK:
            return
        level = self.annotations.warning if decision.exit_code == 3 else self.annotations.error
        for reason in decision.reasons:
            level(reason, title=f"fairwitness {suite}: {decision.verdict}")

    # -- comments --------------------------------------------------------------------------------

    def comment(
        self,
        pull: PullContext,
        body: str,
        cand: Report,
        path: Path,
        outcome: SuiteOutcome,
        key: str | None,
    ) -> None:
        if self.s.comment == "off":
            return
        key = key or self.s.comment_key
        if pull.is_fork and not pull.relayed:
            leave_for_relay(
                self, pull, cand, path, outcome, key, "the pull request comes from a fork"
            )
            return
        if self.client is None:
            self.annotations.warning("no GitHub token: the pull request comment was not posted")
            return
        done = post_comment(
            self.client,
            pull.repo,
            pull.number,
            body,
            mode=self.s.comment,
            key=key,
            summary_url=self.s.run_url,
            digest=outcome.digest,
            passing=passes_now(outcome.verdict, self.s.run_url) if outcome.exit_code == 0 else None,
        )
        outcome.comment_action = done.action
        if done.action == "forbidden" and not pull.relayed:
            leave_for_relay(self, pull, cand, path, outcome, key, done.message or "HTTP 403")
        elif not done.ok:
            self.annotations.warning(done.message or "the pull request comment was not posted")
        else:
            outcome.comment_url = done.url
            self.say(f"comment {done.action}: {done.url or done.message}")

    # -- outputs ---------------------------------------------------------------------------------

    def outputs(self, outcomes: list[SuiteOutcome]) -> dict[str, str]:
        code = combine([o.exit_code for o in outcomes])
        verdicts = {o.verdict for o in outcomes}
        verdict = VERDICTS[code] if code != EXIT_OK or verdicts <= {"pass"} else min(verdicts)
        return {
            "exit-code": str(code),
            "verdict": verdict,
            "report-path": "\n".join(self.rel(o.report_path) for o in outcomes),
            "markdown-path": "\n".join(
                self.rel(o.markdown_path) for o in outcomes if o.markdown_path
            ),
            "html-path": "\n".join(
                self.rel(page) for o in outcomes if (page := page_path(o.report_path)).is_file()
            ),
            "comment-url": "\n".join(o.comment_url for o in outcomes if o.comment_url),
            "comment-outcome": "\n".join(o.comment_action for o in outcomes if o.comment_action),
            "readme-changed": "false",
        }

    def update_readme(self, outcomes: list[SuiteOutcome]) -> bool:
        target = self.workspace / self.s.readme
        if not target.is_file():
            self.annotations.warning(f"update-readme: {self.s.readme} not found")
            return False
        before = target.read_bytes()
        for outcome in outcomes:
            for update in write_blocks(target, [outcome.report_path]):
                self.err.write(
                    f"updated: {target}:{update.block.line}: block '{update.block.name}'\n"
                )
        changed = target.read_bytes() != before
        if changed:
            self.written.append(target)
        return changed


def _no_baseline(found: Baseline, alpha: float, test: str) -> Decision:
    return Decision(
        exit_code=EXIT_INVALID,
        verdict="invalid",
        reasons=[f"require-baseline is set and there is {found.describe()}"],
        metrics=[],
        unpaired={"missing_from_candidate": [], "new_in_candidate": []},
        alpha=alpha,
        test=test,
    )


def main(
    environ: Mapping[str, str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    client: GitHubClient | None = None,
) -> int:
    """Run the action; returns the process exit code (the gate's, filtered by ``fail-on``)."""
    environ = os.environ if environ is None else environ
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    outputs: dict[str, str] = {"exit-code": str(EXIT_INVALID), "verdict": "invalid"}
    settings: Settings | None = None
    action: Action | None = None
    try:
        settings = Settings.from_environ(environ)
        for line in settings.mask_commands():
            stdout.write(line + "\n")
        if client is None and settings.token is not None:
            client = GitHubClient.from_settings(settings)
        action = Action(settings, client=client, stdout=stdout, stderr=stderr)
        with collector_for("action"):  # the command line's collector setting (fairwitness._gc)
            code, outputs = action.main()
    except KeyboardInterrupt:
        stdout.write(annotation("error", "the run was cancelled", title="fairwitness: interrupted"))
        stdout.write("\n")
        code = EXIT_INVALID
    except FairwitnessError as exc:
        for problem in exc.problems[:10]:
            stdout.write(annotation("error", str(problem), title="fairwitness: invalid") + "\n")
        code = EXIT_INVALID
    except Exception as exc:
        message = f"{type(exc).__name__}: {exc}"
        stdout.write(annotation("error", message, title="fairwitness: internal error") + "\n")
        traceback.print_exc(file=stderr)
        code = EXIT_INVALID
    finally:
        if action is not None:
            action.give_back()
    outputs["exit-code"] = str(code)
    if code == EXIT_INVALID:
        outputs["verdict"] = "invalid"
    output_path = settings.output_path if settings is not None else None
    if output_path is None and environ.get("GITHUB_OUTPUT"):
        output_path = Path(environ["GITHUB_OUTPUT"])
    if output_path is not None:
        try:
            set_outputs(output_path, outputs)
        except OSError as exc:
            stdout.write(annotation("warning", f"could not write the step outputs: {exc}") + "\n")
    fails = settings.fails(code) if settings is not None else True
    stdout.write(
        f"fairwitness: exit code {code} ({outputs.get('verdict')}); the step "
        f"{'fails' if fails else 'passes'}" + ("" if settings is None else " under fail-on") + "\n"
    )
    return code if fails else EXIT_OK
