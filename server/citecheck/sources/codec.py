"""JSON-safe dicts for source records (the cache stores these). Pure; round-trips exactly."""

from __future__ import annotations

from typing import Any

from citecheck.sources.models import (
    CaseCite,
    CaseRecord,
    CiteKey,
    LookupResult,
    LookupStatus,
    OpinionText,
    PageMap,
)


def record_to_dict(r: CaseRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "source": r.source,
        "name": r.name,
        "name_short": r.name_short,
        "name_full": r.name_full,
        "name_abbreviation": r.name_abbreviation,
        "court_id": r.court_id,
        "court_name": r.court_name,
        "jurisdiction": r.jurisdiction,
        "decision_date": r.decision_date,
        "url": r.url,
        "citations": [
            {
                "volume": c.volume,
                "reporter": c.reporter,
                "page": c.page,
                "last_page": c.last_page,
                "type": c.type,
            }
            for c in r.citations
        ],
    }


def record_from_dict(d: dict[str, Any]) -> CaseRecord:
    return CaseRecord(
        id=d["id"],
        source=d["source"],
        name=d["name"],
        name_short=d.get("name_short"),
        name_full=d.get("name_full"),
        name_abbreviation=d.get("name_abbreviation"),
        court_id=d.get("court_id"),
        court_name=d.get("court_name"),
        jurisdiction=d.get("jurisdiction"),
        decision_date=d.get("decision_date"),
        url=d.get("url"),
        citations=tuple(CaseCite(**c) for c in d.get("citations", ())),
    )


def result_to_dict(r: LookupResult) -> dict[str, Any]:
    return {
        "key": [r.key.volume, r.key.reporter, r.key.page],
        "status": r.status.value,
        "records": [record_to_dict(x) for x in r.records],
        "source": r.source,
        "reason": r.reason,
        "containing": record_to_dict(r.containing) if r.containing else None,
        "volume_complete": r.volume_complete,
        "volume_last_page": r.volume_last_page,
    }


def result_from_dict(d: dict[str, Any]) -> LookupResult:
    return LookupResult(
        key=CiteKey(*d["key"]),
        status=LookupStatus(d["status"]),
        records=tuple(record_from_dict(x) for x in d.get("records", ())),
        source=d.get("source"),
        reason=d.get("reason", ""),
        containing=record_from_dict(d["containing"]) if d.get("containing") else None,
        volume_complete=bool(d.get("volume_complete")),
        volume_last_page=d.get("volume_last_page"),
    )


def opinion_to_dict(o: OpinionText) -> dict[str, Any]:
    return {
        "case_id": o.case_id,
        "text": o.text,
        "page_maps": [
            {
                "reporter": p.reporter,
                "volume": p.volume,
                "first_page": p.first_page,
                "starts": [list(s) for s in p.starts],
            }
            for p in o.page_maps
        ],
    }


def opinion_from_dict(d: dict[str, Any]) -> OpinionText:
    return OpinionText(
        case_id=d["case_id"],
        text=d["text"],
        page_maps=tuple(
            PageMap(
                reporter=p["reporter"],
                volume=p["volume"],
                first_page=p["first_page"],
                starts=tuple((int(o), str(lbl)) for o, lbl in p["starts"]),
            )
            for p in d.get("page_maps", ())
        ),
    )
