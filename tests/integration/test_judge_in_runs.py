"""``fairwitness run`` with a judge from ``[judge]``: the bundled example scored by an OpenAI- or
Anthropic-compatible judge on a loopback server, recorded, replayed offline, capped, merged, gated."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairwitness.cli import main
from fairwitness.commands.run import run
from fairwitness.dataset import Dataset
from fairwitness.judge import CACHE_FILE, JUDGE_PROMPT_VERSION, judge_summary, read_prompt
from fairwitness.report import Report
from fairwitness.scoring import label_answer
from fairwitness.scoring.scorers import misreport_applies
from fairwitness.trace.model import Trace
from llm_fakes import Reply, anthropic_answer, chat_answer, error, serve

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "jobsearch"
KEY_ENV = "FW_TEST_JUDGE_KEY"
MODEL = "judge-model"
JUDGED = "misreport_as_empty_judged"


ITALIAN = {
    "misreport": "Non ci sono offerte di lavoro che corrispondono alla ricerca.",
    "acknowledged": "La ricerca non ha funzionato: il servizio non risponde, riprova tra poco.",
}
"""What the mixed agent says instead of a misreport or an acknowledgement, on some questions:
Italian, which the rule-based labeller does not read, so the judge decides those answers."""

MIXED_AGENT = f"""
import zlib

from agent import target as example
from fairwitness.dataset import Dataset
from fairwitness.scoring import label_answer
from fairwitness.scoring.scorers import misreport_applies
from fairwitness.trace.model import Trace

ITALIAN = {ITALIAN!r}


async def target(text):
    out = await example(text)
    label = label_answer(out["text"])
    if label in ITALIAN and zlib.crc32(text.encode()) % 2 == 0:
        out["text"] = ITALIAN[label]
    return out
"""


def judge_label(answer: str) -> str:
    """The label the scripted judge gives: the Italian answers' meaning, else the labeller's."""
    for label, text in ITALIAN.items():
        if answer == text:
            return label
    return label_answer(answer)


def rule_judge(answer: Callable[[str, str, tuple[int, int]], Reply]) -> Callable[..., Reply]:
    """A judge model that labels the answer in its prompt as the rule-based labeller does, and
    reads the mixed agent's Italian."""

    def script(path: str, body: dict[str, Any]) -> Reply:
        request = read_prompt(body["messages"][0]["content"])
        return answer(f"{MODEL}-2026", judge_label(request.answer), (150, 1))

    return script


def project(tmp_path: Path, judge: str, name: str = "project") -> Path:
    """A copy of the bundled example whose config adds ``judge`` to its ``[judge]`` section and
    runs the mixed agent: the example's agent answering some failed lookups in Italian."""
    folder = tmp_path / name
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("baseline", "fairwitness-out"))
    (folder / "mixed_agent.py").write_text(MIXED_AGENT, encoding="utf-8")
    config = folder / "fairwitness.toml"
    text = config.read_text(encoding="utf-8")
    assert "[judge]\n" in text and 'target = "agent:target"\n' in text
    text = text.replace('target = "agent:target"\n', 'target = "mixed_agent:target"\n')
    config.write_text(text.replace("[judge]\n", "[judge]\n" + judge.strip() + "\n"), "utf-8")
    return config


def italian_trials(out: Path, config: Path) -> int:
    """The Italian answers among the trials the misreport metrics read (a failing fault fired)."""
    cases = {case.id: case for case in Dataset.load(config.parent / "cases.jsonl")}
    found = 0
    for line in (out / "jobsearch.traces.jsonl").read_text(encoding="utf-8").splitlines():
        trace = Trace.model_validate_json(line)
        if trace.answer in ITALIAN.values():
            found += misreport_applies(trace, cases[trace.case_id]) is None
    return found


def openai_judge(url: str, extra: str = "") -> str:
    return f'provider = "openai"\nmodel = "{MODEL}"\nbase_url = "{url}/v1"\nkey_env = "{KEY_ENV}"\n{extra}'


def label_lines(config: Path) -> int:
    text = (config.parent / "judge-labels.jsonl").read_text(encoding="utf-8")
    return sum(1 for line in text.split("\n") if line.strip())


def quiet() -> dict[str, io.StringIO]:
    return {"stdout": io.StringIO(), "stderr": io.StringIO()}


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-judge")


def report_of(out: Path) -> Report:
    return Report.load(out / "jobsearch.report.json")


def test_a_run_scores_with_the_configured_judge_and_records_it(tmp_path: Path, key: None) -> None:
    with serve(rule_judge(chat_answer)) as server:
        config = project(tmp_path, openai_judge(server.url))
        assert run(str(config), out=str(tmp_path / "out"), **quiet()) == 0
    report = report_of(tmp_path / "out")
    judged, rules = report.metrics[JUDGED], report.metrics["misreport_as_empty"]
    # the labeller cannot read the Italian answers; the judge decides them, and only them
    assert rules.excluded.get("unreadable", 0) > 0
    assert "unreadable" not in judged.excluded
    assert judged.n == rules.n + rules.excluded["unreadable"] and judged.k >= rules.k > 0
    # and the Italian answers get the labels their English would: the example's own agent, run
    # alone with the same seed, has a labeller metric equal to the mixed agent's judged one
    plain = project(tmp_path, "", name="plain")
    text = plain.read_text(encoding="utf-8")
    plain.write_text(text.replace('"mixed_agent:target"', '"agent:target"'), encoding="utf-8")
    assert run(str(plain), out=str(tmp_path / "plain-out"), **quiet()) == 0
    alone = report_of(tmp_path / "plain-out").metrics["misreport_as_empty"]
    assert (judged.k, judged.n, judged.excluded) == (alone.k, alone.n, alone.excluded)
    italian = italian_trials(tmp_path / "out", config)
    for case in report.cases.values():
        if case.scores.get("misreport_as_empty") is not None:  # decided by the labeller
            assert case.scores.get(JUDGED) == case.scores.get("misreport_as_empty")
    block = report.diagnostics["judge"]
    assert block["judge"] == {
        "provider": "openai",
        "model": MODEL,
        "prompt_version": JUDGE_PROMPT_VERSION,
    }
    assert JUDGED in block["metrics"]
    # the calibration is this judge's: every label line was sent to it, then the run's prompts
    labels = label_lines(config)
    asked = block["usage"]["asked"]
    assert asked == italian > 0  # each Italian answer, and no answer the labeller read
    assert len(server.requests) == labels + asked
    decided = 3 * judged.n - italian  # the 3 repeats of each measured case, less the Italian
    assert block["usage"] == {
        "asked": asked,
        "live_calls": asked,
        "replayed": 0,
        "cost_usd": None,
        "mode": "live",
        "by_labeller": decided,
        "by_judge": italian,
        "unread": 0,
    }
    summary = judge_summary(report.diagnostics)
    assert summary is not None
    assert f"answers decided: {decided} by the labeller, {italian} of the {italian} it " in summary
    assert block["n"] == labels and block["publishable"] is True
    sent = server.requests[-1].body
    assert sent["model"] == MODEL and sent["temperature"] == 0
    assert server.requests[-1].headers["authorization"] == "Bearer sk-test-judge"


def test_an_anthropic_judge_scores_the_same(tmp_path: Path, key: None) -> None:
    with serve(rule_judge(anthropic_answer)) as server:
        judge = (
            f'provider = "anthropic"\nmodel = "{MODEL}"\nbase_url = "{server.url}"\n'
            f'key_env = "{KEY_ENV}"'
        )
        assert run(str(project(tmp_path, judge)), out=str(tmp_path / "out"), **quiet()) == 0
    assert {request.path for request in server.requests} == {"/v1/messages"}
    report = report_of(tmp_path / "out")
    assert report.metrics[JUDGED].k == report.metrics["misreport_as_empty"].k
    assert report.diagnostics["judge"]["judge"]["provider"] == "anthropic"


def test_record_then_replay_offline_without_a_key(
    tmp_path: Path, key: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(rule_judge(chat_answer)) as server:
        config = project(tmp_path, openai_judge(server.url))
        assert run(str(config), mode="record", out=str(tmp_path / "recorded"), **quiet()) == 0
        url = server.url
    recorded = report_of(tmp_path / "recorded")
    cache = config.parent / ".fairwitness" / "cache" / CACHE_FILE
    assert cache.exists()
    monkeypatch.delenv(KEY_ENV)
    with serve(lambda path, body: error(500, "must not be called")) as dead:
        text = config.read_text(encoding="utf-8").replace(url, dead.url)
        config.write_text(text, encoding="utf-8")
        assert run(str(config), mode="replay", out=str(tmp_path / "replayed"), **quiet()) == 0
        assert dead.requests == []
    replayed = report_of(tmp_path / "replayed")
    assert replayed.metrics[JUDGED] == recorded.metrics[JUDGED]
    usage = replayed.diagnostics["judge"]["usage"]
    assert usage["live_calls"] == 0 and usage["replayed"] == usage["asked"] > 0
    assert usage["mode"] == "replay"


def test_a_judge_call_limit_stops_the_run_incomplete(tmp_path: Path, key: None) -> None:
    with serve(rule_judge(chat_answer)) as server:
        config = project(tmp_path, openai_judge(server.url, "max_calls = 65"))
        streams = quiet()
        assert run(str(config), out=str(tmp_path / "out"), **streams) == 4
    report = report_of(tmp_path / "out")
    assert not report.complete
    assert "judge stopped" in (report.incomplete_reason or "")
    assert "max_calls=65" in (report.incomplete_reason or "")
    assert "run incomplete" in streams["stderr"].getvalue()


def test_failed_judge_calls_leave_trials_unscored_never_labelled(tmp_path: Path, key: None) -> None:
    def refuses_acknowledged(path: str, body: dict[str, Any]) -> Reply:
        label = judge_label(read_prompt(body["messages"][0]["content"]).answer)
        if label == "misreport":
            return chat_answer(MODEL, label, (150, 1))
        return error(400, "the judge refuses this prompt")  # a 400 is not retried

    with serve(refuses_acknowledged) as server:
        config = project(tmp_path, openai_judge(server.url))
        text = config.read_text(encoding="utf-8").replace('labels = "judge-labels.jsonl"\n', "")
        config.write_text(text, encoding="utf-8")
        assert run(str(config), out=str(tmp_path / "out"), **quiet()) == 0
    report = report_of(tmp_path / "out")
    judged = report.metrics[JUDGED]
    # the Italian acknowledgements the judge refused are unscored, never counted as either label
    refused = [
        case
        for case in report.cases.values()
        if case.excluded.get(JUDGED) == "unscored" and case.scores.get(JUDGED) is None
    ]
    assert refused and judged.excluded["unscored"] == len(refused)
    for case in refused:
        assert case.excluded.get("misreport_as_empty") == "unreadable"
    assert report.complete
    # without calibration labels the judge's metric is withheld, and the rendering says why
    assert report.diagnostics["judge"]["publishable"] is False


def test_an_unparseable_reply_is_unreadable_not_a_hit(tmp_path: Path, key: None) -> None:
    with serve(lambda path, body: chat_answer(MODEL, "Misreport.", (150, 2))) as server:
        config = project(tmp_path, openai_judge(server.url))
        text = config.read_text(encoding="utf-8").replace('labels = "judge-labels.jsonl"\n', "")
        config.write_text(text, encoding="utf-8")
        assert run(str(config), out=str(tmp_path / "out"), **quiet()) == 0
    report = report_of(tmp_path / "out")
    judged, rules = report.metrics[JUDGED], report.metrics["misreport_as_empty"]
    # what the labeller read stands; the Italian answers stay unreadable, never a hit
    assert (judged.k, judged.n) == (rules.k, rules.n)
    assert judged.excluded["unreadable"] == rules.excluded["unreadable"] > 0
    usage = report.diagnostics["judge"]["usage"]
    assert usage["by_judge"] == 0 and usage["unread"] == usage["asked"] > 0


@pytest.mark.parametrize(
    ("extra", "env", "message"),
    [
        ("", False, f"the judge's API key variable {KEY_ENV} is not set"),
        ("max_cost_usd = 1.0", True, "max_cost_usd needs the price of 'judge-model'"),
        (
            'metrics = ["misreport_as_empty_judgd"]',
            True,
            "did you mean 'misreport_as_empty_judged'",
        ),
    ],
)
def test_a_judge_that_cannot_run_is_refused_before_any_call(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    extra: str,
    env: bool,
    message: str,
) -> None:
    if env:
        monkeypatch.setenv(KEY_ENV, "sk-test-judge")
    else:
        monkeypatch.delenv(KEY_ENV, raising=False)
    with serve(rule_judge(chat_answer)) as server:
        config = project(tmp_path, openai_judge(server.url, extra))
        assert main(["run", str(config), "--out", str(tmp_path / "out")]) == 4
        assert server.requests == []
    err = capsys.readouterr().err
    assert f"{config}:" in err and message in err and "field 'judge." in err
    assert not (tmp_path / "out").exists()
    if env:  # validate names the same problem, with no key and no call
        monkeypatch.delenv(KEY_ENV)
        assert main(["validate", str(config)]) == 4
        assert message in capsys.readouterr().err


def test_calibrate_uses_the_configured_judge(
    tmp_path: Path, key: None, capsys: pytest.CaptureFixture[str]
) -> None:
    def contrary(path: str, body: dict[str, Any]) -> Reply:
        request = read_prompt(body["messages"][0]["content"])
        flipped = {"misreport": "acknowledged", "acknowledged": "misreport"}
        label = label_answer(request.answer)
        return chat_answer(MODEL, flipped.get(label, label), (150, 1))

    with serve(contrary) as server:
        config = project(tmp_path, openai_judge(server.url))
        code = main(["judge", "calibrate", "--config", str(config)])
        labels = label_lines(config)
        assert len(server.requests) == labels
    out = capsys.readouterr().out
    # the stored labels agree with the humans (kappa 0.84); this judge does not
    assert code == 3 and "WITHHELD" in out
    assert f"judge: openai:{MODEL} (prompt {JUDGE_PROMPT_VERSION}, live: {labels} live calls" in out


def gate_pair(tmp_path: Path, key: None, models: tuple[str, str]) -> tuple[Path, Path]:
    paths = []
    for index, model in enumerate(models):
        with serve(rule_judge(chat_answer)) as server:
            judge = openai_judge(server.url).replace(f'model = "{MODEL}"', f'model = "{model}"')
            config = project(tmp_path, judge, name=f"p{index}")
            out = tmp_path / f"out{index}"
            assert run(str(config), out=str(out), **quiet()) == 0
            paths.append(out / "jobsearch.report.json")
    return paths[0], paths[1]


def test_the_gate_never_compares_numbers_from_two_judges(
    tmp_path: Path, key: None, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = gate_pair(tmp_path, key, ("judge-a", "judge-b"))
    capsys.readouterr()
    assert main(["gate", str(before), str(after), "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    gated = [metric["name"] for metric in decision["metrics"] if metric["gated"]]
    assert "misreport_as_empty" in gated and JUDGED not in gated
    notes = " ".join(decision["notes"])
    assert "not compared: the judge changed" in notes
    assert "openai:judge-a (prompt fw-judge/1)" in notes
    assert main(["gate", str(before), str(after), "--metric", JUDGED]) == 4
    assert "a paired test across two judges" in capsys.readouterr().out


def test_the_same_judge_is_gated(
    tmp_path: Path, key: None, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = gate_pair(tmp_path, key, (MODEL, MODEL))
    capsys.readouterr()
    assert main(["gate", str(before), str(after), "--metric", JUDGED, "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert [metric["name"] for metric in decision["metrics"] if metric["gated"]] == [JUDGED]


def test_shards_merge_with_the_judges_work_summed(tmp_path: Path, key: None) -> None:
    with serve(rule_judge(chat_answer)) as server:
        config = project(tmp_path, openai_judge(server.url))
        assert run(str(config), mode="record", out=str(tmp_path / "whole"), **quiet()) == 0
        for i in (1, 2):
            assert (
                run(str(config), mode="replay", shard=f"{i}/2", out=str(tmp_path / "s"), **quiet())
                == 0
            )
    shards = sorted(str(p) for p in (tmp_path / "s").glob("*.shard-*.report.json"))
    out = tmp_path / "merged" / "jobsearch.report.json"
    assert main(["merge", *shards, "--out", str(out)]) == 0
    merged, whole = Report.load(out), report_of(tmp_path / "whole")
    assert merged.metrics[JUDGED] == whole.metrics[JUDGED]
    usage = merged.diagnostics["judge"]["usage"]
    alone = whole.diagnostics["judge"]["usage"]
    for key in ("asked", "by_labeller", "by_judge", "unread"):
        assert usage[key] == alone[key], key
    assert usage["by_judge"] > 0 and usage["by_labeller"] > 0
    assert usage["replayed"] == usage["asked"] and usage["live_calls"] == 0
    assert usage["mode"] == "replay"
