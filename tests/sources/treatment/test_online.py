"""The online treatment search against the loopback CourtListener (127.0.0.1 only): only the citation string
leaves the machine, paced, cached; what a citing opinion's snippet says becomes a warning, never an error."""

from __future__ import annotations

from pathlib import Path

from citecheck.config import Settings
from citecheck.findings import Kind, Severity
from citecheck.pipeline import check_document
from citecheck.sources.chain import open_source
from citecheck_testing.courtlistener import FakeCourtListener

# one result of GET search/?type=o&q=…&highlight=on in the v4 shape; the snippet holds a real First Circuit
# opinion's words (chansooligans/Federal-Appellate-Court-Opinions-Text-Analysis @ 27f7f91, 194629.json)
CITING = {
    "absolute_url": "/opinion/194629/anderson-v-cryovac/",
    "caseName": "Anderson v. Cryovac, Inc.",
    "citation": ["862 F.2d 910"],
    "cluster_id": 194629,
    "court_id": "ca1",
    "dateFiled": "1988-11-29",
    "opinions": [{"id": 194629, "type": "010combined", "snippet": (
        "Tinsley v. United Parcel Service, Inc., 665 F.2d 778, 779 (7th Cir. 1981), <mark>overruled</mark> on "
        "other grounds, Rupe v. Spector Freight Sys. Inc., 679 F.2d 685 (7th Cir. 1982).")}],
}  # fmt: skip
BRIEF = (
    "---\ncourt: ca7\n---\nNotice. Tinsley v. United Parcel Service, Inc., 665 F.2d 778 (7th Cir. 1981).\n"
)


def _settings(fake: FakeCourtListener, tmp_path: Path, rates: str = "100/min", **kw: object) -> Settings:
    return Settings(
        courtlistener_token="t" * 40, courtlistener_url=fake.base_url, courtlistener_rates=rates,
        cache_path=tmp_path / "cache.sqlite", corpus_path=tmp_path / "corpus.sqlite", cap_fetch=False,
        token_hosts=frozenset({"127.0.0.1"}),
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


async def _check(settings: Settings):
    async with open_source(settings) as chain:
        return await check_document(BRIEF, chain, settings)


async def test_a_citing_opinions_words_found_online_are_a_warning_and_are_kept(tmp_path: Path) -> None:
    with FakeCourtListener(request_rates="100/min", citing=(CITING,)) as fake:
        report = await _check(_settings(fake, tmp_path))
        queries = [q["q"][0] for q in fake.searches if "q" in q]
        again = await _check(_settings(fake, tmp_path))
        searched_again = len([q for q in fake.searches if "q" in q]) - len(queries)
    (f,) = [x for x in report.findings if x.kind in (Kind.OVERRULED, Kind.NEGATIVELY_TREATED)]
    assert f.kind is Kind.NEGATIVELY_TREATED and f.severity is Severity.WARNING  # on other grounds; a search
    assert "Rupe v. Spector Freight Sys. Inc." in f.message and "Anderson v. Cryovac" in f.message
    assert f.evidence.source and "CourtListener's search" in f.evidence.source
    # what left the machine: the citation string and fixed words, once (the second check read the cache)
    assert queries and all('"665 F.2d 778"' in q and "Notice" not in q for q in queries)
    assert searched_again == 0 and [x.kind for x in again.findings if x.kind is Kind.NEGATIVELY_TREATED]


async def test_off_or_offline_nothing_is_searched(tmp_path: Path) -> None:
    with FakeCourtListener(request_rates="100/min", citing=(CITING,)) as fake:
        await _check(_settings(fake, tmp_path, treatment_online=False))
        assert not any("q" in q for q in fake.searches)
        await _check(_settings(fake, tmp_path, offline=True))
        assert not any("q" in q for q in fake.searches)


async def test_the_search_takes_only_what_the_lookups_leave_to_spare(tmp_path: Path) -> None:
    """With 6 requests a minute, the searches never take the room the next document's lookups need: at most
    half of a window, never a wait (before, the second document's searches took the rest of the minute and
    the third document's lookup waited for the next one). Each document costs a lookup and a name search
    (the loopback service knows none of the cases); the first document's treatment search finds the window
    at 2 of 6 and goes, the second's at 5 and does not."""
    from citecheck.sources.courtlistener import CourtListenerClient

    briefs = [BRIEF] + [
        f"---\ncourt: ca7\n---\nSee Alpha v. Beta, {400 + i} F.3d 1 (7th Cir. 2000); Gamma v. Delta, {500 + i} "
        "F.3d 1 (7th Cir. 2000).\n"
        for i in range(2)
    ]
    with FakeCourtListener(request_rates="6/min", citing=(CITING,)) as fake:
        settings = _settings(fake, tmp_path, rates="6/min")
        async with open_source(settings) as chain:
            for text in briefs:
                await check_document(text, chain, settings)
            pacer = chain.find(CourtListenerClient).pacer
        searched = [q["q"][0] for q in fake.searches if "q" in q]
    assert pacer.waited_s == 0 and fake.counts.throttled == 0
    assert len(fake.lookup_order) == 5  # every citation of the three documents looked up, none waiting
    assert len(searched) == 1 and '"665 F.2d 778"' in searched[0]  # the first document's, in a quiet window
