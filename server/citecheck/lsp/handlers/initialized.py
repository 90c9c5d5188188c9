"""``initialized``: register for configuration changes when the client allows it, then read them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from citecheck.lsp.features.configuration import apply_workspace_configuration

if TYPE_CHECKING:
    from citecheck.lsp.server import CiteServer

log = logging.getLogger(__name__)

METHOD = types.INITIALIZED
OPTIONS = None


async def handle(ls: CiteServer, params: types.InitializedParams) -> None:
    if ls.caps.dynamic_configuration:
        try:
            await ls.client_register_capability_async(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="citecheck-config", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION
                        )
                    ]
                )
            )
        except Exception as exc:
            log.warning("could not register for configuration changes: %s", exc)
    await ls.guarded("configuration", apply_workspace_configuration)(ls)
