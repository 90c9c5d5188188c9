"""Quiet the protocol noise a real VS Code causes, so the Output panel shows what matters.

VS Code pulls diagnostics on every keystroke and cancels each pull as the next change arrives,
often after the answer was already sent; pygls then warns "Cancel notification for unknown message
id" for every one of them, burying real messages. A late cancel is normal, not a problem: such
records go to debug level (``--log-level DEBUG`` still shows them). So does pygls' "Unable to
deserialize message" with its full traceback: the transport (``transport.py``) logs one line for
that message and answers it with an error.
"""

from __future__ import annotations

import logging

#: The pygls logger that writes the warning, and the start of its message.
PYGLS_RPC_LOGGER = "pygls.protocol.json_rpc"
LATE_CANCEL = "Cancel notification for unknown message id"
UNDESERIALIZABLE = "Unable to deserialize message"
_DEMOTED = (LATE_CANCEL, UNDESERIALIZABLE)


class LateCancelToDebug(logging.Filter):
    """Demote pygls' "unknown message id" cancel warnings and its "Unable to deserialize message"
    tracebacks to debug; pass everything else."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.DEBUG and str(record.msg).startswith(_DEMOTED):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(PYGLS_RPC_LOGGER).isEnabledFor(logging.DEBUG)
        return True


def install() -> None:
    """Attach the filter once (idempotent: the server may be built more than once in tests)."""
    logger = logging.getLogger(PYGLS_RPC_LOGGER)
    if not any(isinstance(f, LateCancelToDebug) for f in logger.filters):
        logger.addFilter(LateCancelToDebug())
