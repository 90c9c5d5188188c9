"""Issue 35 item 8: the bucket's keys are matched to their end (``\\Z``: ``$`` let a key end in a newline),
and the statute syncs' hosts are https like the bucket's (plain http only to this machine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.config import settings_from_env
from citecheck.errors import ConfigError
from citecheck.sources.index.sync import sync
from citecheck.sources.models import LookupStatus
from citecheck_testing.bulk_bucket import FakeBucket
from citecheck_testing.bulk_dump import closed_volume_cases, index_status, write_dump


async def test_a_listing_key_ending_in_a_newline_is_not_a_dump_file(tmp_path: Path) -> None:
    """A newer 'dump' whose four keys end in a newline was taken as the newest, and its names refused as
    paths: the sync failed. Such keys are no dump file: the real, older dump is used."""
    with FakeBucket() as bucket:
        write_dump(tmp_path / "pub", closed_volume_cases(), compress=True, date="2026-06-30")
        bucket.put_folder(tmp_path / "pub")
        for kind in ("courts", "dockets", "opinion-clusters", "citations"):
            bucket.put(f"bulk-data/{kind}-2026-09-30.csv.bz2\n", b"BZh9")
        result = await sync(tmp_path / "index.sqlite", bulk_url=bucket.base_url)
        assert not any(path.endswith("\n") or "%0A" in path for path, _ in bucket.requests)
    assert result.date == "2026-06-30"
    assert index_status(tmp_path / "index.sqlite", "100 A.2d 36") is LookupStatus.FOUND


@pytest.mark.parametrize("name", ["USCODE_URL", "ECFR_URL", "BULK_URL"])
def test_the_sync_hosts_are_https_or_this_machine(name: str) -> None:
    var = f"CITECHECK_{name}"
    for bad in (
        "http://uscode.example/download/",
        "http://10.0.0.7/api/",
        "ftp://example.com/",
        "file:///etc/",
    ):
        with pytest.raises(ConfigError, match=r"must be an http"):
            settings_from_env({var: bad})
    for good in ("https://mirror.firm.example/download", "http://127.0.0.1:8000/x/", "http://localhost/x/"):
        value = getattr(settings_from_env({var: good}), name.lower())
        assert value.startswith(good.rstrip("/")) and value.endswith("/")
