"""U.S. Code (USLM) and eCFR files in their real formats, written here, and a loopback server for them.

The files follow the real releases' shapes (usgpo/uslm's schema and the OLRC release points; the
eCFR versioner and govinfo bulk XML): ``<uscDoc>`` with ``<meta>``, ``<title>``/``<chapter>``/
``<section identifier=… >`` and notes; ``<DIV1 TYPE="TITLE">``…``<DIV8 TYPE="SECTION">``. Tests build
small ones; ``bench/statutes.py`` builds whole-Code-sized ones. Nothing here is copied from a release.

``StatuteServer`` serves them on 127.0.0.1 the way uscode.house.gov and ecfr.gov do: the release
point page, ``xml_uscAll@<rp>.zip`` (with HTTP Range, so an interrupted download can resume), and the
versioner's ``/titles.json``, ``/versions/title-N.json`` and ``/full/{date}/title-N.xml``.
"""

from __future__ import annotations

import io
import json
import random
import re
import threading
import urllib.parse
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from xml.sax.saxutils import escape

from citecheck.sources.corpus_server import QuietHTTPServer

USLM_NS = "http://xml.house.gov/schemas/uslm/1.0"


@dataclass(frozen=True, slots=True, kw_only=True)
class FakeSection:
    """One section to write. ``status`` "" = in force; "repealed", "transferred", "reserved", …"""

    number: str
    heading: str
    paragraphs: tuple[str, ...] = ()
    status: str = ""
    note: str = ""  # an editorial note (e.g. "Section was transferred to section 1101 of Title 8")
    bracket: bool = True  # the Code's "[§ 5. Repealed …]" brackets for a status section
    range_to: str | None = None  # "§§ number to range_to"
    status_attr: bool = True  # write @status (newer releases) or rely on the heading only


def _uslm_section(title: str, s: FakeSection) -> str:
    sign = "§§" if s.range_to else "§"
    shown = f"{s.number} to {s.range_to}" if s.range_to else s.number
    ident = f"/us/usc/t{title}/s{s.number}"
    attr = f' status="{s.status}"' if s.status and s.status_attr else ""
    if s.status:
        open_, close = ("[", "]") if s.bracket else ("", "")
        head = (
            f'<num value="{escape(s.number)}">{open_}{sign} {escape(shown)}.</num>'
            f"<heading> {escape(s.heading)}{close}</heading>"
        )
    else:
        head = f'<num value="{escape(s.number)}">{sign} {escape(shown)}.</num><heading> {escape(s.heading)}</heading>'
    body = ""
    if s.paragraphs:
        if len(s.paragraphs) == 1:
            body = f"<content><p>{escape(s.paragraphs[0])}</p></content>"
        else:
            subs = []
            for i, para in enumerate(s.paragraphs):
                letter = chr(ord("a") + i)
                subs.append(
                    f'<subsection identifier="{ident}/{letter}"><num value="{letter}">({letter})</num>'
                    f"<content>{escape(para)}</content></subsection>"
                )
            body = "".join(subs)
    credit = "<sourceCredit>(R.S. § 1979; Pub. L. 96–170, § 1, Dec. 29, 1979, 93 Stat. 1284.)</sourceCredit>"
    notes = ""
    if s.note:
        notes = (
            '<notes type="uscNote"><note role="crossHeading" topic="editorialNotes"><heading>Editorial Notes'
            f'</heading></note><note topic="codification"><heading>Codification</heading><p>{escape(s.note)}</p>'
            "</note></notes>"
        )
    # a quoted section of another Act inside the notes, as the Code prints short-title notes: not a section
    quoted = (
        '<notes type="uscNote"><note topic="shortTitle"><quotedContent><section><num value="1">Section 1.</num>'
        "<heading>Short title</heading><content>This Act may be cited as the Example Act.</content></section>"
        "</quotedContent></note></notes>"
    )
    return (
        f'<section identifier="{ident}"{attr}>{head}{body}{credit if not s.status else ""}'
        f"{notes}{quoted if not s.status else ''}</section>"
    )


def uslm_title(
    title: str,
    sections: Sequence[FakeSection],
    *,
    heading: str = "THE PUBLIC HEALTH AND WELFARE",
    edition: str = "119-36",
    chapter_size: int = 50,
    namespace: str = USLM_NS,
) -> bytes:
    """A USLM title file (``usc42.xml``) holding ``sections`` in chapters of ``chapter_size``."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<uscDoc xmlns="{namespace}" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        f'xmlns:dcterms="http://purl.org/dc/terms/" xml:lang="en" identifier="/us/usc/t{title}">',
        f"<meta><dc:title>Title {title}</dc:title><dc:type>USCTitle</dc:type><docNumber>{title}</docNumber>"
        f"<docPublicationName>Online@{edition}</docPublicationName><dc:publisher>OLRC</dc:publisher>"
        "<dcterms:created>2024-01-05T10:00:00</dcterms:created></meta>",
        f'<main><title identifier="/us/usc/t{title}"><num value="{title}">Title {title}—</num>'
        f"<heading>{escape(heading)}</heading>",
    ]
    for start in range(0, len(sections), chapter_size):
        ch = start // chapter_size + 1
        parts.append(
            f'<chapter identifier="/us/usc/t{title}/ch{ch}"><num value="{ch}">CHAPTER {ch}—</num>'
            f"<heading>CHAPTER HEADING {ch}</heading>"
        )
        parts.extend(_uslm_section(title, s) for s in sections[start : start + chapter_size])
        parts.append("</chapter>")
    parts.append("</title></main></uscDoc>")
    return "\n".join(parts).encode()


def release_zip(files: dict[str, bytes]) -> bytes:
    """The OLRC's ``xml_uscAll@<rp>.zip``: ``usc42.xml`` … at the top of the archive."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def ecfr_title(
    title: str,
    parts: dict[str, Sequence[FakeSection]],
    *,
    heading: str = "Commodity and Securities Exchanges",
    amddate: str = "Jan. 3, 2024",
    bulk: bool = False,
) -> bytes:
    """An eCFR title: the versioner's ``<DIV1>`` root, or (``bulk``) govinfo's ``<DLPSTEXTCLASS>`` file."""
    out = []
    if bulk:
        out.append(
            '<?xml version="1.0" encoding="UTF-8"?><DLPSTEXTCLASS><HEADER><FILEDESC><TITLESTMT><TITLE>'
            f"Title {title}</TITLE></TITLESTMT></FILEDESC></HEADER><TEXT><BODY><ECFRBRWS>"
            f"<AMDDATE>{amddate}</AMDDATE>"
        )
    else:
        out.append('<?xml version="1.0" encoding="UTF-8"?>')
    out.append(
        f'<DIV1 N="{title}" NODE="{title}:1" TYPE="TITLE"><HEAD>Title {title}—{escape(heading)}</HEAD>'
    )
    out.append(f'<DIV3 N="II" NODE="{title}:1.0.1" TYPE="CHAPTER"><HEAD>CHAPTER II—COMMISSION</HEAD>')
    for part, sections in parts.items():
        out.append(
            f'<DIV5 N="{part}" NODE="{title}:1.0.1.1.{part}" TYPE="PART"><HEAD>PART {part}—RULES</HEAD>'
        )
        for s in sections:
            n = f"§ {s.number}" if bulk else s.number
            shown = f"{s.number}-{s.range_to}" if s.range_to else s.number
            sign = "§§" if s.range_to else "§"
            head = f"{sign} {shown}   {'[Reserved]' if s.status == 'reserved' else s.heading}"
            paras = "".join(f"<P>{escape(p)}</P>" for p in s.paragraphs)
            out.append(
                f'<DIV8 N="{n if not s.range_to else shown}" NODE="{title}:1.0.1.1.{part}.0.1.{s.number}" '
                f'TYPE="SECTION"><HEAD>{escape(head)}</HEAD>{paras}'
                f'<CITA TYPE="N">[64 FR 1, Jan. 4, 1999]</CITA></DIV8>'
            )
        out.append("</DIV5>")
    out.append("</DIV3></DIV1>")
    if bulk:
        out.append("</ECFRBRWS></BODY></TEXT></DLPSTEXTCLASS>")
    return "\n".join(out).encode()


def titles_json(titles: dict[str, tuple[str, str]]) -> bytes:
    """``/api/versioner/v1/titles.json``: {number: (name, up_to_date_as_of)}."""
    rows = [
        {
            "number": int(n),
            "name": name,
            "latest_amended_on": date,
            "latest_issue_date": date,
            "up_to_date_as_of": date,
            "reserved": False,
        }
        for n, (name, date) in titles.items()
    ]
    return json.dumps({"titles": rows, "meta": {"date": "2024-01-05", "import_in_progress": False}}).encode()


def versions_json(title: str, entries: Iterable[tuple[str, str, str, bool]]) -> bytes:
    """``/api/versioner/v1/versions/title-N.json`` from (section, part, date, removed) rows."""
    rows = [
        {
            "date": date,
            "amendment_date": date,
            "issue_date": date,
            "identifier": section,
            "name": f"§ {section} Heading of {section}.",
            "part": part,
            "substantive": True,
            "removed": removed,
            "subpart": None,
            "title": title,
            "type": "section",
        }
        for section, part, date, removed in entries
    ]
    return json.dumps(
        {"content_versions": rows, "meta": {"title": title, "result_count": len(rows)}}
    ).encode()


# ---------------------------------------------------------------------------------------------- samples
#: A small title 42 and title 17 C.F.R. (statuses of every kind), shared by the tests of the index and the checks.
S1983 = (
    "Every person who, under color of any statute, ordinance, regulation, custom, or usage, of any State "
    "or Territory or the District of Columbia, subjects, or causes to be subjected, any citizen of the "
    "United States or other person within the jurisdiction thereof to the deprivation of any rights, "
    "privileges, or immunities secured by the Constitution and laws, shall be liable to the party injured "
    "in an action at law, suit in equity, or other proper proceeding for redress."
)

TITLE_42 = [
    FakeSection(
        number="1981",
        heading="Equal rights under the law",
        paragraphs=(
            (
                "All persons within the jurisdiction of the United States shall have the same right in every "
                "State and Territory to make and enforce contracts."
            ),
        ),
    ),
    FakeSection(
        number="1981a",
        heading="Transferred",
        status="transferred",
        note="Section 1981a was transferred to section 2000e–16a of this title.",
    ),
    FakeSection(
        number="1982",
        heading="Property rights of citizens",
        paragraphs=(
            (
                "All citizens of the United States shall have the same right to inherit, purchase, lease, sell, "
                "hold, and convey real and personal property."
            ),
        ),
    ),
    FakeSection(number="1983", heading="Civil action for deprivation of rights", paragraphs=(S1983,)),
    FakeSection(
        number="1984",
        heading="Repealed. Pub. L. 99–1, § 2, Jan. 1, 1985, 99 Stat. 1",
        status="repealed",
        status_attr=False,
    ),
    FakeSection(
        number="2000e–2",
        heading="Unlawful employment practices",
        paragraphs=(
            "It shall be an unlawful employment practice for an employer to fail or refuse to hire any individual.",
            (
                "It shall be an unlawful employment practice for an employment agency to fail or refuse to refer "
                "for employment."
            ),
        ),
    ),
    FakeSection(
        number="2000e–16a",
        heading="Protections against discrimination in compensation",
        paragraphs=("No employee shall be discriminated against in compensation.",),
    ),
    FakeSection(
        number="2401",
        heading="Repealed. Pub. L. 97–35, title V, § 529, Aug. 13, 1981, 95 Stat. 480",
        status="repealed",
        range_to="2408",
    ),
    FakeSection(number="3001", heading="Omitted", status="omitted"),
]

TITLE_17_CFR = {
    "240": [
        FakeSection(
            number="240.10b-5",
            heading="Employment of manipulative and deceptive devices.",
            paragraphs=(
                (
                    "It shall be unlawful for any person, directly or indirectly, by the use of any means or "
                    "instrumentality of interstate commerce, (a) To employ any device, scheme, or artifice to "
                    "defraud,"
                ),
            ),
        ),
        FakeSection(number="240.10b-6", heading="Reserved", status="reserved"),
        FakeSection(
            number="240.10b-9",
            heading="Prohibited representations in connection with certain offerings.",
            paragraphs=(
                (
                    "It shall constitute a manipulative or deceptive device for any person to represent that a "
                    "security is being offered on an all-or-none basis."
                ),
            ),
        ),
    ]
}

VERSIONS_17 = [
    ("240.10b-5", "240", "2017-01-03", False),
    ("240.10b-5", "240", "2020-06-01", False),
    ("240.10b-7", "240", "2017-01-03", False),
    ("240.10b-7", "240", "2021-03-15", True),  # removed since
    ("240.10b-9", "240", "2017-01-03", False),
]


def build_sample_index(folder: Path) -> Path:
    """``folder/statutes.sqlite`` holding the sample titles 42 U.S.C. (release 119-36) and 17 C.F.R."""
    from citecheck.sources.statutes.ecfr import parse_ecfr, section_history
    from citecheck.sources.statutes.index import StatuteIndex
    from citecheck.sources.statutes.uslm import parse_uslm

    path = folder / "statutes.sqlite"
    with StatuteIndex(path) as index:
        title, sections = parse_uslm(io.BytesIO(uslm_title("42", TITLE_42, chapter_size=3)))
        index.replace_title(title, sections, source="test")
        title, sections = parse_ecfr(io.BytesIO(ecfr_title("17", TITLE_17_CFR)))
        index.replace_title(
            title, sections, source="test", history=section_history(versions_json("17", VERSIONS_17))
        )
    return path


# ---------------------------------------------------------------------------------------------- synthetic
def _vocabulary(size: int = 8000, seed: int = 7) -> tuple[list[str], list[float]]:
    """Pseudo-words with Zipf frequencies, the shortest the most frequent (as "the", "of", "a" are):
    about 5.5 bytes a word with its space, compressing about as well as English prose does."""
    rnd = random.Random(seed)
    syll = ["ab", "con", "de", "en", "for", "gen", "im", "ject", "la", "ment", "ni", "or", "pro", "que", "re",
            "sta", "tion", "ul", "ver", "wise", "ex", "ty", "al", "in", "per", "sub", "tu", "ance"]  # fmt: skip
    made = {
        "".join(rnd.choice(syll) for _ in range(rnd.choice((1, 2, 2, 2, 3, 3, 4)))) for _ in range(size * 3)
    }
    words = sorted(made, key=lambda w: (len(w), rnd.random()))[:size]
    cum, total = [], 0.0
    for rank in range(1, len(words) + 1):
        total += 1.0 / rank
        cum.append(total)
    return words, cum


_VOCAB = _vocabulary()


def _prose(rnd: random.Random, n: int) -> str:
    words, cum = _VOCAB
    text = " ".join(rnd.choices(words, cum_weights=cum, k=n))
    return text[:1].upper() + text[1:] + "."


def synthetic_sections(title: str, count: int, *, words: int = 180, seed: int = 0) -> Iterator[FakeSection]:
    """``count`` sections of a realistic shape: numbers with letter suffixes, ~1 in 12 repealed,
    one to four subsections, and an editorial note (notes are parsed and skipped, as in the Code)."""
    rnd = random.Random(f"{title}:{seed}")
    made = 0
    n = 1
    while made < count:
        suffixes = [""] + (["a", "b"] if rnd.random() < 0.08 else [])
        for suffix in suffixes:
            if made >= count:
                break
            number = f"{n}{suffix}"
            made += 1
            if rnd.random() < 0.08:
                yield FakeSection(
                    number=number, heading="Repealed. Pub. L. 104–193, title I, § 110(a)", status="repealed"
                )
                continue
            k = rnd.choice((1, 2, 3, 4))
            paras = tuple(_prose(rnd, max(8, words // k)) for _ in range(k))
            yield FakeSection(
                number=number,
                heading=f"Heading of section {number}",
                paragraphs=paras,
                note=_prose(rnd, words // 2),
            )
        n += rnd.choice((1, 1, 1, 2, 5))


def write_synthetic_usc(path: Path, titles: Sequence[str], sections_per_title: int, *, words: int) -> int:
    """An OLRC-style ``xml_uscAll`` zip of synthetic titles, streamed; returns the XML bytes written."""
    total = 0
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for t in titles:
            with z.open(f"usc{int(t):02d}.xml", "w") as f:
                head = uslm_title(t, [], chapter_size=1).split(b"</title></main></uscDoc>")[0]
                f.write(head)
                total += len(head)
                for i, s in enumerate(synthetic_sections(t, sections_per_title, words=words)):
                    if i % 50 == 0:
                        chunk = (
                            ("</chapter>" if i else "")
                            + f'<chapter identifier="/us/usc/t{t}/ch{i // 50 + 1}">'
                            f"<num>CHAPTER {i // 50 + 1}—</num><heading>CHAPTER</heading>"
                        ).encode()
                        f.write(chunk)
                    data = _uslm_section(t, s).encode()
                    f.write(data)
                    total += len(data)
                f.write(b"</chapter></title></main></uscDoc>")
    return total


def write_synthetic_ecfr(folder: Path, titles: Sequence[str], sections_per_title: int, *, words: int) -> int:
    """``title-N.xml`` files in the versioner's form, streamed; returns the bytes written."""
    total = 0
    folder.mkdir(parents=True, exist_ok=True)
    for t in titles:
        with (folder / f"title-{t}.xml").open("wb") as f:
            f.write(
                f'<?xml version="1.0" encoding="UTF-8"?>\n<DIV1 N="{t}" TYPE="TITLE"><HEAD>Title {t}</HEAD>'.encode()
            )
            part = 0
            for i, s in enumerate(synthetic_sections(t, sections_per_title, words=words, seed=1)):
                if i % 40 == 0:
                    part += 1
                    f.write(
                        (
                            ("</DIV5>" if i else "")
                            + f'<DIV5 N="{part}" TYPE="PART"><HEAD>PART {part}</HEAD>'
                        ).encode()
                    )
                number = f"{part}.{s.number}"
                head = "[Reserved]" if s.status else s.heading
                body = "".join(f"<P>{escape(p)}</P>" for p in s.paragraphs)
                data = (
                    f'<DIV8 N="{number}" TYPE="SECTION"><HEAD>§ {number} {escape(head)}</HEAD>{body}'
                    '<CITA TYPE="N">[64 FR 1, Jan. 4, 1999]</CITA></DIV8>\n'
                ).encode()
                f.write(data)
                total += len(data)
            f.write(b"</DIV5></DIV1>")
    return total


# ---------------------------------------------------------------------------------------------- server
@dataclass
class StatuteFiles:
    """What the loopback server serves; tests change it between requests (a new release, a broken one)."""

    release_point: str = "119-36"
    usc: dict[str, bytes] = field(default_factory=dict)  # "usc42.xml" → bytes
    ecfr: dict[str, bytes] = field(default_factory=dict)  # "40" → title XML
    ecfr_versions: dict[str, bytes] = field(default_factory=dict)  # "40" → versions JSON
    ecfr_titles: bytes = b""
    cut_after: int | None = None  # drop the connection after this many bytes of the zip (once)
    requests: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Range header)
    full_dates: list[str] = field(default_factory=list)  # the dates /full/{date}/… was asked for
    versions_queries: list[dict[str, str]] = field(default_factory=list)  # each versions request's query
    versions_per_page: int = 1000  # the versioner pages at 1,000 records
    busy: dict[str, int] = field(default_factory=dict)  # title → how many 503s its versions answer first
    versions_raw: dict[str, bytes] = field(default_factory=dict)  # title → bytes sent as they are (hostile)
    _zip: bytes | None = None

    def zip_bytes(self) -> bytes:
        if self._zip is None:
            self._zip = release_zip(self.usc)
        return self._zip

    def reset_zip(self) -> None:
        self._zip = None


class _Handler(BaseHTTPRequestHandler):
    files: StatuteFiles

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _send(
        self, body: bytes, ctype: str, status: int = 200, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        f = self.files
        path, _, query = self.path.partition("?")
        f.requests.append((path, self.headers.get("Range")))
        rp = f.release_point
        major, _, minor = rp.partition("-")
        zip_path = f"/download/releasepoints/us/pl/{major}/{minor}/xml_uscAll@{rp}.zip"
        if path == "/download/download.shtml":
            page = (
                f"<html><body><h3>Public Law {major}-{minor}</h3>"
                f'<a href="releasepoints/us/pl/{major}/{minor}/xml_uscAll@{rp}.zip">All titles (XML)</a>'
                "</body></html>"
            )
            return self._send(page.encode(), "text/html")
        if path == zip_path:
            return self._send_zip(f.zip_bytes())
        m = re.fullmatch(
            r"/api/versioner/v1/(titles\.json|versions/title-(\d+)\.json|full/([\d-]+)/title-(\d+)\.xml)",
            path,
        )
        if m:
            if m.group(1) == "titles.json":
                return self._send(f.ecfr_titles, "application/json")
            if m.group(2):
                return self._versions(m.group(2), dict(urllib.parse.parse_qsl(query)))
            f.full_dates.append(m.group(3))
            body = f.ecfr.get(m.group(4))
            if body is None:
                return self._send(b"<error>not found</error>", "application/xml", 404)
            return self._send(body, "application/xml")
        self._send(b"not found", "text/plain", 404)

    def _versions(self, title: str, params: dict[str, str]) -> None:
        """``/versions/title-N.json`` as the versioner answers it: an issue date is required (400 without),
        the rows issued on or before ``issue_date[lte]``, 1,000 a page, 503 while the title is processed."""
        f = self.files
        f.versions_queries.append(params)
        if f.busy.get(title, 0) > 0:
            f.busy[title] -= 1
            body = json.dumps({"message": f"Title {title} currently unavailable"}).encode()
            return self._send(body, "application/json", 503, {"Retry-After": "0"})
        if title in f.versions_raw:
            return self._send(f.versions_raw[title], "application/json")
        raw = f.ecfr_versions.get(title)
        if raw is None:
            return self._send(b'{"error":"not found"}', "application/json", 404)
        if not any(k.startswith("issue_date") for k in params):
            body = b'{"errors":"Bad parameters: An issue_date parameter must be provided."}'
            return self._send(body, "application/json", 400)
        doc = json.loads(raw)
        rows = doc.get("content_versions", [])
        if "issue_date[lte]" in params:
            rows = [r for r in rows if str(r.get("issue_date", "")) <= params["issue_date[lte]"]]
        per = f.versions_per_page
        pages = max(1, -(-len(rows) // per))
        page = int(params.get("page", "1") or "1")
        meta = dict(doc.get("meta") or {})
        meta.update(page=str(page), per_page=str(per), total_pages=str(pages), result_count=str(len(rows)))
        out = {"content_versions": rows[(page - 1) * per : page * per], "meta": meta}
        return self._send(json.dumps(out).encode(), "application/json")

    def _send_zip(self, data: bytes) -> None:
        f = self.files
        etag = f'"{len(data):x}-{hash(data) & 0xFFFFFFFF:x}"'
        rng = self.headers.get("Range")
        start = 0
        if rng and (m := re.fullmatch(r"bytes=(\d+)-", rng.strip())):
            start = int(m.group(1))
            if start >= len(data):
                return self._send(b"", "application/zip", 416, {"Content-Range": f"bytes */{len(data)}"})
        body = data[start:]
        status = 206 if start else 200
        headers = {"ETag": etag, "Accept-Ranges": "bytes"}
        if start:
            headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        cut = f.cut_after
        if cut is not None and self.command == "GET":
            f.cut_after = None
            self.send_response(status)
            self.send_header("Content-Type", "application/zip")
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.close_connection = True
            return
        self._send(body, "application/zip", status, headers)


class StatuteServer:
    """uscode.house.gov's download pages and ecfr.gov's versioner, on 127.0.0.1 (a thread; ``stop()``)."""

    def __init__(self, files: StatuteFiles) -> None:
        handler = type("Handler", (_Handler,), {"files": files})
        self.files = files
        self._httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def uscode_url(self) -> str:
        return f"{self.base_url}/download/"

    @property
    def ecfr_url(self) -> str:
        return f"{self.base_url}/api/versioner/v1/"

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> StatuteServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
