"""Process-level guarantees that nothing leaves the machine that should not: ``--offline`` and redaction."""
