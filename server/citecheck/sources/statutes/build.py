"""Build the statute index from release files on disk: the U.S. Code zip (or ``usc*.xml`` files) and
eCFR title XML (with the versioner's versions JSON beside it, when there is one).

``sync.py`` downloads these files and calls ``build_index``; ``citecheck corpus sync --statutes
--from FOLDER`` uses files someone already has (an air-gapped office). A U.S. Code file in a changed
format (well-formed XML the parser does not know) stops the build with ``SchemaChanged`` before its title is
touched; titles already stored stay. A file that is not XML at all, empty or cut off (``UnreadableFile``: a
Git LFS pointer where ``usc42.xml`` should be, a truncated download) is refused, its title rolled back to the
copy the index holds, and the other titles are still built.
A U.S. Code title file with no sections is never stored as a title the index covers: an appendix the
release says was eliminated (``usc50A.xml``) or that holds only court rules (``usc11a.xml``) is recorded
as not checked, with the reason; any other (a truncated or hostile ``usc42.xml``) is refused — the
copy the index holds stays — and counted in ``BuildStats.refused``, so the sync does not end as if all
were well. An eCFR title that cannot be read is refused the same way and the other titles are built.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import IO

from citecheck.errors import EmptyTitle, ImportFormatError, SchemaChanged, UnreadableFile
from citecheck.sources.importing import ProgressSink
from citecheck.sources.statutes.ecfr import parse_ecfr, section_history
from citecheck.sources.statutes.index import StatuteIndex
from citecheck.sources.statutes.records import ParsedTitle
from citecheck.sources.statutes.uslm import parse_uslm

__all__ = ["BuildStats", "build_index", "release_members", "store_ecfr_title"]

_USC_MEMBER = re.compile(r"(?:^|/)usc(\d{2}[aA]?)\.xml$")
_ECFR_FILE = re.compile(r"^(?:ECFR-title(\d+)|title-(\d+))\.xml$")


@dataclass(slots=True)
class BuildStats:
    usc_titles: list[str] = field(default_factory=list)
    cfr_titles: list[str] = field(default_factory=list)
    sections: int = 0
    editions: dict[str, str] = field(default_factory=dict)  # "usc" → release point, "cfr 17" → date
    uncovered: list[str] = field(default_factory=list)  # titles recorded as not checked, and why
    refused: list[str] = field(default_factory=list)  # files not stored, and why (the sync did not succeed)

    def summary(self) -> str:
        parts = []
        if self.usc_titles:
            parts.append(f"{len(self.usc_titles)} U.S. Code titles")
        if self.cfr_titles:
            parts.append(f"{len(self.cfr_titles)} C.F.R. titles")
        tail = f"; {len(self.refused)} refused" if self.refused else ""
        return f"{', '.join(parts) or 'nothing'} ({self.sections:,} sections){tail}"


def release_members(path: Path) -> list[str]:
    """The ``usc*.xml`` members of an OLRC release zip, in title order (ImportFormatError if none)."""
    try:
        with zipfile.ZipFile(path) as z:
            names = [n for n in z.namelist() if _USC_MEMBER.search(n)]
    except (zipfile.BadZipFile, OSError) as exc:
        raise ImportFormatError(f"{path}: not a readable zip ({exc})") from exc
    if not names:
        raise SchemaChanged(
            f"{path}: no usc*.xml in the archive: the U.S. Code release format may have changed"
        )
    return sorted(names, key=_member_title)


def _member_title(name: str) -> str:
    """The title part of a ``usc*.xml`` member's name (only such members are listed)."""
    m = _USC_MEMBER.search(name)
    return m.group(1).lower() if m is not None else name.lower()


@contextmanager
def _open_member(path: Path, member: str) -> Iterator[IO[bytes]]:
    with zipfile.ZipFile(path) as z, z.open(member) as f:
        yield f


def _open_file(path: Path) -> IO[bytes]:
    return path.open("rb")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_index(
    index: StatuteIndex,
    *,
    usc: Path | None = None,
    ecfr: Path | None = None,
    progress: ProgressSink | None = None,
    source_usc: str = "",
    source_ecfr: str = "",
    on_title: Callable[[str], None] | None = None,
) -> BuildStats:
    """Store every title found: ``usc`` is a release zip or a folder of ``usc*.xml``; ``ecfr`` a folder
    of ``title-N.xml`` / ``ECFR-titleN.xml`` (with ``versions-title-N.json`` when the versioner gave it)."""
    stats = BuildStats()
    if usc is not None:
        _build_usc(index, usc, stats, progress, source_usc or str(usc), on_title)
    if ecfr is not None:
        _build_ecfr(index, ecfr, stats, progress, source_ecfr or str(ecfr), on_title)
    return stats


def _build_usc(
    index: StatuteIndex,
    usc: Path,
    stats: BuildStats,
    progress: ProgressSink | None,
    source: str,
    on_title: Callable[[str], None] | None,
) -> None:
    if usc.is_dir():
        files = sorted(p for p in usc.iterdir() if _USC_MEMBER.search(p.name))
        if not files:
            raise ImportFormatError(f"{usc}: no usc*.xml files")
        items: list[tuple[str, Callable[[], AbstractContextManager[IO[bytes]]]]] = [
            (p.name, partial(_open_file, p)) for p in files
        ]
    else:
        items = [(m, partial(_open_member, usc, m)) for m in release_members(usc)]
    if progress is not None:
        progress.stage("U.S. Code titles", len(items))
    for name, opener in items:
        try:
            with opener() as f:
                title, sections = parse_uslm(f, name=name)
                try:
                    index.replace_title(title, sections, source=source, synced_at=_now())
                    stored = True
                except EmptyTitle:
                    _empty_title(index, title, name, source, stats)
                    stored = False
        except (
            UnreadableFile,
            OSError,
        ) as exc:  # this file is refused, the copy held stays; the others are built
            why = str(exc) if str(exc).startswith(name) else f"{name}: {exc}"
            stats.refused.append(f"{why}; the copy the index holds (if any) was kept")
            stored = False
        if stored:
            stats.usc_titles.append(title.title)
            stats.sections += title.sections
            if title.edition:
                stats.editions["usc"] = title.edition
            if on_title is not None:
                on_title(f"{title.title} U.S.C.")
        if progress is not None:
            progress.advance()


def _empty_title(index: StatuteIndex, title: ParsedTitle, name: str, source: str, stats: BuildStats) -> None:
    """A U.S. Code title file with no sections: never a covered title, never over a good copy."""
    label = (
        f"{title.title[:-1]} U.S.C. App."
        if title.appendix and title.title.endswith("a")
        else f"{title.title} U.S.C."
    )
    release = f"release point {title.edition}" if title.edition else "this release"
    held = index.covers("usc", title.title) if title.title else False
    if title.eliminated:  # the release itself says so: the title is gone
        index.mark_uncovered(title, note=title.eliminated, source=source, synced_at=_now())
        stats.uncovered.append(f"{label}: eliminated in {release} ({title.eliminated[:160]}); not checked")
    elif title.appendix and not held:
        index.mark_uncovered(
            title, note="it holds no sections (court rules)", source=source, synced_at=_now()
        )
        stats.uncovered.append(f"{label}: {name} holds no sections in {release}; not checked")
    else:
        kept = "the copy the index holds was kept" if held else "nothing was stored"
        stats.refused.append(
            f"{name}: {label} has no <section> elements (a truncated or changed file?); {kept}"
        )


def store_ecfr_title(
    index: StatuteIndex,
    xml: Path,
    *,
    versions: Path | None,
    edition: str | None,
    source: str,
    expected_title: str | None = None,
) -> ParsedTitle:
    """One eCFR title file (and the versioner's versions of its sections) into the index; the file must
    hold ``expected_title`` when given (the title asked for, or its file name's)."""
    history = section_history(versions.read_bytes(), name=versions.name) if versions is not None else None
    with xml.open("rb") as f:
        title, sections = parse_ecfr(f, name=xml.name, expected_title=expected_title)
        if edition:
            title.edition = edition
        index.replace_title(title, sections, source=source, history=history, synced_at=_now())
    return title


def _build_ecfr(
    index: StatuteIndex,
    folder: Path,
    stats: BuildStats,
    progress: ProgressSink | None,
    source: str,
    on_title: Callable[[str], None] | None,
) -> None:
    files = []
    for p in sorted(folder.iterdir()):
        m = _ECFR_FILE.match(p.name)
        if m:
            files.append((m.group(1) or m.group(2), p))
    if not files:
        raise ImportFormatError(f"{folder}: no eCFR title files (title-N.xml or ECFR-titleN.xml)")
    files.sort(key=lambda t: int(t[0]))
    if progress is not None:
        progress.stage("C.F.R. titles", len(files))
    for number, p in files:
        versions = folder / f"versions-title-{number}.json"
        date_file = folder / f"title-{number}.date"
        try:
            title = store_ecfr_title(
                index,
                p,
                versions=versions if versions.exists() else None,
                edition=date_file.read_text().strip() if date_file.exists() else None,
                source=source,
                expected_title=number,
            )
        except (SchemaChanged, OSError) as exc:  # this title is refused; the others are built
            stats.refused.append(f"{p.name}: {exc}")
            if progress is not None:
                progress.advance()
            continue
        stats.cfr_titles.append(title.title)
        stats.sections += title.sections
        stats.editions[f"cfr {title.title}"] = title.edition
        if on_title is not None:
            on_title(f"{title.title} C.F.R.")
        if progress is not None:
            progress.advance()
