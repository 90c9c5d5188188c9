"""The public surface of the package is exactly what ``citecheck.__all__`` says."""

from __future__ import annotations

import citecheck


def test_all_is_pinned() -> None:
    assert sorted(citecheck.__all__) == [
        "Finding",
        "Kind",
        "Report",
        "Severity",
        "Span",
        "__version__",
        "check_document",
    ]
    for name in citecheck.__all__:
        assert getattr(citecheck, name) is not None
    from citecheck.pipeline import check_document

    assert citecheck.check_document is check_document
