"""Fixtures: the scripted loopback endpoint and a tiny opinion with a page map."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citecheck.holdings.fake_endpoint import FakeEndpoint
from citecheck.sources.models import OpinionText, PageMap


@pytest.fixture
def fake_endpoint() -> Iterator[FakeEndpoint]:
    ep = FakeEndpoint()
    try:
        yield ep
    finally:
        ep.close()


OPINION_TEXT = (
    "SMITH v. JONES\n"
    "The landlord brought this action to evict the tenant for nonpayment of rent.\n"
    "We hold that a landlord may not evict a tenant without first giving thirty days written notice. "
    "The statute is plain on this point and admits no exception for hardship.\n"
    "The tenant also argues that the rent was excessive. We do not reach that question.\n"
    "Reversed and remanded for further proceedings consistent with this opinion.\n"
)


@pytest.fixture
def opinion() -> OpinionText:
    at = OPINION_TEXT.index("The tenant also")
    return OpinionText(case_id="cap:1", text=OPINION_TEXT,
                       page_maps=(PageMap(reporter="A.2d", volume="100", first_page="36", starts=((at, "37"),)),))
