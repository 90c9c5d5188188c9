"""The chain as a list of links: capabilities, the local view, a new source as one link, the LINKS registry."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path

import pytest

from citecheck.config import Settings
from citecheck.errors import SourceUnavailable, TextNotHere
from citecheck.extract import extract_citations
from citecheck.gather import gather
from citecheck.sources.base import (
    AnswerStore,
    CaseLookup,
    NameLookup,
    OpinionTexts,
    PacedLink,
    PendingLink,
    TreatmentLookup,
    Unavailable,
)
from citecheck.sources.cache import Cache
from citecheck.sources.chain import SourceChain
from citecheck.sources.links import LINKS, open_links, opener
from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    OpinionText,
    Treatment,
)
from citecheck.treatment.models import Basis, CaseRef, TreatmentKind

ROE = CiteKey("410", "U.S.", "113")
ROE_REC = CaseRecord(
    id="cl:108713",
    source="courtlistener",
    name="Roe v. Wade",
    citations=(
        CaseCite(volume="410", reporter="U.S.", page="113"),
        CaseCite(volume="93", reporter="S. Ct.", page="705"),
    ),
)


class Table:
    """A local link with one capability (treatment): what a new source is — a class and nothing else."""

    name = "table"
    local = True

    def __init__(self, fail: bool = False) -> None:
        self.asked: list[CiteKey] = []
        self.fail = fail

    async def treatment(self, keys: Sequence[CiteKey]) -> dict[CiteKey, tuple[Treatment, ...]]:
        self.asked.extend(keys)
        if self.fail:
            raise SourceUnavailable("table unreadable")
        key = CiteKey("93", "S. Ct.", "705")
        if key not in keys:
            return {}
        return {
            key: (
                Treatment(
                    cited=CaseRef(name="Roe v. Wade", citation="410 U.S. 113", year=1973),
                    treating=CaseRef(
                        name="Dobbs v. Jackson Women's Health Org.", citation="597 U.S. 215", year=2022
                    ),
                    kind=TreatmentKind.OVERRULED,
                    basis=Basis.TABLE,
                ),
            )
        }

    async def close(self) -> None:
        pass


class Metadata:
    """A local link that resolves Roe without its text (like the citation index)."""

    name = "meta"
    local = True
    metadata_only = True

    async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
        return {
            k: LookupResult(key=k, status=LookupStatus.FOUND, records=(ROE_REC,), source="meta") for k in keys
        }

    def holds(self, record: CaseRecord) -> bool:
        return record.source == "courtlistener"

    async def close(self) -> None:
        pass


class Service:
    """A link that is not local: the origin of CourtListener records, text on request (or none)."""

    name = "courtlistener"

    def __init__(self, text: str | None) -> None:
        self.text = text
        self.asked: list[str] = []

    async def opinion(self, record: CaseRecord) -> OpinionText | None:
        self.asked.append(record.id)
        return None if self.text is None else OpinionText(case_id=record.id, text=self.text)

    async def close(self) -> None:
        pass


class Pending:
    name = "later"
    local = True
    description = ""

    def __init__(self) -> None:
        self.ready: Metadata | None = None

    async def poll(self) -> Metadata | None:
        return self.ready

    async def close(self) -> None:
        pass


def test_capabilities_are_what_a_link_has() -> None:
    assert isinstance(Table(), TreatmentLookup) and not isinstance(Table(), CaseLookup)
    assert isinstance(Metadata(), CaseLookup) and not isinstance(Metadata(), OpinionTexts)
    assert isinstance(Service(None), OpinionTexts) and not isinstance(Service(None), NameLookup)
    assert isinstance(Pending(), PendingLink) and not isinstance(Unavailable("off"), AnswerStore)


class Paced:
    """A link that spends a service's allowance in an order of value (like CourtListener's client)."""

    name = "paced"

    def __init__(self, order: object) -> None:
        self.order = order

    @property
    def work_order(self) -> object:
        return self.order

    async def close(self) -> None:
        pass


def test_the_work_order_is_the_paced_links() -> None:
    order = object()
    assert isinstance(Paced(order), PacedLink) and not isinstance(Table(), PacedLink)
    assert SourceChain([Table(), Paced(None), Paced(order)]).work_order is order  # the first that has one
    assert SourceChain([Table(), Metadata()]).work_order is None
    # the language server's local view asks no service, so it spends no allowance
    assert SourceChain([Paced(order)]).local_view("waiting").work_order is None


async def test_a_new_source_is_one_link_in_the_list_and_reaches_the_evidence() -> None:
    table = Table()
    chain = SourceChain([Metadata(), table, Unavailable("offline mode")])
    extraction = extract_citations("See Roe v. Wade, 410 U.S. 113 (1973).")
    evidence = await gather(extraction, chain)
    # asked by the key cited and the case's parallel cite, which is the one the table lists
    assert set(table.asked) == {ROE, CiteKey("93", "S. Ct.", "705")}
    assert [t.kind.value for t in evidence.treatments[CiteKey("93", "S. Ct.", "705")]] == ["overruled"]
    # the local view has it too, without being told
    assert await chain.local_view("waiting").treatment([CiteKey("93", "S. Ct.", "705")])
    # a failing one is skipped: no treatment is never proof of anything, and never an error
    assert await SourceChain([Table(fail=True)]).treatment([CiteKey("93", "S. Ct.", "705")]) == {}


async def test_the_local_view_filters_the_chain_and_follows_it() -> None:
    pending, service = Pending(), Service("text")
    chain = SourceChain([pending, service, Table()])
    view = chain.local_view("waiting for the network sources")
    assert [link.name for link in view.links] == [
        "later",
        "courtlistener",
        "table",
    ]  # the service's place: why
    assert (
        isinstance(view.links[1], Unavailable) and view.links[1].reason == "waiting for the network sources"
    )
    r = (await view.lookup([ROE]))[ROE]
    assert r.status is LookupStatus.CANNOT_VERIFY and r.reason == "waiting for the network sources"
    pending.ready = Metadata()
    assert chain.pending and await view.take_up_pending()  # taken up through the view: in the chain too
    assert not chain.pending and isinstance(chain.links[0], Metadata) and isinstance(view.links[0], Metadata)
    assert (await view.lookup([ROE]))[ROE].status is LookupStatus.FOUND
    await view.close()  # a view closes nothing
    assert service.asked == []


async def test_the_origin_of_a_record_has_the_last_word_on_its_text() -> None:
    service = Service(None)  # CourtListener has no text for it
    assert await SourceChain([Metadata(), service]).opinion(ROE_REC) is None
    assert service.asked == ["cl:108713"]
    cap_record = CaseRecord(id="cap:1", source="cap", name="Roe v. Wade")
    assert await SourceChain([service]).opinion(cap_record) is None and service.asked == ["cl:108713"]
    # no link may fetch it: a metadata link's case says why its quotes are not checked
    with pytest.raises(TextNotHere, match="offline mode"):
        await SourceChain([Metadata(), Unavailable("offline mode")]).opinion(ROE_REC)
    assert await SourceChain([Metadata()]).local_view("waiting").opinion(ROE_REC) is None


async def test_what_a_service_answers_is_kept_by_the_store(tmp_path: Path) -> None:
    class Answering(Service):
        async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
            return {
                k: LookupResult(key=k, status=LookupStatus.FOUND, records=(ROE_REC,), source=self.name)
                for k in keys
            }

    cache = await Cache.open(tmp_path / "cache.sqlite")
    async with SourceChain([cache, Answering("the text")]) as chain:
        assert (await chain.lookup([ROE]))[ROE].source == "courtlistener"
        assert (await chain.opinion(ROE_REC)) is not None
        assert (await chain.lookup([ROE]))[ROE].source == "cache"
        assert (await chain.local_view("waiting").opinion(ROE_REC)) is not None  # kept on this machine
        assert await chain.clear_cache()
        assert not await SourceChain([Table()]).clear_cache()


def test_every_registered_opener_is_an_async_function() -> None:
    assert len(LINKS) == len(set(LINKS))
    for entry in LINKS:
        assert inspect.iscoroutinefunction(opener(entry)), entry


async def test_the_settings_choose_the_links_and_the_list_their_order(tmp_path: Path) -> None:
    offline = Settings(
        corpus_path=tmp_path / "corpus.sqlite", cache_path=tmp_path / "cache.sqlite", offline=True
    )
    links = await open_links(offline)
    try:
        # the treatment link is always there: the Congress.gov table ships with the package
        assert [type(link).__name__ for link in links] == [
            "CorpusSource",
            "TreatmentSource",
            "Cache",
            "Unavailable",
            "CapRanges",
        ]
        assert links[-1].local  # offline: CAP's page ranges only from this machine (issue 32)
    finally:
        for link in links:
            await link.close()
    online = Settings(
        corpus_path=tmp_path / "corpus.sqlite",
        cache_path=tmp_path / "cache.sqlite",
        courtlistener_token="t",
        courtlistener_url="https://www.courtlistener.com/api/rest/v4/",
    )
    links = await open_links(online, interactive=True)
    try:
        names = [type(link).__name__ for link in links]
        assert names == [
            "CorpusSource",
            "IndexWatch",
            "TreatmentSource",
            "Cache",
            "CapVolumes",
            "CourtListenerClient",
            "TreatmentSearch",
            "CapRanges",
        ]
        assert links[-1].fetcher is links[4].fetcher  # one CAP fetcher: one budget for both
    finally:
        for link in links:
            await link.close()


class _Reading:
    """The settings, noting every field an opener reads."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> object:
        self.read.add(name)
        return getattr(self._settings, name)


async def test_every_setting_an_opener_reads_reopens_the_language_servers_chain(tmp_path: Path) -> None:
    """A new link's settings must be in lsp/sources.SOURCE_FIELDS, or changing them in the editor would leave
    the server asking the links opened with the old values (architecture.md, "Add a source", step 4)."""
    from citecheck.lsp.sources import SOURCE_FIELDS

    settings = _Reading(
        Settings(
            corpus_path=tmp_path / "corpus.sqlite",
            cache_path=tmp_path / "cache.sqlite",
            index_path=tmp_path / "index.sqlite",
            statutes_path=tmp_path / "statutes.sqlite",
            courtlistener_token="t",
            courtlistener_url="https://www.courtlistener.com/api/rest/v4/",
            cap_fetch=True,
            treatment_online=True,
        )
    )
    links = await open_links(settings, interactive=True)  # type: ignore[arg-type]
    try:
        assert len(links) >= 8  # every link the settings can open, opened (so each opener read its settings)
    finally:
        for link in links:
            await link.close()
    assert settings.read, "the openers read no setting"
    assert settings.read <= set(SOURCE_FIELDS), sorted(settings.read - set(SOURCE_FIELDS))


async def test_texts_are_fetched_in_the_paced_links_order() -> None:
    """gather asks for texts in the order of value of the chain's paced link (what the user sees first)."""
    from citecheck.sources.pacing import WorkOrder

    roe, doe = CiteKey("410", "U.S.", "113"), CiteKey("410", "U.S.", "179")
    records = {roe: CaseRecord(id="svc:1", source="svc", name="Roe v. Wade"),
               doe: CaseRecord(id="svc:2", source="svc", name="Doe v. Bolton")}  # fmt: skip

    class Finder:
        name = "finder"
        local = True

        async def lookup(self, keys: Sequence[CiteKey]) -> dict[CiteKey, LookupResult]:
            return {
                k: LookupResult(key=k, status=LookupStatus.FOUND, records=(records[k],), source="finder")
                for k in keys
                if k in records
            }

        async def close(self) -> None:
            pass

    class PacedService(Service):
        name = "svc"

        def __init__(self, order: WorkOrder | None) -> None:
            super().__init__("text")
            self.order = order

        @property
        def work_order(self) -> WorkOrder | None:
            return self.order

    extraction = extract_citations(
        "Roe v. Wade, 410 U.S. 113, 115 (1973). Doe v. Bolton, 410 U.S. 179, 181 (1973)."
    )
    plain = PacedService(None)
    await gather(extraction, SourceChain([Finder(), plain]))
    assert plain.asked == ["svc:1", "svc:2"]  # the draft's order
    ranked = PacedService(WorkOrder(lambda: {doe: 0}))
    await gather(extraction, SourceChain([Finder(), ranked]))
    assert ranked.asked == ["svc:2", "svc:1"]  # Doe first: the client ranks it first
