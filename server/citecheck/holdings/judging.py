"""Judge every claim of a draft: passages → cache → model → validation → quote verification.

The only holdings module that awaits, and the only thing it awaits is the model client it was given.
Failures never escape: a claim whose judgment could not be had becomes ``Outcome.FAILED`` with the
reason (→ ``cannot-verify``), one whose answer does not validate likewise (a parse failure is never a
finding), one whose quote is not in the opinion becomes ``Outcome.UNVERIFIED``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from citecheck.errors import ModelBadAnswer, ModelError
from citecheck.holdings import yesno
from citecheck.holdings.client import Completion, Deadline
from citecheck.holdings.judgment_cache import JudgmentCache, cache_key
from citecheck.holdings.models import Claim, HoldingResult, Judgment, Outcome, Passage
from citecheck.holdings.prompt import PROMPT_VERSION, build_messages, parse_judgment
from citecheck.holdings.retrieval import retrieve_passages
from citecheck.holdings.verify import verify_judgment
from citecheck.holdings.yesno import YESNO_VERSION, best_sentence
from citecheck.sources.models import OpinionText

log = logging.getLogger(__name__)


class Completer(Protocol):
    """What the judge needs of a model client (``ModelClient`` is one)."""

    model: str
    base_url: str  # the endpoint: with the model, who judged (the cache key)

    async def complete(self, messages: Sequence[dict[str, str]], deadline: Deadline) -> Completion: ...

    async def first_token_logprobs(
        self, messages: Sequence[dict[str, str]], deadline: Deadline, top: int = 20
    ) -> list[tuple[str, float]]: ...


async def judge_claims(
    claims: Sequence[Claim],
    opinions: Mapping[str, OpinionText],
    client: Completer,
    *,
    deadline: Deadline,
    cache: JudgmentCache | None = None,
    passage_tokens: int = 1200,
    protocol: str = "judgment",
    on_done: Callable[[HoldingResult], None] | None = None,
) -> list[HoldingResult]:
    """A result for every claim, in the claims' order; ``on_done`` hears each as it completes.

    Claims whose case has no opinion text here are skipped (there is nothing to judge against).
    ``protocol`` is ``"judgment"`` (the full JSON judgment, ``prompt.py``; for 7B+ instruct models) or
    ``"yes-no"`` (one calibrated yes/no question, ``yesno.py``; for small models on a CPU).
    All requests are started at once; the client's semaphore bounds how many are in flight.
    """
    jobs = [(c, opinions[c.case_id]) for c in claims if c.case_id in opinions]

    async def one(claim: Claim, opinion: OpinionText) -> HoldingResult:
        judge_one = _ask_yes_no if protocol == "yes-no" else _judge_one
        result = await judge_one(
            claim, opinion, client, deadline=deadline, cache=cache, passage_tokens=passage_tokens
        )
        if on_done is not None:
            on_done(result)
        return result

    return list(await asyncio.gather(*(one(c, o) for c, o in jobs)))


async def _judge_one(
    claim: Claim,
    opinion: OpinionText,
    client: Completer,
    *,
    deadline: Deadline,
    cache: JudgmentCache | None,
    passage_tokens: int,
) -> HoldingResult:
    model = client.model
    passages = retrieve_passages(opinion, claim, budget_tokens=passage_tokens)

    def result(outcome: Outcome, **kw: Any) -> HoldingResult:
        return HoldingResult(
            claim=claim, model=model, prompt_version=PROMPT_VERSION, passages=passages, outcome=outcome, **kw
        )

    if not passages:
        return result(Outcome.NO_PASSAGES, reason="no passage of the opinion shares a word with it")
    key = cache_key(client.base_url, model, PROMPT_VERSION, claim.proposition, claim.case_id, passages)
    judgment: Judgment | None = cache.get(key) if cache is not None else None
    cached = judgment is not None
    if judgment is None:
        try:
            completion = await client.complete(build_messages(claim, passages), deadline)
            judgment = parse_judgment(completion.content)
        except Exception as exc:  # a client bug must not take the other checks down either
            return _failed(result, exc, "holding judgment", claim)
        if cache is not None:
            cache.put(key, judgment)
    return _verified(result, judgment, opinion, claim, passages, cached=cached)


async def _ask_yes_no(
    claim: Claim,
    opinion: OpinionText,
    client: Completer,
    *,
    deadline: Deadline,
    cache: JudgmentCache | None,
    passage_tokens: int,
) -> HoldingResult:
    """The yes-no protocol (``yesno.py``): the same passages, the sentence closest to the proposition,
    the question asked with and without it; the shift of the answer decides, or nothing is claimed."""
    model = client.model
    passages = retrieve_passages(opinion, claim, budget_tokens=passage_tokens)

    sentence = best_sentence(passages, claim.proposition) if passages else None
    # the evidence is the passage the sentence came from (the only opinion text the model saw)
    shown = tuple(p for p in passages if sentence and sentence in p.text)[:1] or passages

    def result(outcome: Outcome, **kw: Any) -> HoldingResult:
        return HoldingResult(
            claim=claim,
            model=model,
            prompt_version=YESNO_VERSION,
            passages=tuple(shown),
            outcome=outcome,
            **kw,
        )

    if sentence is None:
        return result(Outcome.NO_PASSAGES, reason="no sentence of the opinion shares a word with it")
    key = cache_key(client.base_url, model, YESNO_VERSION, claim.proposition, claim.case_id, shown)
    judgment: Judgment | None = cache.get(key) if cache is not None else None
    cached = judgment is not None
    if judgment is None:
        try:
            with_court, prior = await asyncio.gather(
                client.first_token_logprobs(yesno.messages(claim.proposition, sentence), deadline),
                client.first_token_logprobs(yesno.messages(claim.proposition, None), deadline),
            )
            shift = yesno.yes_no_log_odds(with_court) - yesno.yes_no_log_odds(prior)
        except Exception as exc:
            return _failed(result, exc, "yes-no holding judgment", claim)
        judgment = yesno.decide(shift, sentence)
        if judgment is None:
            return result(
                Outcome.UNDECIDED,
                reason=f"the opinion's words moved the model's answer too little to say (shift {shift:+.2f})",
            )
        if cache is not None:
            cache.put(key, judgment)
    return _verified(result, judgment, opinion, claim, shown, cached=cached)


def _verified(
    result: Callable[..., HoldingResult],
    judgment: Judgment,
    opinion: OpinionText,
    claim: Claim,
    passages: Sequence[Passage],
    *,
    cached: bool,
) -> HoldingResult:
    """Either protocol's judgment, believed only once its quote is found in the opinion: otherwise
    ``holding-unverified``, and the invented quote is never shown as evidence."""
    check = verify_judgment(judgment, opinion, claim, passages)
    if not check.found:
        return result(Outcome.UNVERIFIED, judgment=judgment, reason=check.reason, cached=cached)
    return result(
        Outcome.JUDGED,
        judgment=judgment,
        quote_start=check.start,
        quote_end=check.end,
        quote_page=check.page,
        quote_text=opinion.text[check.start : check.end] if check.start is not None else None,
        cached=cached,
    )


def _failed(result: Callable[..., HoldingResult], exc: Exception, what: str, claim: Claim) -> HoldingResult:
    """Why a judgment could not be had, in the words the finding shows (a bug is logged, not raised:
    the other checks go on)."""
    if isinstance(exc, ModelBadAnswer):
        return result(Outcome.FAILED, reason=f"the model's answer was not usable ({exc})")
    if isinstance(exc, ModelError):
        return result(Outcome.FAILED, reason=str(exc))
    log.exception("%s for %r failed", what, claim, exc_info=exc)
    return result(Outcome.FAILED, reason=f"internal error ({type(exc).__name__})")
