"""After any run of keystrokes, the real server shows exactly what it shows for the final text opened
fresh: the incremental extraction, the per-paragraph local findings, the carried source findings, the
moved diagnostics and their cached JSON must all end where a fresh check ends."""

from __future__ import annotations

import random

import pytest

PARAS = [
    "Umbrellas are no defence. Smith v. Jones, 33 Umbrella 422 (1986).",
    "The pin is reversed. Peyton v. District of Columbia, 100 A.2d 36, 40-38 (D.C. 1953).",
    "As held in id. at 4.",
    "See Roe, 410 U.S. at 116.\nA second line of the same paragraph.",
    "Later still: Doe v. Roe, 12 F.4th 1 (2d Cir. 1890).",
    "Gratz v. Bollinger, 539 U. S. 244 (2003); Grutter v. Bollinger, 539 U. S. 306 (2003).",
    "Compare 539 U. S., at 250, with 539 U. S., at 2, and 541 U. S., at 3.",
    "Smith, supra, at 423; Nobody, supra, at 5. Roe v. Wade, 410 U.S. 113 (1973).",
]
PIECES = ["a", "", " supra note 3", "Id. at 7. ", "\n\n", "410 U.S. 113", "v.", "1", "\n", "\u00e9\U0001f600"]


def _utf16_position(text: str, offset: int) -> dict[str, int]:
    line_start = max(text.rfind("\n", 0, offset) + 1, 0)
    column = text[line_start:offset]
    return {"line": text.count("\n", 0, offset), "character": len(column.encode("utf-16-le")) // 2}


def _shown(diagnostics: list[dict]) -> list[tuple]:
    return sorted(
        (
            d["range"]["start"]["line"],
            d["range"]["start"]["character"],
            d["range"]["end"]["line"],
            d["range"]["end"]["character"],
            d["code"],
            d["severity"],
            d["message"],
            repr(d.get("data")),
        )
        for d in diagnostics
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_typed_document_shows_what_a_fresh_one_shows(raw_server, tmp_path, seed: int) -> None:
    server = raw_server(
        env={
            "CITECHECK_OFFLINE": "1",
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        },
        log_level="WARNING",
    )
    server.initialize(
        options={"debounceMs": 40},
        capabilities={
            "general": {"positionEncodings": ["utf-16"]},
            "textDocument": {"publishDiagnostics": {"versionSupport": True, "dataSupport": True}},
        },
    )
    rng = random.Random(seed)
    text = "\n\n".join(rng.choice(PARAS) for _ in range(12))
    published: dict[tuple[str, int], list[dict]] = {}  # (uri, version) -> its latest publish

    def checked(uri: str, version: int):
        """Wait for the source-backed pass of ``version`` (its citations notification follows its publish)."""

        def match(m) -> bool:
            if m.get("method") == "textDocument/publishDiagnostics":
                published[(m["params"]["uri"], m["params"]["version"])] = m["params"]["diagnostics"]
            return (
                m.get("method") == "citecheck/citations"
                and m["params"]["uri"] == uri
                and m["params"]["version"] == version
            )

        return match

    uri = "file:///typed.txt"
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}},
    )
    server.wait_for(checked(uri, 1), timeout=60)
    version = 1
    for burst in range(4):  # typing bursts, each followed by a pause long enough for the source check
        for _ in range(15):
            at = rng.randrange(len(text) + 1)
            new = rng.choice(PIECES)
            end = min(len(text), at + (rng.randrange(1, 20) if new == "" else 0))
            version += 1
            server.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [
                        {
                            "range": {"start": _utf16_position(text, at), "end": _utf16_position(text, end)},
                            "text": new,
                        }
                    ],
                },
            )
            text = text[:at] + new + text[end:]
        server.wait_for(checked(uri, version), timeout=60)
        fresh = f"file:///fresh{burst}.txt"
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": fresh, "languageId": "plaintext", "version": 1, "text": text}},
        )
        server.wait_for(checked(fresh, 1), timeout=60)
        assert published[(uri, version)], "the typed text has findings to compare"
        assert _shown(published[(uri, version)]) == _shown(published[(fresh, 1)]), (burst, text)
    server.response(server.request("shutdown"))
    server.notify("exit")
    assert server.close()[0] == 0


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_local_findings_while_typing_equal_a_fresh_documents(raw_server, tmp_path, seed: int) -> None:
    """Stage 1 alone (offline, nothing to verify against, "could not verify" not shown; a debounce long
    enough that no source check runs between bursts): what the typed document shows once stage 1 has
    checked a version — where only the paragraphs stage 1 re-checked are replaced in what the client
    shows — equals the first publish of the same text opened fresh, once the caret moves off the
    citations. (Stage 1 says so in ``$/logTrace``: a publish that would not change what the client
    has is skipped, so the latest publish is what the client shows.)"""
    server = raw_server(
        env={
            "CITECHECK_OFFLINE": "1",
            "CITECHECK_CACHE_PATH": str(tmp_path / "c.sqlite"),
            "CITECHECK_CORPUS_PATH": str(tmp_path / "corpus.sqlite"),
        },
        log_level="WARNING",
    )
    answer = server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": None,
            "trace": "messages",
            "initializationOptions": {"debounceMs": 6000, "cannotVerifyDiagnostics": "none"},
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "textDocument": {"publishDiagnostics": {"versionSupport": True, "dataSupport": True}},
            },
        },
    )
    server.response(answer)
    server.notify("initialized", {})
    rng = random.Random(seed)
    text = "\n\n".join(rng.choice(PARAS) for _ in range(14)) + "\n\nThe end"
    published: dict[str, list[dict]] = {}  # uri -> its latest publish: what the client shows

    def checked(uri: str, version: int):
        """Stage 1 has checked ``version`` (and published it unless the client shows it already)."""
        said = f"stage 1: {uri} v{version} checked ("

        def match(m) -> bool:
            if m.get("method") == "textDocument/publishDiagnostics":
                published[m["params"]["uri"]] = m["params"]["diagnostics"]
            return m.get("method") == "$/logTrace" and m["params"]["message"].startswith(said)

        return match

    def change(version: int, at: int, end: int, new: str) -> None:
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [
                    {
                        "range": {"start": _utf16_position(text, at), "end": _utf16_position(text, end)},
                        "text": new,
                    }
                ],
            },
        )

    uri = "file:///typed-local.txt"
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}},
    )
    server.wait_for(checked(uri, 1), timeout=60)
    version = 1
    compared = 0
    for burst in range(6):
        for _ in range(rng.choice([1, 3, 8])):  # a burst: stage 1 may skip versions (their regions wait)
            at = rng.randrange(len(text) - 10)
            new = rng.choice(PIECES)
            end = min(len(text) - 10, at + (rng.randrange(1, 20) if new == "" else 0))
            version += 1
            change(version, at, end, new)
            text = text[:at] + new + text[end:]
        server.wait_for(checked(uri, version), timeout=60)
        version += 1  # the caret moves to the last line (no citation there): nothing is held back
        change(version, len(text), len(text), ".")
        text += "."
        server.wait_for(checked(uri, version), timeout=60)
        fresh = f"file:///fresh-local{burst}.txt"
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": fresh, "languageId": "plaintext", "version": 1, "text": text}},
        )
        server.wait_for(checked(fresh, 1), timeout=60)
        compared += bool(published[fresh])
        assert _shown(published[uri]) == _shown(published[fresh]), (burst, text)
    assert compared, "the typed text has local findings to compare"
    server.response(server.request("shutdown"))
    server.notify("exit")
    assert server.close()[0] == 0
