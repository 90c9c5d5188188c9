"""The statute index: U.S. Code (USLM release points) and C.F.R. (eCFR) sections in one SQLite file.

``records`` (values), ``uslm`` and ``ecfr`` (parsers), ``index`` (the SQLite file), ``build`` (files on
disk → index) and ``sync`` (downloads → build). Checks see only ``StatuteAnswer`` / ``SectionRecord``
through the source chain (``SourceChain.lookup_statutes``). See docs/sources.md, "Statute index".
"""
