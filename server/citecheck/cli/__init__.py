"""The ``citecheck`` command line: one module per subcommand, wired together in ``app.py``.

The edge of the batch side: argv, files, stdout/stderr and exit codes live here and nowhere else.
"""

from citecheck.cli.app import main

__all__ = ["main"]
