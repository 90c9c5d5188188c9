"""opinion-unavailable: quotes and pin cites whose opinion could not be fetched say so, never pass silently.

Runs the whole pipeline against the loopback CourtListener with a tiny request allowance: the
lookups fit, the opinion fetches do not (issue 11: "29 of 30 got 429 ... silently skipping pin and
quote checks").
"""

from __future__ import annotations

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.sources.chain import SourceChain
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck_testing.courtlistener import FakeCourtListener

WINDOW = 0.3
QUOTE = "the rule applies to every case"
BRIEF = "\n\n".join(
    f'Alpha v. Beta, {200 + i} F.3d {10 + i}, {10 + i} (9th Cir. 2000) ("{QUOTE}").' for i in range(5)
)


def _client(fake: FakeCourtListener, budget: float | None) -> CourtListenerClient:
    return CourtListenerClient(fake.base_url, "t", request_rates="3/min", citation_rate="60/min",
                               time_scale=WINDOW / 60, budget_s=budget)  # fmt: skip


async def test_unfetched_opinions_are_reported_not_passed(tmp_path):
    with FakeCourtListener(request_rates="3/min", time_scale=WINDOW / 60) as fake:
        async with SourceChain([_client(fake, budget=WINDOW * 0.8)]) as chain:
            report = await check_document(BRIEF, chain, Settings(cache_path=tmp_path / "c.sqlite"))
    assert len(report.extraction.citations) == 5
    unavailable = [f for f in report.findings if f.kind is Kind.OPINION_UNAVAILABLE]
    assert unavailable and all(f.severity is Severity.INFO for f in unavailable)
    told = {f.citation_index for f in unavailable}
    for r in report.results:  # each quote was either compared with the opinion or said to be unchecked
        assert (r.passage is not None) != (r.citation_index in told), r
        assert (r.pending_until is not None) == (r.citation_index in told)
    f = unavailable[0]
    assert "quotation and pin cite" in f.message
    assert "rate limit" in f.message or "time limit" in f.message  # (the latter on a very slow machine)
    assert f.evidence.record_id is not None  # evidence: the case that was found
    assert fake.counts.throttled == 0 and fake.counts.requests <= 3  # the allowance, and not one request more
    # one line per unchecked pin cite, the one with the reason: a second 'pincite-unverifiable: the opinion
    # text is not available' on the same pin said it again (and came up after applying a wrong-first-page fix)
    assert not [
        f for f in report.findings if f.kind is Kind.PINCITE_UNVERIFIABLE and f.citation_index in told
    ]


async def test_with_time_to_wait_every_quote_is_checked(tmp_path):
    with FakeCourtListener(request_rates="3/min", time_scale=WINDOW / 60) as fake:
        async with SourceChain([_client(fake, budget=None)]) as chain:
            report = await check_document(BRIEF, chain, Settings(cache_path=tmp_path / "c.sqlite"))
    kinds = {f.kind for f in report.findings}
    assert Kind.OPINION_UNAVAILABLE not in kinds and Kind.MISQUOTE not in kinds, report.findings
    assert all(r.status == "verified" and r.passage for r in report.results), (
        report.results,
        report.findings,
    )
    assert fake.counts.throttled == 0 and fake.counts.by_route.get("opinions") == 5
