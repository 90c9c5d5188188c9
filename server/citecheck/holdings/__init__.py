"""Holding checks: does the cited case say what the draft says it says? Judged by a local model endpoint.

Pipeline of this stage: ``claims_for`` (which citations claim what) → ``retrieve_passages`` (FTS5 bm25
over the opinion's paragraphs) → ``JudgmentCache`` → ``ModelClient`` (OpenAI-compatible endpoint) →
``parse_judgment`` (schema validation) → ``verify_judgment`` (the quote must be in the opinion) →
``holding_findings``. ``stage.HoldingStage`` runs it between ``gather`` and ``judge``. See
docs/model-endpoint.md.

The names below are loaded on first use, so importing ``citecheck.holdings.models`` (the report and the
checks do) does not import the client, the cache or the retrieval machinery.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "PROMPT_VERSION": "citecheck.holdings.prompt",
    "Claim": "citecheck.holdings.models",
    "Deadline": "citecheck.holdings.client",
    "HoldingResult": "citecheck.holdings.models",
    "HoldingStage": "citecheck.holdings.stage",
    "Judgment": "citecheck.holdings.models",
    "JudgmentCache": "citecheck.holdings.judgment_cache",
    "Misuse": "citecheck.holdings.models",
    "ModelClient": "citecheck.holdings.client",
    "Outcome": "citecheck.holdings.models",
    "Passage": "citecheck.holdings.models",
    "Support": "citecheck.holdings.models",
    "claims_for": "citecheck.holdings.claims",
    "holding_findings": "citecheck.holdings.verdicts",
    "judge_claims": "citecheck.holdings.judging",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'citecheck.holdings' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
