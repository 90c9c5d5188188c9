"""Holding checks: does the cited case say what the draft says it says? Judged by a local model endpoint.

Pipeline of this stage: ``claims_for`` (which citations claim what) → ``retrieve_passages`` (FTS5 bm25
over the opinion's paragraphs) → ``JudgmentCache`` → ``ModelClient`` (OpenAI-compatible endpoint) →
``parse_judgment`` (schema validation) → ``verify_judgment`` (the quote must be in the opinion) →
``holding_findings``. See docs/model-endpoint.md.
"""

from citecheck.holdings.cache import JudgmentCache
from citecheck.holdings.claims import claims_for
from citecheck.holdings.client import Deadline, ModelClient
from citecheck.holdings.judge import judge_claims
from citecheck.holdings.models import Claim, HoldingResult, Judgment, Misuse, Outcome, Passage, Support
from citecheck.holdings.prompt import PROMPT_VERSION
from citecheck.holdings.verdicts import holding_findings

__all__ = [
    "PROMPT_VERSION",
    "Claim",
    "Deadline",
    "HoldingResult",
    "Judgment",
    "JudgmentCache",
    "Misuse",
    "ModelClient",
    "Outcome",
    "Passage",
    "Support",
    "claims_for",
    "holding_findings",
    "judge_claims",
]
