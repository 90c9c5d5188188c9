"""Evaluation: score citecheck on LePhantomCite-format datasets, and make such datasets from a corpus."""

from citecheck.evaluation.dataset import CaseSample, RealCase, make_dataset
from citecheck.evaluation.runner import evaluate
from citecheck.evaluation.scoring import DETERMINISTIC, Example, Scores, parse_dataset, render_table

__all__ = [
    "DETERMINISTIC",
    "CaseSample",
    "Example",
    "RealCase",
    "Scores",
    "evaluate",
    "make_dataset",
    "parse_dataset",
    "render_table",
]
