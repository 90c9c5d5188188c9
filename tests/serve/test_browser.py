"""The real pane, served by the real ``citecheck serve``, in Debian's Chromium driven by Playwright,
with the typed fake of Word (clients/word-addin/test/fake-word.ts) holding the paragraphs of
examples/brief.docx and one footnote: check → the list shows the example brief's findings → click selects →
add comment → apply fix → ignore.

The page keeps its Content-Security-Policy (the fake is injected by the browser, not by the page) and
office.js is answered locally, so nothing leaves the machine. ``CITECHECK_UPDATE_SCREENSHOTS=1``
also writes the screenshot to docs/images/word-taskpane.png.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.serve.conftest import REPO, Served, start_server, stop_server

ADDIN = REPO / "clients" / "word-addin"
FOOTNOTE = "😀 See Berry v. Keith, 100 A.2d 831 (D.C. Mun. App. 1953)."


def docx_paragraphs() -> list[str]:
    """The paragraphs of examples/brief.docx, as Word's ``body.paragraphs`` gives them."""
    import docx

    return [p.text for p in docx.Document(str(REPO / "examples" / "brief.docx")).paragraphs]


def _chromium() -> str:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        pytest.skip("no Chromium installed (Debian package 'chromium'); .ci/run installs it when it can")
    return binary


def _fake_word_bundle() -> Path:
    if shutil.which("node") is None or not (ADDIN / "node_modules" / "esbuild").exists():
        pytest.skip("the pane's build tools are not installed (run `npm ci` in clients/word-addin)")
    subprocess.run(["node", "esbuild.mjs", "fake"], cwd=ADDIN, check=True, capture_output=True, timeout=120)
    return ADDIN / "out" / "fake-word.js"


def _spki_hash(served: Served) -> str:
    """Chromium trusts exactly this server's certificate (no system trust store is touched)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    cert_pem = served.ca.with_name("localhost.pem").read_bytes()
    leaf = x509.load_pem_x509_certificates(cert_pem)[0]
    spki = leaf.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


@pytest.fixture(scope="module")
def browser_served(tmp_path_factory: pytest.TempPathFactory, serve_corpus: Path) -> Iterator[Served]:
    proc, s = start_server(tmp_path_factory.mktemp("browser"), serve_corpus)
    try:
        yield s
    finally:
        stop_server(proc)


def test_the_pane_in_chromium_checks_selects_comments_fixes_and_ignores(
    browser_served: Served, tmp_path: Path
) -> None:
    binary = _chromium()
    bundle = _fake_word_bundle()
    from playwright.sync_api import sync_playwright

    served = browser_served
    spec = {"body": docx_paragraphs(), "footnotes": [[FOOTNOTE]]}
    problems: list[str] = []
    outside: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=binary,
            args=["--no-sandbox", f"--ignore-certificate-errors-spki-list={_spki_hash(served)}"],
        )
        try:
            page = browser.new_page(viewport={"width": 420, "height": 1150})
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            # the test's own probes are evaluated by the browser, as functions: the page's CSP forbids eval

            def office_js(route) -> None:  # Word's CDN script: the fake already stands in for it
                route.fulfill(status=200, content_type="application/javascript", body="/* office.js */")

            def record(request) -> None:
                if not request.url.startswith(served.base) and not request.url.startswith(
                    "https://appsforoffice."
                ):
                    outside.append(request.url)

            page.route("https://appsforoffice.microsoft.com/**", office_js)
            page.on("request", record)
            page.add_init_script(f"window.citecheckFakeSpec = {json.dumps(spec)};")
            page.add_init_script(path=str(bundle))
            page.goto(f"{served.base}/taskpane.html")

            # check (runs on open) → the list shows the brief's findings
            page.wait_for_selector(".group.status-problem", timeout=60_000)
            summary = page.inner_text(".summary")
            assert "error" in summary and "citations" in summary, summary
            assert page.locator(".finding.severity-error").count() >= 1
            titles = page.locator(".finding h3").all_inner_texts()
            assert "No case at this citation" in titles, titles
            body = page.inner_text("main")
            if "could not be verified" in summary and not summary.startswith("0"):
                assert "not an accusation" in body
            shot = tmp_path / "word-taskpane.png"
            page.screenshot(path=str(shot))
            if os.environ.get("CITECHECK_UPDATE_SCREENSHOTS"):
                (REPO / "docs" / "images").mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, REPO / "docs" / "images" / "word-taskpane.png")

            fake = "window.citecheckFake.journal"
            # click a citation → Word selects it
            first = page.locator(".group.status-problem .cite-link").first
            first.click()
            page.wait_for_function(f"() => {fake}.selections.length === 1")
            selected = page.evaluate(f"{fake}.selections[0]")
            assert selected and selected.replace("*", "") in first.inner_text().replace("*", ""), (
                selected,
                first.inner_text(),
            )

            # add comment → a Word comment with the finding
            finding = page.locator(".group.status-problem .finding").first
            message = finding.locator(".message").inner_text()
            finding.get_by_role("button", name="Add comment").click()
            page.wait_for_function(f"() => {fake}.comments.length === 1")
            assert message in page.evaluate(f"{fake}.comments[0].text")
            assert page.inner_text(".notice") == "Comment added."

            # apply fix → the text changes in Word and the pane re-checks
            fix = page.locator("button.fix").first
            fix_title = fix.inner_text()
            fix.click()
            page.wait_for_function(
                f"() => {fake}.replacements.length >= 1 || !document.querySelector('.error').hidden"
            )
            assert page.locator(".error").is_hidden(), page.inner_text(".error")
            page.wait_for_function(
                "() => document.querySelector('.notice').textContent.startsWith('Applied')"
            )
            replaced = page.evaluate(f"{fake}.replacements[0]")
            assert replaced["to"] in fix_title or replaced["to"].strip(), (replaced, fix_title)
            texts = page.evaluate("window.citecheckFake.texts()")
            assert any(replaced["to"] in t for t in texts)

            # ignore → gone from the list, counted as ignored, written to the shared store
            before = page.locator(".finding").count()
            page.locator(".finding").first.get_by_role("button", name="Ignore", exact=True).click()
            page.wait_for_function(
                "() => document.querySelector('.summary').textContent.includes('1 ignored')"
            )
            assert page.locator(".finding").count() == before - 1
            assert (served.root / ".citecheck" / "ignore.json").is_file()
        finally:
            browser.close()
    assert not outside, f"the pane contacted something other than its server: {outside}"
    assert not problems, problems
