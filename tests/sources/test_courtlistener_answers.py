"""A broken or changed CourtListener never accuses a real case (issue 10: false accusations).

Every malformed shape of a citation-lookup answer is fed, over HTTP from the loopback fake, for
Roe v. Wade (410 U.S. 113, a volume CourtListener holds in full, so a clean 404 *would* be an
accusation). Each must come back CANNOT_VERIFY with the reason, and the whole pipeline must not
report ``fabricated-case``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from citecheck.config import Settings
from citecheck.findings import Kind
from citecheck.pipeline import check_document
from citecheck.sources.chain import SourceChain
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck_testing.courtlistener import FakeCourtListener, Fault

ROE = CiteKey("410", "U.S.", "113")
BRIEF = "The right was recognised in Roe v. Wade, 410 U.S. 113 (1973)."


def _each(fn):
    def mangle(entries: list[dict[str, Any]]) -> Any:
        out = copy.deepcopy(entries)
        for e in out:
            fn(e)
        return out

    return mangle


def _cluster(fn):
    return _each(lambda e: [fn(c) for c in e["clusters"]])


MALFORMED = {
    "clusters missing": _each(lambda e: e.pop("clusters")),
    "clusters not a list": _each(lambda e: e.update(clusters="410 U.S. 113")),
    "clusters empty with 200": _each(lambda e: e.update(clusters=[])),
    "cluster a string": _each(lambda e: e.update(clusters=["Roe v. Wade"])),
    "cluster without id": _cluster(lambda c: c.pop("id")),
    "citations missing": _cluster(lambda c: c.pop("citations")),
    "citations empty": _cluster(lambda c: c.update(citations=[])),
    "citations as strings": _cluster(lambda c: c.update(citations=["410 U.S. 113"])),
    "citations a string": _cluster(lambda c: c.update(citations="410 U.S. 113")),
    "citation without page": _cluster(lambda c: c["citations"][0].pop("page")),
    "citation reporter not a string": _cluster(lambda c: c["citations"][0].update(reporter=7)),
    "citation volume null": _cluster(lambda c: c["citations"][0].update(volume=None)),
    "status as a string": _each(lambda e: e.update(status="200")),
    "status unknown": _each(lambda e: e.update(status=500)),
    "status missing": _each(lambda e: e.pop("status")),
    "status true": _each(lambda e: e.update(status=True)),
    "404 with clusters": _each(lambda e: e.update(status=404)),
    "coverage flag a string": _each(lambda e: e.update(citecheck_volume_complete="false")),
    "start index a string": _each(lambda e: e.update(start_index="0", normalized_citations="410 U.S. 113")),
    "an empty list": lambda entries: [],
    "an object, not a list": lambda entries: {"results": entries},
    "a list of strings": lambda entries: ["410 U.S. 113"],
    "null": lambda entries: None,
}


@pytest.fixture(scope="module")
def fake():
    with FakeCourtListener(request_rates="none", citation_rate="none") as server:
        yield server


def courtlistener(fake: FakeCourtListener) -> CourtListenerClient:
    # as if it were www.courtlistener.com, whose coverage of 410 U.S. we trust
    return CourtListenerClient(fake.base_url, "t", assume_courtlistener_coverage=True, retries=0)


async def test_the_clean_answer_is_found(fake):
    cl = courtlistener(fake)
    try:
        assert (await cl.lookup([ROE]))[ROE].status is LookupStatus.FOUND
    finally:
        await cl.close()


@pytest.mark.parametrize("shape", sorted(MALFORMED))
async def test_malformed_answers_are_cannot_verify_with_the_reason(fake, shape):
    fake.faults[:] = [Fault("lookup", mangle=MALFORMED[shape])]
    cl = courtlistener(fake)
    try:
        try:
            res = (await cl.lookup([ROE]))[ROE]
        except Exception as exc:  # a whole-answer failure: the chain turns it into cannot-verify
            from citecheck.errors import SourceError

            assert isinstance(exc, SourceError), exc
            return
    finally:
        await cl.close()
    assert res.status is LookupStatus.CANNOT_VERIFY, (shape, res)
    assert res.reason


@pytest.mark.parametrize("shape", sorted(MALFORMED))
async def test_no_malformed_answer_makes_roe_v_wade_fabricated(fake, shape, tmp_path):
    fake.faults[:] = [Fault("lookup", mangle=MALFORMED[shape])]
    async with SourceChain([courtlistener(fake)]) as chain:
        report = await check_document(BRIEF, chain, Settings(cache_path=tmp_path / "c.sqlite"))
    kinds = {f.kind for f in report.findings}
    assert Kind.FABRICATED_CASE not in kinds and Kind.WRONG_FIRST_PAGE not in kinds, (shape, report.findings)
    assert Kind.CANNOT_VERIFY in kinds, shape
    (finding,) = [f for f in report.findings if f.kind is Kind.CANNOT_VERIFY]
    assert "could not be verified" in finding.message


async def test_a_clean_404_in_a_covered_volume_is_still_an_accusation(fake, tmp_path):
    """The guard must not blunt the check: the documented not-found answer still says fabricated."""
    fake.faults[:] = [Fault("lookup", mangle=_each(lambda e: e.update(status=404, clusters=[])))]
    async with SourceChain([courtlistener(fake)]) as chain:
        report = await check_document(BRIEF, chain, Settings(cache_path=tmp_path / "c.sqlite"))
    assert Kind.FABRICATED_CASE in {f.kind for f in report.findings}
