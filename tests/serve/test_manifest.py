"""The add-in manifest (server/citecheck/serve/static/manifest.xml) follows the rules of Office's manifest schema
(OfficeAppManifestV1_1 + TaskPaneAppVersionOverridesV1_0): element order, required elements, value
formats and lengths, resource ids, HTTPS everywhere, and a "Check citations" ribbon button that
opens the task pane.

The XSDs themselves cannot be shipped here and ``office-addin-manifest validate`` needs Microsoft's
online service, so the rules the manifest relies on are written out below (docs/word.md says so).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from citecheck.serve.app import MANIFEST_BASE, manifest_xml

REPO = Path(__file__).resolve().parents[2]
MANIFEST = REPO / "server" / "citecheck" / "serve" / "static" / "manifest.xml"
NS = {
    "o": "http://schemas.microsoft.com/office/appforoffice/1.1",
    "bt": "http://schemas.microsoft.com/office/officeappbasictypes/1.0",
    "ov": "http://schemas.microsoft.com/office/taskpaneappversionoverrides",
    "xsi": "http://www.w3.org/2001/XMLSchema-instance",
}
#: OfficeApp's xs:sequence for a TaskPaneApp (optional ones may be absent, none may move).
ORDER = [
    "Id",
    "AlternateId",
    "Version",
    "ProviderName",
    "DefaultLocale",
    "DisplayName",
    "Description",
    "IconUrl",
    "HighResolutionIconUrl",
    "SupportUrl",
    "AppDomains",
    "Hosts",
    "Requirements",
    "DefaultSettings",
    "Permissions",
    "AllowSnapshot",
    "VersionOverrides",
]
REQUIRED = ["Id", "Version", "ProviderName", "DefaultLocale", "DisplayName", "Description", "DefaultSettings"]


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(MANIFEST)).getroot()


def local(el: etree._Element) -> str:
    return etree.QName(el).localname


def test_top_level_elements_in_schema_order(root) -> None:
    assert local(root) == "OfficeApp" and etree.QName(root).namespace == NS["o"]
    assert root.get(f"{{{NS['xsi']}}}type") == "TaskPaneApp"
    names = [local(e) for e in root if isinstance(e.tag, str)]
    assert all(n in ORDER for n in names), names
    assert names == sorted(names, key=ORDER.index), names
    for name in REQUIRED:
        assert name in names, name


def test_values_have_the_schema_formats(root) -> None:
    assert re.fullmatch(
        r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        root.findtext("o:Id", namespaces=NS),
    )
    assert re.fullmatch(r"[0-9]{1,5}(\.[0-9]{1,5}){0,3}", root.findtext("o:Version", namespaces=NS))
    assert len(root.find("o:DisplayName", NS).get("DefaultValue")) <= 125
    assert len(root.find("o:Description", NS).get("DefaultValue")) <= 250
    assert root.findtext("o:Permissions", namespaces=NS) == "ReadWriteDocument"
    assert [h.get("Name") for h in root.findall("o:Hosts/o:Host", NS)] == ["Document"]  # Word
    sets = {s.get("Name"): s.get("MinVersion") for s in root.findall("o:Requirements/o:Sets/o:Set", NS)}
    assert sets == {"WordApi": "1.3"}


def test_every_url_is_https_on_the_local_server(root) -> None:
    urls = [
        e.get("DefaultValue")
        for e in root.iter()
        if isinstance(e.tag, str)
        and local(e)
        in (
            "IconUrl",
            "HighResolutionIconUrl",
            "SupportUrl",
            "SourceLocation",
            "Image",
            "Url",
            "LearnMoreUrl",
        )
        and e.get("DefaultValue")
    ]
    urls += [e.text for e in root.findall("o:AppDomains/o:AppDomain", NS)]
    assert urls
    for url in urls:
        assert url.startswith("https://"), url
    local_urls = [u for u in urls if "localhost" in u]
    assert all(u.startswith(MANIFEST_BASE) for u in local_urls)
    assert (
        root.find("o:DefaultSettings/o:SourceLocation", NS).get("DefaultValue")
        == f"{MANIFEST_BASE}/taskpane.html"
    )


def test_ribbon_button_check_citations_opens_the_task_pane(root) -> None:
    vo = root.find("ov:VersionOverrides", NS)
    assert vo.get(f"{{{NS['xsi']}}}type") == "VersionOverridesV1_0"
    resources = vo.find("ov:Resources", NS)
    ids = {
        e.get("id"): e.get("DefaultValue") for e in resources.iter() if isinstance(e.tag, str) and e.get("id")
    }
    for e in vo.iter():
        if isinstance(e.tag, str) and e.get("resid"):
            assert e.get("resid") in ids, f"unresolved resid {e.get('resid')}"
            assert len(e.get("resid")) <= 32
    for s in resources.findall("bt:ShortStrings/bt:String", NS):
        assert len(s.get("DefaultValue")) <= 125
    for s in resources.findall("bt:LongStrings/bt:String", NS):
        assert len(s.get("DefaultValue")) <= 250
    host = vo.find("ov:Hosts/ov:Host", NS)
    assert host.get(f"{{{NS['xsi']}}}type") == "Document"
    button = host.find(
        ".//ov:ExtensionPoint[@xsi:type='PrimaryCommandSurface']//ov:Control[@xsi:type='Button']", NS
    )
    assert ids[button.find("ov:Label", NS).get("resid")] == "Check citations"
    action = button.find("ov:Action", NS)
    assert action.get(f"{{{NS['xsi']}}}type") == "ShowTaskpane"
    assert ids[action.find("ov:SourceLocation", NS).get("resid")] == f"{MANIFEST_BASE}/taskpane.html"
    sizes = sorted(int(i.get("size")) for i in button.findall("ov:Icon/bt:Image", NS))
    assert sizes == [16, 32, 80]


def test_icons_exist_and_are_pngs_of_their_size() -> None:
    import struct

    icons = REPO / "server" / "citecheck" / "serve" / "static" / "icons"
    for size in (16, 32, 64, 80):
        data = (icons / f"icon-{size}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (size, size)


def test_the_served_manifest_names_the_port_it_runs_on() -> None:
    static = REPO / "server" / "citecheck" / "serve" / "static"
    text = manifest_xml(static, 9911)
    assert "https://localhost:9911/taskpane.html" in text and "localhost:8765" not in text
    etree.fromstring(text.encode())  # still well-formed
