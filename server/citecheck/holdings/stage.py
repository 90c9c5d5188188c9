"""The holding check as the third stage of a check: after ``gather`` (lookups, opinions), before ``judge``.

``HoldingStage.gather(extraction, evidence, source)`` finds the claims (citations with a proposition whose
case was found), fetches the opinions it still lacks from the same source, judges the claims on the
model endpoint and returns the evidence with ``holdings`` filled; ``judge`` then turns them into
findings like any other evidence. Edges build one stage per process (one client, one cache) and close it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from citecheck.config import Settings
from citecheck.errors import CitecheckError
from citecheck.extract.models import Extraction
from citecheck.holdings.claims import claims_for
from citecheck.holdings.client import Deadline, ModelClient
from citecheck.holdings.judging import Completer, judge_claims
from citecheck.holdings.judgment_cache import JudgmentCache
from citecheck.holdings.models import Claim, HoldingResult
from citecheck.judge import SourceEvidence, _Records
from citecheck.sources.base import AuthoritySource
from citecheck.sources.models import CaseRecord, OpinionText
from citecheck.sources.opinion_fit import why_unfit

log = logging.getLogger(__name__)


def judgment_cache_path(settings: Settings) -> Path:
    """Judgments live beside the lookup cache, in their own file."""
    return Path(settings.cache_path).with_name("holdings.sqlite")


class HoldingStage:
    """One model client and one judgment cache, shared by every document a process checks."""

    def __init__(self, client: Completer, settings: Settings, cache: JudgmentCache | None = None) -> None:
        self.client = client
        self.settings = settings
        self.cache = cache

    @classmethod
    def from_settings(cls, settings: Settings) -> HoldingStage | None:
        """The stage when holding checks are configured and on, else None (raises ConfigError when misconfigured).

        ``--offline`` turns them off too: the endpoint is a network service, and offline means no sockets.
        """
        if not settings.holdings_enabled() or settings.offline:
            return None
        return cls(
            ModelClient.from_settings(settings), settings, JudgmentCache(judgment_cache_path(settings))
        )

    async def close(self) -> None:
        close = getattr(self.client, "close", None)
        if close is not None:
            await close()
        if self.cache is not None:
            self.cache.close()

    def claims(self, extraction: Extraction, evidence: SourceEvidence) -> list[Claim]:
        records = _Records(extraction, evidence.lookups)
        return claims_for(extraction, records.record_for)

    async def gather(
        self,
        extraction: Extraction,
        evidence: SourceEvidence,
        source: AuthoritySource | None,
        *,
        on_done: Callable[[HoldingResult], None] | None = None,
    ) -> SourceEvidence:
        """``evidence`` plus the holding results of every claim (and the opinions fetched for them)."""
        claims = self.claims(extraction, evidence)
        if not claims:
            return evidence
        opinions = dict(evidence.opinions)
        missing = {c.case_id for c in claims if c.case_id not in opinions}
        if missing and source is not None:
            records = _Records(extraction, evidence.lookups)
            wanted: dict[str, CaseRecord] = {}
            for c in extraction.citations:
                rec = records.record_for(c)
                if rec is not None and rec.id in missing:
                    wanted.setdefault(rec.id, rec)
            texts = await asyncio.gather(*(_opinion(source, r) for r in wanted.values()))
            opinions.update({rid: t for rid, t in zip(wanted, texts, strict=True) if t is not None})
        results = await judge_claims(
            claims,
            opinions,
            self.client,
            deadline=Deadline(self.settings.model_deadline_s),
            cache=self.cache,
            passage_tokens=self.settings.model_passage_tokens,
            protocol=self.settings.model_protocol,
            on_done=on_done,
        )
        holdings = {**evidence.holdings, **{(r.claim.case_id, r.claim.proposition): r for r in results}}
        return replace(evidence, opinions=opinions, holdings=holdings)


async def _opinion(source: AuthoritySource, record: CaseRecord) -> OpinionText | None:
    """The case's text, or None: a text that is not the case's or is cut short is not judged against."""
    try:
        text = await source.opinion(record)
        if text is not None and (unfit := why_unfit(record, text)) is not None:
            log.info("opinion text for %s not used: %s", record.id, unfit)
            return None
        return text
    except CitecheckError as exc:
        log.warning("opinion text for %s unavailable: %s", record.id, exc)
    except Exception:
        log.exception("opinion fetch for %s failed", record.id)
    return None
