"""Issue 35 item 8: a 3xx answer is not an answer. The CourtListener client used the JSON body of a redirect
(any status under 400 but 404) as the lookup's result; a redirect it does not follow (the token must not go
where a redirect points) is now a failed request, and the citation *cannot verify* with the reason."""

from __future__ import annotations

import httpx
import pytest

from citecheck.errors import SourceError
from citecheck.sources.courtlistener import CourtListenerClient
from citecheck.sources.models import CiteKey, LookupStatus
from citecheck_testing.courtlistener import FakeCourtListener, Fault

ROE = CiteKey("410", "U.S.", "113")


@pytest.mark.parametrize("status", [301, 302, 303, 304, 307, 308, 300])
async def test_a_redirect_with_a_json_body_is_not_a_lookup_answer(status: int) -> None:
    with FakeCourtListener(request_rates="none", citation_rate="none") as fake:
        async with httpx.AsyncClient() as plain:
            clean = await plain.post(fake.base_url + "citation-lookup/", data={"text": "410 U.S. 113"})
        entries = clean.json()
        assert entries and entries[0]["status"] == 200  # the body would say "found"
        fake.faults[:] = [
            Fault("status", status=status, body=entries, headers={"Location": "http://evil.example/"})
        ]
        cl = CourtListenerClient(fake.base_url, "t", assume_courtlistener_coverage=True, retries=0)
        try:
            try:
                res = (await cl.lookup([ROE]))[ROE]
            except SourceError as exc:
                assert str(status) in str(exc)
                return
        finally:
            await cl.close()
    assert res.status is LookupStatus.CANNOT_VERIFY and str(status) in (res.reason or ""), res
