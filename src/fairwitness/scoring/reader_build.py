"""Build the reader's weights from the tuning corpora: ``python -m fairwitness.scoring.reader_build``.

Only the corpora the labeller's rules were tuned on are read (``TRAINING``); the frozen held-out
corpora are never opened here. The build is deterministic (a seeded shuffle, fixed rounding), so
the shipped ``reader_weights.json`` is checked against a fresh build by the tests.

The answers the reader is for are those the rules leave without a signal, so the training weights
them up: ``reader_pools.json`` lists, for each tuning corpus, the answers that the labeller
version which first scored it (untouched) left unreadable without a signal.

``--cross-validate`` prints how the reader would have done on each tuning corpus had it been
trained without it, on that corpus's pool, beside the rules of that day: the figures the
threshold and the training settings were chosen on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from fairwitness.scoring import reader as R
from fairwitness.scoring._normalise import Mapped

TRAINING = (
    "misreport_answers.jsonl",
    "misreport_heldout.jsonl",
    "misreport_heldout2.jsonl",
    "misreport_heldout3.jsonl",
    "misreport_tuning5.jsonl",
    "misreport_tuning6.jsonl",
    "misreport_tuning7.jsonl",
    "misreport_tuning8.jsonl",
    "misreport_tuning9.jsonl",
    "misreport_tuning10.jsonl",
    "misreport_tuning11.jsonl",
    "misreport_tuning12.jsonl",
    "misreport_tuning13.jsonl",
    "misreport_tuning14.jsonl",
    "misreport_tuning15.jsonl",
    "misreport_tuning16.jsonl",
    "misreport_tuning17.jsonl",
    "misreport_tuning18.jsonl",
    "misreport_tuning19.jsonl",
)
"""The corpora the rules were tuned on. (``misreport_heldout``, ``2`` and ``3`` were held out
once, then tuned on; ``heldout4`` and later are frozen and never read here.)"""
FROZEN = (
    "misreport_heldout4.jsonl",
    "misreport_heldout5.jsonl",
    "misreport_heldout6.jsonl",
    "misreport_heldout7.jsonl",
    "misreport_heldout8.jsonl",
    "misreport_heldout9.jsonl",
    "misreport_heldout10.jsonl",
    "misreport_heldout11.jsonl",
    "misreport_heldout12.jsonl",
    "misreport_heldout13.jsonl",
    "misreport_heldout14.jsonl",
)

POOLS = "reader_pools.json"
L2 = 1e-4
EPOCHS = 30
RATE = 0.5
SEED = 17
THRESHOLD = 0.9
MIN_DOCS = 3
"""A feature seen in fewer training answers than this is dropped."""
POOL_WEIGHT = 3.0
"""The weight of an answer the rules of its day left without a signal."""

Doc = tuple[frozenset[str], int]


def corpus_dir() -> Path:
    return Path(__file__).resolve().parents[3] / "tests" / "corpus"


def load(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def answer_features(text: str) -> frozenset[str]:
    plain = _folded(text).text
    return frozenset(name for name, _ in R.features(R.tokens(plain), plain))


def documents(rows: Iterable[dict[str, str]]) -> list[Doc]:
    """Answers as feature sets with their class. ``other`` answers (all unreadable) are kept:
    the language detector reads most of them, but one it takes for a covered language (Catalan
    for Spanish, say) reaches the reader, which must then leave it unreadable."""
    return [(answer_features(row["text"]), R.CLASSES.index(row["label"])) for row in rows]


def train(
    docs: Sequence[Doc],
    *,
    l2: float = L2,
    epochs: int = EPOCHS,
    rate: float = RATE,
    seed: int = SEED,
    min_docs: int = MIN_DOCS,
    weights_of: Sequence[float] | None = None,
) -> R.Model:
    """Multinomial logistic regression by AdaGrad over shuffled answers, L2-regularised;
    ``weights_of`` gives each answer's weight (default 1)."""
    k = len(R.CLASSES)
    seen: dict[str, int] = {}
    for names, _ in docs:
        for name in names:
            seen[name] = seen.get(name, 0) + 1
    kept: list[tuple[list[str], int]] = [
        (sorted(n for n in names if seen[n] >= min_docs), label) for names, label in docs
    ]
    weights: dict[str, list[float]] = {}
    squares: dict[str, list[float]] = {}
    bias = [0.0] * k
    bias_squares = [1e-8] * k
    order = list(range(len(kept)))
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(order)
        for index in order:
            words, label = kept[index]
            scale = R.scale(len(words))
            scores = list(bias)
            for name in words:
                row = weights.get(name)
                if row is not None:
                    for c in range(k):
                        scores[c] += row[c] * scale
            probs = R.softmax(scores)
            share = weights_of[index] if weights_of is not None else 1.0
            grad = [share * (probs[c] - (1.0 if c == label else 0.0)) for c in range(k)]
            for c in range(k):
                bias_squares[c] += grad[c] ** 2
                bias[c] -= rate * grad[c] / math.sqrt(bias_squares[c])
            for name in words:
                row = weights.setdefault(name, [0.0] * k)
                sq = squares.setdefault(name, [1e-8] * k)
                for c in range(k):
                    g = grad[c] * scale + l2 * row[c]
                    sq[c] += g * g
                    row[c] -= rate * g / math.sqrt(sq[c])
    # Every kept feature stays in the file, however small its weights: reading scales an
    # answer by the features the model has, which must be the ones training scaled it by.
    rounded = {name: tuple(round(w, 4) for w in row) for name, row in sorted(weights.items())}
    return R.Model(tuple(round(b, 4) for b in bias), rounded, THRESHOLD)


def to_json(m: R.Model, sources: dict[str, str]) -> str:
    raw = {
        "about": "fairwitness answer reader: multinomial logistic regression weights, built by "
        "python -m fairwitness.scoring.reader_build from the tuning corpora listed in trained_on",
        "classes": list(R.CLASSES),
        "threshold": m.threshold,
        "settings": {"l2": L2, "epochs": EPOCHS, "rate": RATE, "seed": SEED, "min_docs": MIN_DOCS},
        "trained_on": sources,
        "bias": list(m.bias),
        "weights": {name: list(row) for name, row in m.weights.items()},
    }
    return json.dumps(raw, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n"


def pools(directory: Path) -> dict[str, set[str]]:
    raw = json.loads((directory / POOLS).read_text("utf-8"))
    return {name: set(entry["ids"]) for name, entry in raw["pools"].items()}


def weighted(
    rows: dict[str, list[dict[str, str]]], pool: dict[str, set[str]], leave_out: str | None = None
) -> tuple[list[Doc], list[float]]:
    """Training answers and their weights, less the corpus ``leave_out``."""
    docs: list[Doc] = []
    shares: list[float] = []
    for name in TRAINING:
        if name == leave_out:
            continue
        chosen = rows[name]
        docs.extend(documents(chosen))
        ids = pool.get(name, set())
        shares.extend(POOL_WEIGHT if row["id"] in ids else 1.0 for row in chosen)
    return docs, shares


def build(directory: Path | None = None) -> str:
    """The weights file's text, trained on ``TRAINING`` in ``directory``."""
    directory = directory or corpus_dir()
    sources = {}
    rows = {}
    for name in (*TRAINING, POOLS):
        sources[name] = hashlib.sha256((directory / name).read_bytes()).hexdigest()
    for name in TRAINING:
        rows[name] = load(directory / name)
    docs, shares = weighted(rows, pools(directory))
    return to_json(train(docs, weights_of=shares), sources)


def cross_validate(
    directory: Path | None = None, thresholds: Sequence[float] = (0.6, 0.7, 0.8, 0.9)
) -> list[str]:
    """Leave one pooled tuning corpus out, train on the rest, and read its pool: how many of the
    pool's misreports the reader recovers and how many other answers it calls misreports."""
    directory = directory or corpus_dir()
    rows = {name: load(directory / name) for name in TRAINING}
    pool = pools(directory)
    tally: dict[tuple[float, str, str], int] = {}
    for held in pool:
        docs, shares = weighted(rows, pool, leave_out=held)
        m = train(docs, weights_of=shares)
        for row in rows[held]:
            if row["id"] not in pool[held]:
                continue
            for threshold in thresholds:
                said = R.read(_folded(row["text"]), R.Model(m.bias, m.weights, threshold)).label
                key = (threshold, row["label"], said)
                tally[key] = tally.get(key, 0) + 1
    lines = []
    for threshold in thresholds:

        def n(gold: str, said: str, t: float = threshold) -> int:
            return tally.get((t, gold, said), 0)

        total = {gold: sum(n(gold, said) for said in R.CLASSES) for gold in R.CLASSES}
        hit = n("misreport", "misreport")
        false = n("unreadable", "misreport") + n("acknowledged", "misreport")
        lines.append(
            f"threshold {threshold:.2f}: misreports read {hit}/{total['misreport']}, "
            f"unreadable read as misreport {n('unreadable', 'misreport')}/{total['unreadable']}, "
            f"acknowledged read as misreport {n('acknowledged', 'misreport')}/"
            f"{total['acknowledged']} (precision {hit / max(1, hit + false):.3f}); "
            f"acknowledged read {n('acknowledged', 'acknowledged')}/{total['acknowledged']}, "
            f"others read as acknowledged "
            f"{n('unreadable', 'acknowledged') + n('misreport', 'acknowledged')}"
        )
    return lines


def _folded(text: str) -> Mapped:
    from fairwitness.scoring.misreport import reading_text

    return reading_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fairwitness.scoring.reader_build")
    parser.add_argument("--check", action="store_true", help="fail if the shipped weights differ")
    parser.add_argument(
        "--cross-validate",
        action="store_true",
        help="print leave-one-corpus-out figures on the pools",
    )
    args = parser.parse_args(argv)
    if not corpus_dir().is_dir():
        print(
            f"reader_build: no corpora at {corpus_dir()}: run it from a source checkout",
            file=sys.stderr,
        )
        return 4
    if args.cross_validate:
        print("\n".join(cross_validate()))
        return 0
    target = Path(R.__file__).with_name(R.WEIGHTS_FILE)
    text = build()
    if args.check:
        same = target.exists() and target.read_text("utf-8") == text
        print("reader weights are up to date" if same else f"{target} differs from a fresh build")
        return 0 if same else 1
    target.write_text(text, "utf-8")
    print(f"wrote {target} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
