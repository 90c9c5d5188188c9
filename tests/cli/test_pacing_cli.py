"""What the CLI says about CourtListener's pacing, against the loopback CourtListener (windows of 3 s).

The stand-in's "minute" is three seconds and a run's budget half of that: long enough that a run slowed down
by a busy machine neither runs out of budget before its first answer nor sees the next window open while it
still works (with windows of 0.25 s and a budget of 0.15 s these tests failed at load 10).
"""

from __future__ import annotations

import time

import pytest

from citecheck_testing.courtlistener import FakeCourtListener

N = 150
MINUTE = 3.0  # the stand-in's "minute", in seconds
WINDOW = MINUTE + 0.05  # a little more than that


@pytest.fixture
def brief(tmp_path):
    p = tmp_path / "brief.md"
    p.write_text("\n\n".join(f"See Alpha v. Beta, {200 + i // 50} F.3d {1 + (i % 50) * 20} (9th Cir. 2000)."
                             for i in range(N)))  # fmt: skip
    return p


@pytest.fixture
def fake(monkeypatch):
    with FakeCourtListener(
        request_rates="5/min", citation_rate="60/min", time_scale=MINUTE / 60, token="tok"
    ) as server:
        monkeypatch.setenv("CITECHECK_COURTLISTENER_URL", server.base_url)
        monkeypatch.setenv("CITECHECK_COURTLISTENER_TOKEN", "tok")
        monkeypatch.setenv("CITECHECK_TOKEN_HOSTS", "127.0.0.1")  # the user allows the loopback stand-in
        monkeypatch.setenv("CITECHECK_CAP_FETCH", "0")
        monkeypatch.setenv("CITECHECK_COURTLISTENER_RATES", f"5/{MINUTE}s")
        monkeypatch.setenv("CITECHECK_COURTLISTENER_CITATION_RATE", f"60/{MINUTE}s")
        monkeypatch.setenv("CITECHECK_COURTLISTENER_BUDGET_S", str(MINUTE / 2))
        yield server


def test_a_run_out_of_allowance_says_how_many_wait_and_what_to_do(run_cli, brief, fake):
    r = run_cli("check", str(brief), "--format", "json")
    assert r.rc == 0
    line = [ln for ln in r.err.splitlines() if "citations verified" in ln]
    assert line == [
        f"citecheck: 60 of {N} citations verified; 90 waiting for CourtListener's rate limit "
        f"({line[0].split('(')[1].split(')')[0]}) — run again or use --wait"
    ], r.err
    assert "about" in line[0] and fake.counts.throttled == 0
    time.sleep(WINDOW)  # the allowance is back (a run that starts sooner may wait out its whole budget)
    again = run_cli("check", str(brief), "--format", "json")  # the next run continues where this one stopped
    assert f"120 of {N} citations verified; 30 waiting" in again.err


def test_wait_keeps_going_until_every_citation_is_verified(run_cli, brief, fake):
    r = run_cli("check", str(brief), "--format", "json", "--wait")
    assert r.rc == 0
    assert f"citecheck: {N} of {N} citations verified" in r.err.splitlines()
    assert fake.counts.throttled == 0 and fake.counts.citations == N
    assert r.out.lstrip().startswith("{")  # progress goes to stderr; stdout stays the report


def test_a_rejected_token_is_said_once_and_stops_the_calls(run_cli, brief, fake, monkeypatch):
    monkeypatch.setenv("CITECHECK_COURTLISTENER_TOKEN", "bad-token-4f1e")
    r = run_cli("check", str(brief), "--format", "json")
    assert r.err.count("CourtListener refused the token") == 1, r.err
    assert "bad-token-4f1e" not in r.err + r.out
    assert fake.counts.requests == 1
    run_cli("check", str(brief), "--format", "json")  # the next run with the same token sends nothing
    assert fake.counts.requests == 1


def _labels(first: int, n: int, volume: int = 200) -> list[str]:
    return [f"{volume + i // 50} F.3d {1 + (i % 50) * 20}" for i in range(first, first + n)]


def test_when_the_allowance_runs_out_the_first_citations_are_the_ones_looked_up(run_cli, brief, fake):
    run_cli("check", str(brief), "--format", "json")
    assert fake.lookup_order == _labels(0, 60)  # the file's first 60, in file order
    time.sleep(WINDOW)  # the user runs it again once the allowance is back
    run_cli("check", str(brief), "--format", "json")
    assert fake.lookup_order == _labels(0, 120)  # the next run: the next 60
    assert fake.counts.throttled == 0


def test_a_later_run_starts_with_what_the_last_one_left_even_after_the_brief_grew(run_cli, brief, fake):
    run_cli("check", str(brief), "--format", "json")
    # the writer adds ten citations at the top; the 90 left waiting were asked for first, they go first
    added = "\n\n".join(
        f"See Gamma v. Delta, {300 + i // 50} F.3d {1 + (i % 50) * 20} (9th Cir. 2001)." for i in range(10)
    )
    brief.write_text(added + "\n\n" + brief.read_text())
    time.sleep(WINDOW)
    again = run_cli("check", str(brief), "--format", "json")
    assert fake.lookup_order[60:] == _labels(60, 60)
    assert f"120 of {N + 10} citations verified; 40 waiting" in again.err
    time.sleep(WINDOW)
    run_cli("check", str(brief), "--format", "json")
    assert fake.lookup_order[120:] == [*_labels(120, 30), *_labels(0, 10, volume=300)]


def test_several_files_are_looked_up_in_the_order_given(run_cli, tmp_path, fake):
    first, second = tmp_path / "b-first.md", tmp_path / "a-second.md"
    first.write_text(
        "\n\n".join(f"See Alpha v. Beta, 400 F.3d {1 + i * 20} (9th Cir. 2000)." for i in range(40))
    )
    second.write_text(
        "\n\n".join(f"See Alpha v. Beta, 300 F.3d {1 + i * 20} (9th Cir. 2000)." for i in range(40))
    )
    r = run_cli("check", str(first), str(second), "--format", "json")
    assert "60 of 80 citations verified; 20 waiting" in r.err, r.err
    assert fake.lookup_order == [f"400 F.3d {1 + i * 20}" for i in range(40)] + [
        f"300 F.3d {1 + i * 20}" for i in range(20)
    ]
