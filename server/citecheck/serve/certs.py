"""The localhost certificate Word needs (add-ins load only over HTTPS).

``citecheck serve --init`` makes a small certificate authority, signs one certificate for
``localhost``/``127.0.0.1``/``::1`` with it and then throws the authority's private key away: the
user trusts a root that can never sign anything else (it also carries name constraints limiting it to
those names, for the systems that honour them). Running ``--init --force`` again makes a fresh pair,
which must be trusted again.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from citecheck.errors import ConfigError

LEAF_DAYS = 397  # under the 398/825-day limits browsers and macOS put on TLS server certificates


@dataclass(frozen=True, slots=True)
class CertPaths:
    directory: Path

    @property
    def ca(self) -> Path:
        return self.directory / "citecheck-localhost-ca.pem"

    @property
    def cert(self) -> Path:
        return self.directory / "localhost.pem"

    @property
    def key(self) -> Path:
        return self.directory / "localhost-key.pem"

    def exist(self) -> bool:
        return self.ca.is_file() and self.cert.is_file() and self.key.is_file()


def create(paths: CertPaths, *, now: dt.datetime | None = None) -> None:
    """Write the CA certificate, the localhost certificate and its key (owner-only)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = now or dt.datetime.now(dt.UTC)
    start, end = now - dt.timedelta(minutes=5), now + dt.timedelta(days=LEAF_DAYS)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, "citecheck localhost CA"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "citecheck (this computer only)"),
        ]
    )
    names: list[x509.GeneralName] = [
        x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
        x509.IPAddress(ipaddress.ip_address("::1")),
    ]
    permitted: list[x509.GeneralName] = [
        x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_network("127.0.0.1/32")),
        x509.IPAddress(ipaddress.ip_network("::1/128")),
    ]
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    try:
        paths.directory.mkdir(parents=True, exist_ok=True)
        paths.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
        paths.cert.write_bytes(
            leaf.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM)
        )
        fd = os.open(paths.key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(
                key.private_bytes(
                    serialization.Encoding.PEM,
                    serialization.PrivateFormat.PKCS8,
                    serialization.NoEncryption(),
                )
            )
    except OSError as exc:
        raise ConfigError(
            f"cannot write the certificate to {paths.directory}: {exc.strerror or exc}"
        ) from exc
    # ca_key goes out of scope here and is never written: the root can sign nothing else


def expires(paths: CertPaths) -> dt.datetime:
    from cryptography import x509

    return x509.load_pem_x509_certificate(paths.cert.read_bytes()).not_valid_after_utc


def trust_instructions(paths: CertPaths) -> str:
    """What the user runs once so Word (and the browser for Word on the web) trust the certificate."""
    ca = paths.ca
    return f"""\
Trust the certificate once (it is valid for localhost only and nothing else can be signed with it):

  Windows (Word desktop and Edge; no administrator rights needed):
    certutil -user -addstore Root "{ca}"
    (or double-click the file, Install Certificate…, Current User, "Trusted Root Certification Authorities")

  macOS (Word desktop and Safari):
    security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db "{ca}"
    (or open it in Keychain Access and set "When using this certificate" to "Always Trust")

  Linux (Chrome/Chromium for Word on the web):
    certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -n "citecheck localhost" -i "{ca}"

Then start the server with `citecheck serve` and sideload the manifest (see docs/word.md).
"""
