"""``citecheck serve --init``'s certificate: localhost only, signed by a root whose key is thrown away."""

from __future__ import annotations

import datetime as dt
import ipaddress
import stat

from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec

from citecheck.serve.certs import CertPaths, create, trust_instructions


def test_certificate_for_localhost_signed_by_a_keyless_root(tmp_path) -> None:
    paths = CertPaths(tmp_path / "serve")
    create(paths)
    assert paths.exist()
    assert sorted(p.name for p in paths.directory.iterdir()) == sorted(
        ["citecheck-localhost-ca.pem", "localhost.pem", "localhost-key.pem"]
    )  # no CA private key on disk
    assert stat.S_IMODE(paths.key.stat().st_mode) == 0o600
    ca = x509.load_pem_x509_certificate(paths.ca.read_bytes())
    leaf = x509.load_pem_x509_certificates(paths.cert.read_bytes())[0]
    san = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == ["localhost"]
    assert set(san.get_values_for_type(x509.IPAddress)) == {
        ipaddress.ip_address("127.0.0.1"),
        ipaddress.ip_address("::1"),
    }
    ca.public_key().verify(
        leaf.signature, leaf.tbs_certificate_bytes, ec.ECDSA(leaf.signature_hash_algorithm)
    )
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    assert x509.DNSName("localhost") in constraints.permitted_subtrees
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc < dt.timedelta(days=398)


def test_trust_instructions_name_each_system(tmp_path) -> None:
    text = trust_instructions(CertPaths(tmp_path))
    assert "certutil -user -addstore Root" in text
    assert "security add-trusted-cert" in text
    assert str(tmp_path / "citecheck-localhost-ca.pem") in text
