"""Settings from the client: initializationOptions and ``workspace/configuration``."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from citecheck.errors import ConfigError
from citecheck.lsp.sources import settings_differ

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)

SECTION = "citecheck"


def section_of(options: Any) -> Mapping[str, Any]:
    """initializationOptions / didChangeConfiguration settings: flat, or under "citecheck"."""
    if not isinstance(options, Mapping):
        return {}
    inner = options.get(SECTION)
    return inner if isinstance(inner, Mapping) else options


async def apply_workspace_configuration(ls: CiteServer, section: Mapping[str, Any] | None = None) -> None:
    """Ask the client for the "citecheck" section (when none was sent), recompute the settings, and
    re-check open documents when anything changed."""
    if section is None and ls.caps.configuration:
        try:
            got = await ls.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
            )
            section = section_of(got[0]) if got else {}
        except Exception as exc:
            log.warning("workspace/configuration failed: %s", exc)
    try:
        new = ls.compute_settings(section)
    except ConfigError as exc:
        ls.report_problem("configuration", exc)
        return
    old, ls.settings = ls.settings, new
    if settings_differ(old, new):
        log.info("settings changed; re-checking open documents")
        ls.diagnostics.refresh_all()
