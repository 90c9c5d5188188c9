"""The yes-no protocol: its pure parts, and claims judged with it through a real loopback endpoint."""

from __future__ import annotations

import math

import pytest

from citecheck.errors import ModelBadAnswer
from citecheck.findings import Kind, Severity
from citecheck.holdings import (
    Claim,
    Deadline,
    JudgmentCache,
    ModelClient,
    Outcome,
    holding_findings,
    judge_claims,
)
from citecheck.holdings.models import Passage, Support
from citecheck.holdings.yesno import YESNO_VERSION, best_sentence, decide, messages, question, yes_no_log_odds
from citecheck.sources.models import OpinionText
from citecheck.spans import Span
from citecheck_testing.model_endpoint import FakeEndpoint, Step, chat_answer, logprob_answer

HOLDING = "We hold that a landlord may not evict a tenant without first giving thirty days written notice."


def _claim(prop: str = "A landlord may evict a tenant without any notice.") -> Claim:
    return Claim(
        citation_index=3,
        span=Span(100, 111),
        proposition=prop,
        case_id="cap:1",
        case_name="Smith v. Jones",
        cite="100 A.2d 36",
        reporter="A.2d",
        volume="100",
    )


def test_the_sentence_shown_is_the_one_closest_to_the_proposition() -> None:
    p = Passage(start=0, end=1, text="The landlord sued. " + HOLDING + " The statute is plain on this point.")
    assert best_sentence([p], _claim().proposition) == HOLDING
    assert best_sentence([p], "Unrelated words entirely here.") is None


def test_the_question_and_its_two_forms() -> None:
    assert (
        question("A landlord may evict a tenant.")
        == "According to the court, is it true that a landlord may evict a tenant?"
    )
    assert question("US courts may hear it.").startswith("According to the court, is it true that US courts")
    with_court, prior = messages("P is so.", HOLDING), messages("P is so.", None)
    assert HOLDING in with_court[1]["content"] and HOLDING not in prior[1]["content"]
    assert with_court[0] == prior[0]  # the same fixed system text first (prefix caching)


def test_log_odds_read_from_top_logprobs() -> None:
    assert yes_no_log_odds(
        [(" yes", math.log(0.5)), ("YES", math.log(0.25)), ("No", math.log(0.25))]
    ) == pytest.approx(math.log(3))
    assert yes_no_log_odds([("No", math.log(0.9))]) < -10  # Yes absent: bounded, not infinite
    with pytest.raises(ModelBadAnswer):
        yes_no_log_odds([("The", -0.1), ("I", -2.0)])


def test_only_a_clear_shift_decides() -> None:
    against, weak, towards = decide(-0.5, HOLDING), decide(0.1, HOLDING), decide(0.8, HOLDING)
    assert (
        against is not None
        and against.support is Support.NOT_SUPPORTED
        and against.supporting_quote == HOLDING
    )
    assert weak is None
    assert towards is not None and towards.support is Support.SUPPORTED


def _responder(with_court: tuple[float, float], prior: tuple[float, float]):  # type: ignore[no-untyped-def]
    def answer(req: dict) -> Step:  # type: ignore[type-arg]
        assert req["max_tokens"] == 1 and req["logprobs"] is True and req["top_logprobs"] == 20
        shown = "The court wrote:" in req["messages"][-1]["content"]
        return logprob_answer(*(with_court if shown else prior))

    return answer


async def _judge(
    ep: FakeEndpoint, opinion: OpinionText, cache: JudgmentCache | None = None, claim: Claim | None = None
):
    async with ModelClient(base_url=ep.url, model="fake-judge", timeout_s=2, retries=0) as client:
        results = await judge_claims(
            [claim or _claim()],
            {"cap:1": opinion},
            client,
            deadline=Deadline(10),
            cache=cache,
            protocol="yes-no",
        )
    return results, holding_findings(results)


async def test_the_court_s_words_moving_the_answer_to_no_is_a_warning_with_the_sentence(
    fake_endpoint, opinion
) -> None:
    fake_endpoint.answer_by(_responder(with_court=(0.2, 0.7), prior=(0.5, 0.4)))
    results, findings = await _judge(fake_endpoint, opinion)
    r = results[0]
    assert r.outcome is Outcome.JUDGED and r.prompt_version == YESNO_VERSION
    [f] = findings
    assert (f.kind, f.severity) == (Kind.UNSUPPORTED_HOLDING, Severity.WARNING)
    assert "does not appear to support" in f.message
    assert "thirty days written notice" in (f.evidence.passage or "") and f.evidence.page == "36"
    assert "The court's words" in (f.evidence.note or "") and r.quote_text and "thirty days" in r.quote_text
    assert len(fake_endpoint.chat_requests) == 2  # with the court's sentence, and without it


async def test_a_biased_model_that_says_no_to_everything_is_not_believed(fake_endpoint, opinion) -> None:
    # "No" either way: the court's words changed nothing, so nothing is claimed (no warning, no support)
    fake_endpoint.answer_by(_responder(with_court=(0.2, 0.75), prior=(0.2, 0.75)))
    results, findings = await _judge(fake_endpoint, opinion)
    assert results[0].outcome is Outcome.UNDECIDED and "too little" in results[0].reason
    assert findings == []


async def test_support_gives_no_finding_and_is_cached(fake_endpoint, opinion) -> None:
    cache = JudgmentCache(":memory:")
    fake_endpoint.answer_by(_responder(with_court=(0.8, 0.1), prior=(0.4, 0.5)))
    claim = _claim("A landlord must give a tenant thirty days written notice before evicting.")
    results, findings = await _judge(fake_endpoint, opinion, cache, claim)
    assert (
        results[0].outcome is Outcome.JUDGED
        and results[0].judgment.support is Support.SUPPORTED
        and findings == []
    )
    again, _ = await _judge(fake_endpoint, opinion, cache, claim)
    assert again[0].cached and len(fake_endpoint.chat_requests) == 2  # the second check asked nothing


async def test_a_server_without_logprobs_is_cannot_verify_not_a_finding(fake_endpoint, opinion) -> None:
    fake_endpoint.answer(chat_answer("Yes"))
    results, findings = await _judge(fake_endpoint, opinion)
    assert results[0].outcome is Outcome.FAILED and "log-probabilities" in results[0].reason
    [f] = findings
    assert (f.kind, f.severity) == (Kind.CANNOT_VERIFY, Severity.INFO)


async def test_an_endpoint_that_is_down_is_cannot_verify(opinion) -> None:
    ep = FakeEndpoint()
    ep.answer(Step(status=503, body={"error": "down"}))
    try:
        results, findings = await _judge(ep, opinion)
    finally:
        ep.close()
    assert results[0].outcome is Outcome.FAILED and "503" in results[0].reason
    assert [f.kind for f in findings] == [Kind.CANNOT_VERIFY]
