"""Requests the server must refuse with an error rather than drop: anything after ``shutdown``
(InvalidRequest) and a position outside an open document (InvalidParams).

pygls silently ignores requests after ``shutdown``, and a hover on line 500 of a 20-line draft
would be clamped to the end of the text and answered about a citation the user never pointed at.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


def _positions(params: Any) -> list[types.Position]:
    out = []
    pos = getattr(params, "position", None)
    if isinstance(pos, types.Position):
        out.append(pos)
    rng = getattr(params, "range", None)
    if isinstance(rng, types.Range):
        out += [rng.start, rng.end]
    return out


def position_problem(workspace: Any, params: Any) -> str | None:
    """Why a request's position is outside its (open) document, or None.

    A line past the last line is an error; a character past the end of its line is clamped, as
    the LSP specification says, so it is not.
    """
    positions = _positions(params)
    doc_id = getattr(params, "text_document", None)
    uri = getattr(doc_id, "uri", None)
    if not positions or not isinstance(uri, str):
        return None
    open_document = getattr(workspace, "open_document", None)
    doc = open_document(uri) if open_document else None
    if doc is None:
        return None
    lines = doc.line_index().line_count
    for p in positions:
        if p.line >= lines:
            return f"position {p.line}:{p.character} is outside {uri} ({lines} lines)"
    return None


def refusal(protocol: Any, method: str, params: Any) -> tuple[int, str] | None:
    """``(code, message)`` when a request must be answered with an error instead of being handled."""
    if getattr(protocol, "_shutdown", False) and method != types.EXIT:
        return INVALID_REQUEST, f"{method} after shutdown"
    problem = position_problem(getattr(protocol, "_workspace", None), params)
    return (INVALID_PARAMS, problem) if problem else None
