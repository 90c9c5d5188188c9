"""Fixtures: the scripted loopback endpoint and a tiny opinion with a page map."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.holdings.client import ModelClient
from citecheck.holdings.stage import HoldingStage
from citecheck.pipeline import check_document
from citecheck.results import Report
from citecheck.sources.corpus import Corpus, CorpusSource
from citecheck.sources.models import OpinionText, PageMap
from citecheck_testing import shared_corpus_path
from citecheck_testing.model_endpoint import FakeEndpoint


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
    return OpinionText(
        case_id="cap:1",
        text=OPINION_TEXT,
        page_maps=(PageMap(reporter="A.2d", volume="100", first_page="36", starts=((at, "37"),)),),
    )


@pytest.fixture(scope="session")
def cap_corpus(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """The shared CAP fixture volume (100 A.2d) imported into a private SQLite corpus."""
    from citecheck.sources.corpus import Corpus
    from citecheck.sources.importing import import_path

    cap = shared_corpus_path("cap-static")
    path = tmp_path_factory.mktemp("holdings-corpus") / "corpus.sqlite"
    corpus = Corpus(path)
    try:
        import_path(corpus, cap)
    finally:
        corpus.close()
    return path


#: Peyton v. District of Columbia, 100 A.2d 36, 38, holds that prior convictions go to credibility only and
#: "may not be considered for the purpose of determining his guilt"; this brief says the opposite.
REVERSED_BRIEF = (
    "The government may rely on a defendant's prior convictions as proof that he is guilty of the offense "
    "charged. Peyton v. District of Columbia, 100 A.2d 36, 38 (D.C. 1953).\n"
)
PEYTON_HOLDING = (
    "evidence of such convictions must be restricted to the question of defendant’s credibility and may not be "
    "considered for the purpose of determining his guilt or innocence of the offense charged"
)


async def check_with_model(corpus_path: Path, text: str, settings: Settings, client: ModelClient) -> Report:
    """``text`` checked against the corpus at ``corpus_path`` with the holding stage on ``client``
    (the end-to-end tests' one way in: corpus source and stage opened, and closed whatever happens)."""
    stage = HoldingStage(client, settings)
    source = CorpusSource(Corpus(corpus_path, readonly=True))
    try:
        return await check_document(text, source, settings, holdings=stage)
    finally:
        await source.close()
        await stage.close()
