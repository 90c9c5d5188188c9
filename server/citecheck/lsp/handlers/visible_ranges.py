"""``citecheck/visibleRanges`` (a notification of ours): the documents the client shows and their
visible ranges, so CourtListener work for what is on screen goes first (``features/visible_ranges``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from citecheck.lsp.features.visible_ranges import VISIBLE_RANGES_NOTIFICATION, BadParams

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)

METHOD = VISIBLE_RANGES_NOTIFICATION
OPTIONS = None


def handle(ls: CiteServer, params: Any) -> None:
    try:
        ls.visible.update(params)
    except BadParams as exc:  # a hint, not worth a popup: the work keeps document order
        log.warning("ignored a %s notification: %s", METHOD, exc)
