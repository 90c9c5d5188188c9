"""``extract_citations`` turns the cyclic garbage collector off while it runs (issue 40): that is sound only
while extraction makes no reference cycles, and it must leave the collector as it found it."""

from __future__ import annotations

import gc

from citecheck.extract import extract_citations
from citecheck.extract.paragraph import extract_paragraph

_BRIEF = (
    "Plaintiffs rely on Roe v. Wade, 410 U.S. 113, 116 (1973) (holding so), aff'd, 411 U.S. 1 (1974). "
    'The court said "no more." Id. at 117. See also Smith v. Jones, 100 F.3d 200, 205 n.3 (2d Cir. 1996); '
    "42 U.S.C. § 1983; U.S. Const. art. I, § 8, cl. 3.\n\n"
    "Roe, supra, at 120. Smith at 206. Cf. Brown v. Bd. of Educ., 347 U.S. 483 (1954).\n"
)


def test_the_collector_is_left_as_it_was() -> None:
    was = gc.isenabled()
    try:
        gc.enable()
        extract_citations(_BRIEF)
        assert gc.isenabled()
        gc.disable()
        extract_citations(_BRIEF)
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_extraction_leaves_no_cyclic_garbage() -> None:
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            extract_paragraph.cache_clear()
            assert len(extract_citations(_BRIEF * 5).citations) > 20
        assert gc.collect() == 0  # nothing only the cyclic collector could free
    finally:
        if was:
            gc.enable()


def test_the_paragraphs_results_are_freed_before_the_collector_is_on_again(monkeypatch) -> None:
    """Turned back on, the collector walks every object the extraction made that is still alive: each
    paragraph's result (the citations before they were moved to the document's offsets) must be gone by
    then, but for what the paragraph cache keeps (emptied here, at that moment, to see the rest)."""
    from citecheck.extract.incremental import assembly, document
    from citecheck.extract.paragraph import ParagraphResult

    alive: list[int] = []
    real_enable = gc.enable

    class _Gc:
        isenabled = staticmethod(gc.isenabled)
        disable = staticmethod(gc.disable)

        @staticmethod
        def enable() -> None:
            extract_paragraph.cache_clear()
            alive.append(
                sum(type(o) is ParagraphResult and o is not assembly._USED_RESULT for o in gc.get_objects())
            )
            real_enable()

    was = gc.isenabled()
    gc.enable()
    monkeypatch.setattr(document, "gc", _Gc)
    try:
        extract_paragraph.cache_clear()
        assert len(extract_citations(_BRIEF * 3).citations) > 20
    finally:
        (gc.enable if was else gc.disable)()
    assert alive == [0]
