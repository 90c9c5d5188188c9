"""One module per LSP method (as ruff's server does): ``METHOD``, optional ``OPTIONS``, ``handle``.

Each ``handle(ls, params)`` unpacks the params, calls a feature through ``ls.guarded`` (a failure
is logged and the other features go on) and returns. ``wiring.py`` registers them all.
"""
