"""``fairwitness judge calibrate LABELS.jsonl``: the report, the exit codes 0/3/4, the JSON form,
on the bundled example labels and on label files written to disk."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fairwitness.commands.judge import calibrate
from fairwitness.errors import DatasetError, UsageError
from fairwitness.judge import FakeJudge, load_labels
from fairwitness.judge import calibrate as calibrate_records

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_LABELS = ROOT / "examples" / "jobsearch" / "judge-labels.jsonl"
LABELS = ["acknowledged", "misreport", "unreadable"]


def run(path: Path | str, **kwargs: object) -> tuple[int, str]:
    out = io.StringIO()
    code = calibrate(str(path), stdout=out, **kwargs)  # type: ignore[arg-type]
    return code, out.getvalue()


def label_file(write_jsonl, wrong: int, n: int = 60, languages: tuple[str, ...] = ("en",)) -> Path:
    lines = []
    for i in range(n):
        human = LABELS[i % 3]
        judge = LABELS[(i + 1) % 3] if i < wrong else human
        lines.append(
            {
                "id": f"r{i:03d}",
                "human": human,
                "judge": judge,
                "language": languages[i % len(languages)],
            }
        )
    return write_jsonl(lines, name="labels.jsonl")


def test_the_bundled_example_is_publishable() -> None:
    code, out = run(EXAMPLE_LABELS)
    assert code == 0
    head = out.splitlines()[0]
    assert head.startswith(
        "fairwitness judge calibrate: PUBLISHABLE (exit 0): kappa 0.84 [0.72, 0.96]"
    )
    assert head.endswith("lower bound 0.72 reaches 0.6: judge-derived numbers may be published")
    assert "accuracy  0.900 [0.799, 0.953] (54/60 agree; Wilson 95% interval)" in out
    assert (
        "\n".join(
            [
                "confusion matrix (rows: human label, columns: judge label)",
                "  human \\ judge  acknowledged  misreport  unreadable",
                "  acknowledged             22          2           0",
                "  misreport                 3         21           0",
                "  unreadable                0          1          11",
            ]
        )
        in out
    )
    assert "  label         human  judge  agreed  precision  recall     f1" in out
    assert "  unreadable       12     11      11      1.000   0.917  0.957" in out
    assert "  language   n  agree  accuracy  kappa" in out
    assert "  es        20  17/20     0.850  0.76 [0.51, 1.00]" in out
    assert out.rstrip().endswith(
        "disagreements: cal-en-006, cal-de-007, cal-de-014, cal-es-008, cal-es-015, cal-es-019"
    )


def test_the_bundled_example_as_json() -> None:
    code, out = run(EXAMPLE_LABELS, as_json=True)
    data = json.loads(out)
    assert code == data["exit_code"] == 0
    assert data["decision"]["publishable"] is True
    assert data["decision"]["threshold"] == 0.6
    assert data["calibration"]["n"] == 60
    assert data["calibration"]["kappa"]["ci_low"] > 0.6
    assert data["calibration"]["labels"] == LABELS
    assert data["labels_file"] == str(EXAMPLE_LABELS)


def test_a_stricter_threshold_withholds_with_exit_3() -> None:
    code, out = run(EXAMPLE_LABELS, threshold=0.8)
    assert code == 3
    assert out.splitlines()[0] == (
        "fairwitness judge calibrate: WITHHELD (exit 3): kappa 0.84 [0.72, 0.96] (95% interval, "
        "n=60): lower bound 0.72 is below 0.8: judge-derived numbers are withheld"
    )
    assert "  note: language es: kappa 0.76 [0.51, 1.00] (n=20) is below 0.8" in out


def test_a_weak_judge_is_withheld_with_exit_3(write_jsonl) -> None:
    path = label_file(write_jsonl, wrong=14, languages=("en", "de"))
    code, out = run(path)
    assert code == 3
    assert "WITHHELD (exit 3)" in out and "is below 0.6: judge-derived numbers are withheld" in out
    code, out = run(path, as_json=True)
    data = json.loads(out)
    assert code == data["exit_code"] == 3
    assert data["decision"]["publishable"] is False
    assert data["decision"]["reason"].endswith("judge-derived numbers are withheld")


def test_too_few_items_is_inconclusive_not_a_pass(write_jsonl) -> None:
    path = label_file(write_jsonl, wrong=0, n=9)
    code, out = run(path)
    assert code == 3
    assert out.splitlines()[0] == (
        "fairwitness judge calibrate: WITHHELD (exit 3): kappa is not estimated (9 items, fewer "
        "than 10): judge-derived numbers are withheld"
    )
    assert "accuracy  9/9 agree (no share below 10 items)" in out
    assert "  en        9    9/9         -  - (9 items, fewer than 10)" in out


def test_bad_labels_raise_exit_4_and_print_nothing(write_jsonl) -> None:
    path = write_jsonl(
        [{"id": "a", "human": "misreport", "judge": "misreport"}, {"id": "a", "human": "x"}],
        name="labels.jsonl",
    )
    out = io.StringIO()
    with pytest.raises(DatasetError) as caught:
        calibrate(str(path), as_json=True, stdout=out)
    assert caught.value.exit_code == 4
    assert str(caught.value) == (
        f"{path}:2: field 'judge': required field is missing (no judge was given to label the item)"
    )
    assert out.getvalue() == ""
    assert sorted(p.name for p in path.parent.iterdir()) == ["labels.jsonl"]


@pytest.mark.parametrize("threshold", [0.0, 1.5, float("nan")])
def test_a_bad_threshold_is_a_usage_error(threshold: float) -> None:
    out = io.StringIO()
    with pytest.raises(UsageError, match=r"--threshold: expected a number in \(0, 1\]") as caught:
        calibrate(str(EXAMPLE_LABELS), threshold=threshold, stdout=out)
    assert caught.value.exit_code == 4
    assert out.getvalue() == ""


def test_the_rule_based_labeller_as_a_judge_on_the_bundled_items(tmp_path: Path) -> None:
    """The demo path: drop the recorded judge labels and let the offline judge label the items."""
    lines = []
    for raw in EXAMPLE_LABELS.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        del record["judge"]
        lines.append(json.dumps(record, ensure_ascii=False))
    path = tmp_path / "unjudged.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    judge = FakeJudge()
    result = calibrate_records(load_labels(path, judge=judge, concurrency=8))
    assert judge.calls == result.n == 60
    assert set(result.labels) <= set(LABELS)
    assert result.kappa.value is not None
    again = calibrate_records(load_labels(path, judge=FakeJudge(), concurrency=1))
    assert again == result
    noisy = calibrate_records(load_labels(path, judge=FakeJudge(error_rate=0.4, seed=11)))
    assert noisy.kappa.value is not None and noisy.kappa.value < result.kappa.value
    assert not noisy.publishable()
