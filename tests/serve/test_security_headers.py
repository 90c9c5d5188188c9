"""Issue 35 item 8, ``citecheck serve``: a header that decides who may ask (Origin, the token, Host) given
twice is refused — the last one used to win, so ``Origin: <evil>`` then ``Origin: <the pane>`` passed; a
media type is matched whole (``application/jsonx`` was accepted as JSON); and a report saved under
``--root`` never follows a ``.citecheck`` or ``reports`` link out of it. A real HTTPS server on loopback."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import httpx
import pytest
from tests.serve.conftest import Served

BODY = json.dumps(
    {"document": "dup", "paragraphs": ["See Savage v. Parks, 100 A.2d 450 (D.C. Mun. App. 1953)."]}
)


def _post(served: Served, headers: list[tuple[str, str]]) -> httpx.Response:
    with served.client() as c:
        return c.post("/api/v1/check", content=BODY.encode(), headers=headers)


def _base(served: Served, **replace: str) -> list[tuple[str, str]]:
    return list({**served.headers(), **replace}.items())


@pytest.mark.parametrize(
    "extra",
    [
        ("Origin", "https://evil.example"),  # evil first, the pane's last: the last used to win
        ("X-Citecheck-Token", "wrong-token"),
        ("Content-Type", "text/plain"),
    ],
)
def test_a_header_given_twice_is_refused(served: Served, extra: tuple[str, str]) -> None:
    headers = [extra, *_base(served)]
    r = _post(served, headers)
    assert r.status_code == 400, (r.status_code, r.text)
    assert "given twice" in r.json()["error"] and extra[0].lower() in r.json()["error"]
    assert _post(served, _base(served)).status_code == 200  # the same request, once each: accepted


@pytest.mark.parametrize("ctype", ["application/jsonx", "application/json-patch+json", "application/jsonp"])
def test_only_the_json_media_type_is_json(served: Served, ctype: str) -> None:
    assert _post(served, _base(served, **{"Content-Type": ctype})).status_code == 415
    ok = _post(served, _base(served, **{"Content-Type": "application/json; charset=utf-8"}))
    assert ok.status_code == 200, ok.text


@pytest.mark.parametrize("link", [".citecheck", "reports"])
def test_a_saved_report_never_follows_a_link_out_of_the_root(tmp_path: Path, caplog, link: str) -> None:
    from citecheck.serve.app import _save_report

    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    if link == ".citecheck":
        (root / ".citecheck").symlink_to(outside, target_is_directory=True)
    else:
        (root / ".citecheck").mkdir()
        (root / ".citecheck" / "reports").symlink_to(outside, target_is_directory=True)
    with caplog.at_level(logging.WARNING):
        assert _save_report(root, "<html>report</html>") is None
    assert list(outside.iterdir()) == []
    assert any("outside" in r.getMessage() for r in caplog.records)
    # a real folder inside the root is used
    other = tmp_path / "root2"
    other.mkdir()
    saved = _save_report(other, "<html>report</html>")
    assert saved is not None and saved.parent == other / ".citecheck" / "reports" and saved.read_text()
