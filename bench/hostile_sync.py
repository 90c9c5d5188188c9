"""Peak memory and disk of the syncs against hostile input (issue 35 items 3 and 5; docs/security.md).

Each case is one ``citecheck corpus sync …`` in a child process under a 4 GiB address-space limit and a
time limit, against a loopback server or files written here that are small on the wire and large
unpacked — what a hostile bucket, OLRC page or eCFR answer can send. For each it prints the exit status,
the last line of stderr, the child's peak RSS (its own VmHWM), the peak disk its work folder reached and
what was left there afterwards, and the wall time.

    python bench/hostile_sync.py [--only NAME,…] [--code PATH/server] [--scale 1.0]

``--code`` runs the children against another checkout's ``server/`` (e.g. an export of main before a
change) for an A/B comparison; ``--scale`` shrinks the inputs (0.25: quarter-size, for a quick look).
The "unknown size" case needs root to mount a 1 GiB tmpfs of its own (skipped otherwise).
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import io
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

from citecheck.sources.corpus_server import QuietHTTPServer
from citecheck_testing.bulk_bucket import FakeBucket, multipart_etag
from citecheck_testing.bulk_dump import closed_volume_cases, write_dump
from citecheck_testing.statutes import TITLE_17_CFR, ecfr_title, titles_json, versions_json

MIB = 1 << 20
LIMIT_AS = 4 << 30
TIMEOUT_S = 300

_CHILD = """import sys, atexit
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            sys.stderr.write("PEAK_KB=" + line.split()[1] + "\\n")
atexit.register(peak)
from citecheck.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _disk(folder: Path) -> int:
    total = 0
    for base, _dirs, files in os.walk(folder):
        for f in files:
            try:
                total += os.lstat(os.path.join(base, f)).st_blocks * 512
            except OSError:
                pass
    return total


def run(args: list[str], env: dict[str, str], work: Path, code: str | None) -> dict[str, object]:
    """One child: exit status, last stderr line, peak RSS (MB), peak and final disk of ``work`` (MB), seconds."""
    child_env = {**os.environ, **env}
    if code:
        child_env["PYTHONPATH"] = code

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))

    peak_disk = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak_disk
        while not done.is_set():
            peak_disk = max(peak_disk, _disk(work))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, *args],
        env=child_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    try:
        _out, raw = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, raw = proc.communicate()
    seconds = time.monotonic() - t0
    done.set()
    watcher.join()
    peak_disk = max(peak_disk, _disk(work))
    lines = raw.decode("utf-8", "replace").splitlines()
    peaks = [int(x[8:]) for x in lines if x.startswith("PEAK_KB=")]
    said = [x for x in lines if not x.startswith("PEAK_KB=") and x.strip()]
    return {
        "rc": proc.returncode,
        "said": (said[-1] if said else "")[:400],
        "rss_mb": peaks[-1] // 1024 if peaks else None,
        "disk_mb": peak_disk // MIB,
        "left_mb": _disk(work) // MIB,
        "s": round(seconds, 1),
    }


# ------------------------------------------------------------------------------------------ servers
class _Answers(BaseHTTPRequestHandler):
    routes: ClassVar[dict[str, Callable[[BaseHTTPRequestHandler], None]]] = {}

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        for prefix, answer in self.routes.items():
            if path.startswith(prefix):
                answer(self)
                return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def serve(routes: dict[str, Callable[[BaseHTTPRequestHandler], None]]) -> tuple[QuietHTTPServer, str]:
    handler = type("Answers", (_Answers,), {"routes": routes})
    httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def gzip_answer(body: bytes) -> Callable[[BaseHTTPRequestHandler], None]:
    def answer(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Encoding", "gzip")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    return answer


def plain_answer(body: bytes) -> Callable[[BaseHTTPRequestHandler], None]:
    def answer(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    return answer


def endless_answer(h: BaseHTTPRequestHandler) -> None:
    """A title with no length that never ends (HTTP/1.0: the body runs until the connection closes)."""
    h.send_response(200)
    h.send_header("Content-Type", "application/xml")
    h.end_headers()
    block = b"<P>" + b"x" * (MIB - 7) + b"</P>"
    try:
        h.wfile.write(b'<DIV1 TYPE="TITLE" N="40">')
        while True:
            h.wfile.write(block)
    except OSError:
        pass


def gzip_bomb(size: int) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as gz:
        chunk = b"\0" * (16 * MIB)
        for _ in range(max(1, size // len(chunk))):
            gz.write(chunk)
    return out.getvalue()


# -------------------------------------------------------------------------------------------- cases
def wide_row(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """citations-*.csv.bz2 of 4.8 KB: one row of 30 fields of 200 MiB (csv's limit is per field)."""
    dump = tmp / "dump"
    paths = write_dump(dump, closed_volume_cases(), compress=True)
    block = bz2.compress(b"a" * int(200 * MIB * scale), 9)
    with paths["citations"].open("wb") as fh:
        fh.write(bz2.compress(b'"id","volume","reporter","page","type","cluster_id","date_modified"\n"'))
        for i in range(30):
            fh.write(block + bz2.compress(b'","' if i < 29 else b'"\n'))
    return run(
        ["corpus", "sync", "--from", str(dump), "--index", str(_out(tmp) / "index.sqlite")],
        _env(tmp),
        _out(tmp),
        code,
    )


def huge_header(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """citations-*.csv.bz2 whose header line is 1 GiB."""
    dump = tmp / "dump"
    paths = write_dump(dump, closed_volume_cases(), compress=True)
    block = bz2.compress(b"a" * int(256 * MIB * scale), 9)
    paths["citations"].write_bytes(block * 4 + bz2.compress(b"\n"))
    return run(
        ["corpus", "sync", "--from", str(dump), "--index", str(_out(tmp) / "index.sqlite")],
        _env(tmp),
        _out(tmp),
        code,
    )


def bucket_bomb(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """The bucket's dockets file is a bz2 bomb (one row of 2 GiB) under an unverifiable multipart ETag;
    the sync is run twice: the second says whether the bomb was kept and reused (0 requests for it)."""
    write_dump(tmp / "pub", closed_volume_cases(), compress=True)
    block = bz2.compress(b"a" * int(256 * MIB * scale), 9)
    bomb = bz2.compress(b'"id","court_id","docket_number","date_modified"\n"1","') + block * 8
    with FakeBucket() as bucket:
        for p in sorted((tmp / "pub").iterdir()):
            data = bomb if p.name.startswith("dockets") else p.read_bytes()
            # parts of 100 bytes: no whole-MiB part size gives that many, so the bytes cannot be checked
            bucket.put(f"bulk-data/{p.name}", data, etag=multipart_etag(data, 100))
        env = {**_env(tmp), "CITECHECK_BULK_URL": bucket.base_url}
        first = run(["corpus", "sync", "--index", str(_out(tmp) / "index.sqlite")], env, _out(tmp), code)
        asked = sum(1 for path, _ in bucket.requests if "dockets" in path)
        second = run(["corpus", "sync", "--index", str(_out(tmp) / "index.sqlite")], env, _out(tmp), code)
        again = sum(1 for path, _ in bucket.requests if "dockets" in path) - asked
    second["said"] = f"rerun fetched the bomb {again}x; {second['said']}"
    return {"first": first, "second": second}


def listing_bomb(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """The bucket listing: 1 GiB of gzip-encoded zeros (1 MB on the wire)."""
    httpd, base = serve({"/": gzip_answer(gzip_bomb(int(1024 * MIB * scale)))})
    try:
        env = {**_env(tmp), "CITECHECK_BULK_URL": base + "/"}
        return run(["corpus", "sync", "--index", str(_out(tmp) / "index.sqlite")], env, _out(tmp), code)
    finally:
        httpd.shutdown()


def olrc_page_bomb(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """The OLRC's download.shtml: 1 GiB of gzip-encoded zeros."""
    httpd, base = serve({"/download/download.shtml": gzip_answer(gzip_bomb(int(1024 * MIB * scale)))})
    try:
        env = {**_env(tmp), "CITECHECK_USCODE_URL": base + "/download/"}
        args = ["corpus", "sync", "--statutes", "--usc-only", "--statutes-path", str(_out(tmp) / "s.sqlite")]
        return run(args, env, _out(tmp), code)
    finally:
        httpd.shutdown()


def ecfr_titles_bomb(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """The eCFR's titles.json: 1 GiB of gzip-encoded zeros."""
    httpd, base = serve({"/api/versioner/v1/titles.json": gzip_answer(gzip_bomb(int(1024 * MIB * scale)))})
    try:
        env = {**_env(tmp), "CITECHECK_ECFR_URL": base + "/api/versioner/v1/"}
        args = ["corpus", "sync", "--statutes", "--cfr-only", "--statutes-path", str(_out(tmp) / "s.sqlite")]
        return run(args, env, _out(tmp), code)
    finally:
        httpd.shutdown()


def _uslm(body: bytes) -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?><uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0">'
        b'<meta><docNumber>42</docNumber></meta><main><title identifier="/us/usc/t42"><num value="42">Title 42'
        b'</num><heading>THE PUBLIC HEALTH AND WELFARE</heading><section identifier="/us/usc/t42/s1983">'
        b'<num value="1983">\xc2\xa7 1983.</num><heading>Civil action</heading><content>'
        + body
        + b"</content>"
        b"</section></title></main></uscDoc>"
    )


def uslm_element(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """A release zip (0.4 MB) whose usc42.xml holds one 400 MB element."""
    folder = tmp / "release"
    folder.mkdir()
    with zipfile.ZipFile(folder / "xml_uscAll@118-200.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("usc42.xml", _uslm(b"a" * int(400 * 1000 * 1000 * scale)))
    args = [
        "corpus",
        "sync",
        "--statutes",
        "--usc-only",
        "--from",
        str(folder),
        "--statutes-path",
        str(tmp / "s.sqlite"),
    ]
    return run(args, _env(tmp), _out(tmp), code)


def ecfr_element(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """An eCFR title file whose one paragraph is 400 MB."""
    folder = tmp / "release"
    folder.mkdir()
    good = ecfr_title("17", TITLE_17_CFR)  # type: ignore[arg-type]
    cut = good.index(b"</P>")
    (folder / "title-17.xml").write_bytes(good[:cut] + b"a" * int(400 * 1000 * 1000 * scale) + good[cut:])
    args = [
        "corpus",
        "sync",
        "--statutes",
        "--cfr-only",
        "--from",
        str(folder),
        "--statutes-path",
        str(tmp / "s.sqlite"),
    ]
    return run(args, _env(tmp), _out(tmp), code)


def ecfr_unknown_size(tmp: Path, scale: float, code: str | None) -> dict[str, object]:
    """An eCFR title without a length that never ends, downloaded onto a 1 GiB disk of its own."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return {"said": "skipped: needs root to mount a 1 GiB tmpfs"}
    disk = tmp / "disk"
    disk.mkdir()
    if subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1g", "tmpfs", str(disk)], capture_output=True
    ).returncode:
        return {"said": "skipped: cannot mount a tmpfs here"}
    titles = titles_json({"40": ("Protection of Environment", "2024-01-03")})
    versions = versions_json("40", [("40.1", "Purpose", "2020-01-01", False)])
    httpd, base = serve({
        "/api/versioner/v1/titles.json": plain_answer(titles),
        "/api/versioner/v1/versions/": plain_answer(versions),
        "/api/versioner/v1/full/": endless_answer,
    })  # fmt: skip
    try:
        env = {**_env(tmp), "CITECHECK_ECFR_URL": base + "/api/versioner/v1/"}
        args = ["corpus", "sync", "--statutes", "--cfr-only", "--statutes-path", str(disk / "s.sqlite")]
        return run(args, env, disk, code)
    finally:
        httpd.shutdown()
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


CASES: dict[str, Callable[[Path, float, str | None], dict[str, object]]] = {
    "bulk-wide-row": wide_row,
    "bulk-huge-header": huge_header,
    "bucket-bz2-bomb": bucket_bomb,
    "listing-gzip-bomb": listing_bomb,
    "olrc-page-gzip-bomb": olrc_page_bomb,
    "ecfr-titles-gzip-bomb": ecfr_titles_bomb,
    "uslm-400mb-element": uslm_element,
    "ecfr-400mb-element": ecfr_element,
    "ecfr-unknown-size": ecfr_unknown_size,
}


def _out(tmp: Path) -> Path:
    """Where a case's sync writes (its index, downloads): the folder whose disk use is measured."""
    out = tmp / "out"
    out.mkdir(exist_ok=True)
    return out


def _env(tmp: Path) -> dict[str, str]:
    (tmp / "none.toml").write_text("# defaults\n")
    return {
        "CITECHECK_CONFIG": str(tmp / "none.toml"),
        "CITECHECK_CORPUS_PATH": str(tmp / "corpus.sqlite"),
        "CITECHECK_CACHE_PATH": str(tmp / "cache.sqlite"),
        "XDG_CONFIG_HOME": str(tmp / "xdg"),
        "XDG_DATA_HOME": str(tmp / "xdg-data"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated case names (default: all)")
    ap.add_argument(
        "--code", default=None, help="PYTHONPATH of the citecheck to run (another checkout's server/)"
    )
    ap.add_argument(
        "--scale", type=float, default=1.0, help="input size factor (default 1.0: the issue's sizes)"
    )
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n] or list(CASES)
    print(f"load average {os.getloadavg()[0]:.2f}; code {a.code or 'this checkout'}; scale {a.scale}")
    print(f"{'case':24} {'rc':>4} {'peak RSS':>9} {'peak disk':>10} {'left':>7} {'s':>6}  said")
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"hostile-{name}-") as d:
            result = CASES[name](Path(d), a.scale, a.code)
        rows = result.items() if "first" in result else [("", result)]
        for tag, r in rows:
            r = dict(r)  # type: ignore[call-overload]
            label = f"{name}{' ' + tag if tag else ''}"
            rss = f"{r['rss_mb']} MB" if r.get("rss_mb") is not None else "-"
            print(f"{label:24} {r.get('rc', '-')!s:>4} {rss:>9} {str(r.get('disk_mb', '-')) + ' MB':>10} "
                  f"{str(r.get('left_mb', '-')) + ' MB':>7} {r.get('s', '-')!s:>6}  {r.get('said', '')}")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
