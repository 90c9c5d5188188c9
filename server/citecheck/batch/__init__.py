"""``citecheck batch``: screening thousands of documents on Ray (docs/scale.md).

One document is checked exactly as ``citecheck check`` checks it (``pipeline.check_input``); this
package only spreads documents over workers and keeps what they found:

- ``documents.py`` — INPUT (folders, globs, ``@list`` files) → the document paths, in a stable order;
- ``rows.py`` — a checked file → Parquet rows, through the JSON report's view of each finding (pure);
- ``store.py`` — the two Parquet tables, written whole or not at all, and what a rerun may skip;
- ``worker.py`` — one worker: the sources opened once, then one document after another;
- ``judges.py`` — the holding judge's endpoints shared by all workers (batching, backpressure, one cache);
- ``engine.py`` — Ray: a local instance or a cluster, the workers, timeouts, progress.

Ray and pyarrow are the ``[scale]`` extra; only ``engine.py`` and ``store.py`` import them.
"""
