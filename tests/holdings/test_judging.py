"""Claims judged through a real loopback endpoint: validation, quote verification, findings, cache."""

from __future__ import annotations

import pytest

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
from citecheck.holdings.prompt import PROMPT_VERSION
from citecheck.sources.models import OpinionText
from citecheck.spans import Span
from citecheck_testing.model_endpoint import FakeEndpoint, Step, chat_answer, judgment

REAL_QUOTE = "a landlord may not evict a tenant without first giving thirty days written notice"
INVENTED = "a landlord may evict a tenant at any time and for any reason whatsoever"


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


async def _judge(
    ep: FakeEndpoint,
    opinion: OpinionText,
    *steps: Step,
    cache: JudgmentCache | None = None,
    claim: Claim | None = None,
    model: str = "fake-judge",
):
    ep.answer(*steps)
    # generous limits: the fake endpoint answers at once, and a 2 s timeout made a judgment 'did not run'
    # (cannot-verify) on a machine at load 10-15 (issue 36's bare-clone run); no test here waits for them
    async with ModelClient(base_url=ep.url, model=model, timeout_s=60, retries=0) as client:
        results = await judge_claims(
            [claim or _claim()], {"cap:1": opinion}, client, deadline=Deadline(120), cache=cache
        )
    return results, holding_findings(results)


async def test_contradicted_with_a_real_quote_is_an_unsupported_holding_warning(
    fake_endpoint, opinion
) -> None:
    results, findings = await _judge(
        fake_endpoint, opinion, judgment("contradicted", REAL_QUOTE, "reversed-meaning")
    )
    assert results[0].outcome is Outcome.JUDGED
    [f] = findings
    assert (f.kind, f.severity, f.span, f.citation_index) == (
        Kind.UNSUPPORTED_HOLDING,
        Severity.WARNING,
        Span(100, 111),
        3,
    )
    assert "opposite" in f.message and "reverses the court's meaning" in f.message
    ev = f.evidence
    assert "[p. 36]" in ev.passage and "thirty days written notice" in ev.passage
    assert ev.page == "36" and ev.model == "fake-judge" and ev.prompt_version == PROMPT_VERSION
    assert ev.verdict == "contradicted" and ev.misuse == "reversed-meaning"
    assert REAL_QUOTE in ev.note and ev.draft == _claim().proposition


async def test_an_invented_quote_is_never_shown_as_evidence(fake_endpoint, opinion) -> None:
    results, findings = await _judge(
        fake_endpoint, opinion, judgment("supported", INVENTED, rationale=INVENTED)
    )
    assert results[0].outcome is Outcome.UNVERIFIED
    [f] = findings
    assert (f.kind, f.severity) == (Kind.HOLDING_UNVERIFIED, Severity.INFO)
    assert "could not be checked against the opinion" in f.message
    shown = " ".join(str(getattr(f.evidence, k)) for k in f.evidence.__slots__) + f.message
    assert "any reason whatsoever" not in shown
    assert f.evidence.verdict is None


async def test_a_contradiction_with_an_invented_quote_is_not_an_accusation(fake_endpoint, opinion) -> None:
    _, findings = await _judge(fake_endpoint, opinion, judgment("contradicted", INVENTED, "reversed-meaning"))
    assert [f.kind for f in findings] == [Kind.HOLDING_UNVERIFIED]


@pytest.mark.parametrize(
    "step",
    [
        chat_answer("I think the case supports it."),  # prose
        chat_answer('{"support": "supported", "misuse": "none"'),  # truncated
        chat_answer(
            '{"support": "probably", "misuse": "none", "supporting_quote": "", "rationale": ""}'
        ),  # enum
        Step(body=b"<html>proxy error</html>"),  # not even an API answer
    ],
)
async def test_an_answer_that_does_not_validate_is_cannot_verify_never_a_finding(
    fake_endpoint, opinion, step
) -> None:
    results, findings = await _judge(fake_endpoint, opinion, step)
    assert results[0].outcome is Outcome.FAILED
    assert [(f.kind, f.severity) for f in findings] == [(Kind.CANNOT_VERIFY, Severity.INFO)]
    assert "did not run" in findings[0].message


async def test_partly_is_info_and_supported_is_silent(fake_endpoint, opinion) -> None:
    _, partly = await _judge(fake_endpoint, opinion, judgment("partly", REAL_QUOTE, "overstated-holding"))
    assert [(f.kind, f.severity) for f in partly] == [(Kind.UNSUPPORTED_HOLDING, Severity.INFO)]
    results, supported = await _judge(fake_endpoint, opinion, judgment("supported", REAL_QUOTE))
    assert supported == [] and results[0].verified and results[0].quote_page == "36"


async def test_not_supported_may_come_without_a_quote(fake_endpoint, opinion) -> None:
    _, findings = await _judge(fake_endpoint, opinion, judgment("not-supported", "", "different-issue"))
    [f] = findings
    assert f.severity is Severity.WARNING and "different issue" in f.message


async def test_supported_without_a_quote_is_unverified(fake_endpoint, opinion) -> None:
    _, findings = await _judge(fake_endpoint, opinion, judgment("supported", ""))
    assert [f.kind for f in findings] == [Kind.HOLDING_UNVERIFIED]


async def test_an_endpoint_that_is_down_gives_cannot_verify_with_the_reason(opinion) -> None:
    async with ModelClient(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=1, retries=0) as client:
        results = await judge_claims([_claim()], {"cap:1": opinion}, client, deadline=Deadline(5))
    [f] = holding_findings(results)
    assert f.kind is Kind.CANNOT_VERIFY and "cannot reach the endpoint" in f.message


async def test_judgments_are_cached_on_model_prompt_proposition_case_and_passages(
    fake_endpoint, opinion, tmp_path
) -> None:
    cache = JudgmentCache(tmp_path / "holdings.sqlite")
    step = judgment("contradicted", REAL_QUOTE, "reversed-meaning")
    first, _ = await _judge(fake_endpoint, opinion, step, cache=cache)
    again, findings = await _judge(fake_endpoint, opinion, step, cache=cache)
    assert not first[0].cached and again[0].cached and fake_endpoint.chat_requests == []
    assert [f.kind for f in findings] == [Kind.UNSUPPORTED_HOLDING]
    other_model, _ = await _judge(fake_endpoint, opinion, step, cache=cache, model="other")
    assert not other_model[0].cached and len(fake_endpoint.chat_requests) == 1
    other_prop, _ = await _judge(
        fake_endpoint, opinion, step, cache=cache, claim=_claim("Notice is never needed to evict.")
    )
    assert not other_prop[0].cached
    changed = OpinionText(
        case_id="cap:1", text=opinion.text.replace("thirty", "sixty"), page_maps=opinion.page_maps
    )
    other_text, _ = await _judge(fake_endpoint, changed, step, cache=cache)
    assert not other_text[0].cached  # the passages changed
    cache.close()


async def test_a_judgment_is_remembered_with_the_endpoint_that_gave_it(
    fake_endpoint, opinion, tmp_path
) -> None:
    """Another endpoint serving a model of the same name, or a dead one, never shows the first one's verdict."""
    cache = JudgmentCache(tmp_path / "holdings.sqlite")
    first, findings = await _judge(
        fake_endpoint, opinion, judgment("contradicted", REAL_QUOTE, "reversed-meaning"), cache=cache
    )
    assert [f.kind for f in findings] == [Kind.UNSUPPORTED_HOLDING] and not first[0].cached
    other = FakeEndpoint()
    try:
        results, findings = await _judge(other, opinion, judgment("supported", REAL_QUOTE), cache=cache)
        assert not results[0].cached and len(other.chat_requests) == 1  # asked, not remembered
        assert Kind.UNSUPPORTED_HOLDING not in [f.kind for f in findings]
    finally:
        other.close()
    async with ModelClient(
        base_url="http://127.0.0.1:9/v1", model="fake-judge", timeout_s=2, retries=0
    ) as dead:
        results = await judge_claims([_claim()], {"cap:1": opinion}, dead, deadline=Deadline(5), cache=cache)
    assert not results[0].cached
    assert [f.kind for f in holding_findings(results)] == [Kind.CANNOT_VERIFY]
    # the first endpoint's own verdict is still remembered (same URL however written)
    again, _ = await _judge(fake_endpoint, opinion, judgment("supported", REAL_QUOTE), cache=cache)
    assert (
        again[0].cached
        and again[0].judgment is not None
        and again[0].judgment.support.value == "contradicted"
    )
    cache.close()


async def test_a_failure_is_not_cached(fake_endpoint, opinion, tmp_path) -> None:
    cache = JudgmentCache(tmp_path / "holdings.sqlite")
    await _judge(fake_endpoint, opinion, chat_answer("nonsense"), cache=cache)
    results, _ = await _judge(fake_endpoint, opinion, judgment("supported", REAL_QUOTE), cache=cache)
    assert results[0].verified and not results[0].cached
    cache.close()


def test_a_cache_file_that_cannot_be_opened_is_skipped(tmp_path) -> None:
    from citecheck.holdings.judgment_cache import cache_key
    from citecheck.holdings.models import Judgment, Misuse, Support

    bad = tmp_path / "not-a-db.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    cache = JudgmentCache(bad)
    key = cache_key("http://127.0.0.1:1/v1", "m", "v", "p", "c", ())
    cache.put(key, Judgment(support=Support.SUPPORTED, misuse=Misuse.NONE, supporting_quote="", rationale=""))
    assert cache.get(key) is None


async def test_many_claims_share_the_concurrency_limit(fake_endpoint, opinion) -> None:
    fake_endpoint.answer(Step(delay=0.3, body=judgment("supported", REAL_QUOTE).body))
    claims = [_claim(f"A landlord may evict a tenant without notice, variant {i}.") for i in range(6)]
    async with ModelClient(
        base_url=fake_endpoint.url, model="fake-judge", timeout_s=5, retries=0, concurrency=3
    ) as client:
        import time

        t0 = time.monotonic()
        results = await judge_claims(claims, {"cap:1": opinion}, client, deadline=Deadline(20))
        took = time.monotonic() - t0
    assert all(r.verified for r in results) and len(fake_endpoint.chat_requests) == 6
    assert 0.55 < took < 2.0  # two waves of three, not six in a row and not all at once
