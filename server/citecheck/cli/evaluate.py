"""``citecheck eval DATASET.jsonl`` and ``citecheck eval make``: the evaluation edge (files, stdout).

``eval DATASET.jsonl`` checks every excerpt against the local corpus only (``--corpus`` or the
configured one; ``--online`` uses the whole source chain instead) and prints precision, recall and
F1 overall and per type. ``eval make --corpus FILE --out DATASET.jsonl`` writes a dataset built
from the corpus (see ``citecheck.evaluation.dataset``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck.config import Settings
from citecheck.errors import ConfigError, InputError
from citecheck.sources.base import AuthoritySource

if TYPE_CHECKING:
    from citecheck.evaluation.scoring import Example
    from citecheck.holdings.stage import HoldingStage

# A checkout's default only: the real case tuples beside it (../shared, never shipped); give --real-cases elsewhere.
DEFAULT_REAL_CASES = (
    Path(__file__).resolve().parents[4] / "shared" / "corpus" / "citations" / "legalcitebench-cases-A.jsonl"
)


def add_eval_commands(subparsers: argparse._SubParsersAction[Any]) -> None:
    p = subparsers.add_parser(
        "eval",
        help="score citecheck on a dataset, or make one from a corpus",
        description="citecheck eval DATASET.jsonl  |  citecheck eval make --corpus FILE --out DATASET.jsonl",
    )
    p.add_argument(
        "target", metavar="DATASET.jsonl|make", help="a LePhantomCite-format JSONL file, or 'make'"
    )
    p.add_argument("--corpus", default=argparse.SUPPRESS, metavar="FILE", help="local corpus (SQLite) to use")
    p.add_argument("--config", type=Path, default=argparse.SUPPRESS, metavar="FILE", help="settings file")
    p.add_argument("--offline", action="store_true", default=argparse.SUPPRESS, help="never use the network")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
    p.add_argument(
        "--online", action="store_true", help="eval: use the configured source chain, not only the corpus"
    )
    p.add_argument("--json", action="store_true", help="eval: print the scores as JSON")
    p.add_argument(
        "--details", type=int, default=0, metavar="N", help="eval: list up to N misses and false alarms"
    )
    p.add_argument("--out", type=Path, metavar="FILE", help="make: where to write the dataset")
    p.add_argument("--n", type=int, default=200, help="make: number of excerpts (default 200)")
    p.add_argument("--seed", type=int, default=0, help="make: random seed (default 0)")
    p.add_argument(
        "--type",
        choices=("citations", "misrepresentation", "fixes"),
        default="citations",
        dest="item_type",
        help="make: 'citations' (fabricated cases, names, pins, misquotes; the default) or "
        "'misrepresentation' (propositions a case does not support, with supported controls) or "
        "'fixes' (citations whose right correction is known: invented citations, another case's citation, "
        "another case's name; scored on the fixes offered)",
    )
    p.add_argument(
        "--no-holdings", action="store_true", help="eval: skip the holding judge even when configured"
    )
    p.add_argument(
        "--real-cases",
        type=Path,
        metavar="FILE",
        help="make: JSONL of real cases not in the corpus (LegalCiteBench format) for clean excerpts",
    )


async def run_eval_command(args: argparse.Namespace, settings: Settings) -> int:
    if args.target == "make":
        return _make(args, settings)
    return await _evaluate(args, settings)


def _make(args: argparse.Namespace, settings: Settings) -> int:
    from citecheck.evaluation.corpus_samples import load_real_cases, load_samples
    from citecheck.evaluation.dataset import make_dataset
    from citecheck.evaluation.misrepresentation import make_misrepresentation_items

    if not getattr(args, "corpus", None):
        raise ConfigError("eval make needs --corpus FILE (the corpus to draw cases from)")
    if args.out is None:
        raise ConfigError("eval make needs --out DATASET.jsonl")
    if args.n < 1:
        raise ConfigError("--n must be at least 1")
    corpus = Path(settings.corpus_path)
    if not corpus.is_file():
        raise InputError(f"no corpus at {corpus} (import one with `citecheck corpus import`)")
    samples = load_samples(corpus)
    if args.item_type == "misrepresentation":
        return _write_rows(args, make_misrepresentation_items(samples, n=args.n, seed=args.seed), corpus)
    real_path = args.real_cases or (DEFAULT_REAL_CASES if DEFAULT_REAL_CASES.is_file() else None)
    real = load_real_cases(real_path) if real_path else []
    if not real:
        sys.stderr.write(
            "citecheck: no real-case list found; the set will have no uncovered clean excerpts\n"
        )
    if args.item_type == "fixes":
        from citecheck.evaluation.fix_items import make_fix_dataset

        return _write_rows(args, make_fix_dataset(samples, real, n=args.n, seed=args.seed), corpus)
    rows = make_dataset(samples, real, n=args.n, seed=args.seed)
    return _write_rows(args, rows, corpus)


def _write_rows(args: argparse.Namespace, rows: list[dict[str, object]], corpus: Path) -> int:
    if not rows:
        raise InputError(f"{corpus}: no case with opinion text and a page map to quote from")
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {args.out}: {exc.strerror or exc}") from exc
    kinds = Counter(str(r["injected"]) for r in rows if r["injected"])
    clean = sum(1 for r in rows if not r["injected"])
    summary = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    sys.stderr.write(f"citecheck: wrote {len(rows)} excerpts to {args.out} ({clean} clean; {summary})\n")
    return 0


async def _evaluate(args: argparse.Namespace, settings: Settings) -> int:
    from citecheck.evaluation import parse_dataset

    path = Path(args.target)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text") from exc
    examples = parse_dataset(lines, origin=str(path))
    if not examples:
        raise InputError(f"{path}: no examples")
    from citecheck.holdings.stage import HoldingStage

    holdings = HoldingStage.from_settings(replace(settings, holdings=not args.no_holdings))
    wants_judge = any(c == "misrepresentation" for ex in examples for _, c in ex.gold) or any(
        ex.control == "misrepresentation" for ex in examples
    )
    if wants_judge and holdings is None:
        sys.stderr.write(
            "citecheck: misrepresentation items need the holding judge: set model_url and model_name "
            "(they will count as misses)\n"
        )
    try:
        return await _score(args, settings, examples, holdings)
    finally:
        if holdings is not None:
            await holdings.close()


async def _score(
    args: argparse.Namespace, settings: Settings, examples: list[Example], holdings: HoldingStage | None
) -> int:
    from citecheck.evaluation import evaluate, render_table

    if args.online:
        from citecheck.sources.chain import open_source

        async with open_source(settings) as source:
            scores = await evaluate(examples, source, settings, holdings=holdings)
    else:
        from citecheck.sources.corpus import Corpus, CorpusSource

        corpus = Path(settings.corpus_path)
        if not corpus.is_file():
            raise InputError(f"no corpus at {corpus} (give --corpus FILE, or --online)")
        local: AuthoritySource = CorpusSource(Corpus(corpus, readonly=True))
        try:
            scores = await evaluate(examples, local, settings, holdings=holdings)
        finally:
            await local.close()
    if args.json:
        data = scores.to_json()
        if not args.details:
            data.pop("misses", None)
            data.pop("false_alarms", None)
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    sys.stdout.write(render_table(scores) + "\n")
    if args.details:
        for ex_id, span, typ in scores.misses[: args.details]:
            sys.stdout.write(f"miss         {ex_id}: [{typ}] {span}\n")
        for ex_id, span, kind, msg in scores.false_alarms[: args.details]:
            sys.stdout.write(f"false alarm  {ex_id}: [{kind}] {span}: {msg}\n")
    return 0
