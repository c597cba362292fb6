"""``astro-server webhook-listen``: receive webhook deliveries on a developer's machine.

Deliveries go only to ``https`` destinations, so the listener serves HTTPS on loopback with a
certificate it makes at start (ECDSA P-256, self-signed, for ``localhost``, ``127.0.0.1`` and
``::1``, valid for 7 days). Its private key never leaves the process (it is written to a private
temporary directory only for as long as :mod:`ssl` needs to load it); the certificate, public,
is added to ``<ASTRO_DATA_DIR>/webhook-listen.pem``, where an embedded server started with
``ASTRO_LOCAL_WEBHOOKS=1`` trusts it for loopback destinations only (see
:mod:`astro_server.platform.delivery.http`, which reads the file as a PEM bundle, afresh for
each connection).

Several listeners may run at once (one per port): the file holds every running listener's
certificate, each named after its address. A listener binds its port first and publishes its
certificate only once bound (a second listener on a busy port fails and changes nothing), and
withdraws it when it stops (Ctrl-C or SIGTERM). Certificates of listeners that were killed stay
until they expire or until :data:`MAX_TRUSTED_CERTIFICATES` newer ones push them out; trusting
them is harmless, their private keys died with their processes.

Each delivery is verified with :func:`astro_sdk.webhooks.verify` (the same check a receiver
should make), printed, and, with ``--forward-to``, sent on to a loopback URL with its
``webhook-*`` headers; the listener answers with the forward's status, so the delivery log shows
what the local application answered. A delivery that fails verification is answered 400. A
forward answered 204 or 304 is answered the same, without a body (RFC 9110 section 6.4.1: those
statuses end at the headers, so a body would be read as the next answer on a kept-alive
connection).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import errno
import ipaddress
import json
import os
import signal
import ssl
import sys
import tempfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import Any, Final, TextIO
from urllib.parse import urlsplit

try:
    import fcntl
except ImportError:  # not POSIX: publishing is still atomic, only not serialised
    fcntl = None  # type: ignore[assignment]

DEFAULT_PORT: Final = 4242
CERT_FILE_NAME: Final = "webhook-listen.pem"
MAX_BODY_BYTES: Final = 1_048_576
MAX_TRUSTED_CERTIFICATES: Final = 16
# Statuses whose answer ends at the headers (RFC 9110 sections 15.2, 15.3.5, 15.4.5).
_BODYLESS: Final = frozenset({204, 304})
FORWARD_TIMEOUT_S: Final = 10.0
_LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1"})


def certificate_path(environ: dict[str, str] | None = None) -> Path:
    """Where the listener writes its certificate: ``<ASTRO_DATA_DIR>/webhook-listen.pem``."""
    env = os.environ if environ is None else environ
    return Path(env.get("ASTRO_DATA_DIR", "./var")) / CERT_FILE_NAME


def make_certificate(days: int = 7, label: str = "") -> tuple[bytes, bytes]:
    """A self-signed certificate for the loopback names and its private key, both PEM.

    Its subject name is unique (``label``, the listener's address, and the serial number): the
    certificates of several listeners share one trust file, and a verifier looks a trusted
    certificate up by its subject name."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    serial = x509.random_serial_number()
    common_name = " ".join(filter(None, ["astro-server webhook-listen", label, f"{serial:x}"[:12]]))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name[:64])])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(serial)
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(
            x509.SubjectAlternativeName(
                [
                    x509.DNSName("localhost"),
                    x509.IPAddress(ipaddress.IPv4Address("127.0.0.1")),
                    x509.IPAddress(ipaddress.IPv6Address("::1")),
                ]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise the listeners' read-modify-write of the trust file (POSIX ``flock``)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if fcntl is None:
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _certificates_in(path: Path) -> list[bytes]:
    """The still-valid certificates of the trust file, PEM, oldest first (an unreadable or
    expired entry is dropped)."""
    from cryptography import x509

    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return []
    end_marker = b"-----END CERTIFICATE-----"
    found: list[bytes] = []
    now = dt.datetime.now(dt.UTC)
    for chunk in text.split(end_marker)[:-1]:
        start = chunk.find(b"-----BEGIN CERTIFICATE-----")
        if start < 0:
            continue
        pem = chunk[start:] + end_marker + b"\n"
        try:
            certificate = x509.load_pem_x509_certificate(pem)
        except ValueError:
            continue
        if certificate.not_valid_after_utc > now:
            found.append(pem)
    return found


def _write_certificates(path: Path, certificates: list[bytes]) -> None:
    if not certificates:
        path.unlink(missing_ok=True)
        return
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(b"".join(certificates))
    partial.chmod(0o644)  # certificates are public; the directory stays private
    os.replace(partial, path)  # a reader sees the old bundle or the new, never half of one


def publish_certificate(path: Path, cert_pem: bytes) -> None:
    """Add a running listener's certificate to the trust file, keeping the others that are
    still valid (at most :data:`MAX_TRUSTED_CERTIFICATES`, the newest)."""
    with _locked(path):
        kept = [pem for pem in _certificates_in(path) if pem.strip() != cert_pem.strip()]
        kept.append(cert_pem.strip() + b"\n")
        _write_certificates(path, kept[-MAX_TRUSTED_CERTIFICATES:])


def withdraw_certificate(path: Path, cert_pem: bytes) -> None:
    """Remove a stopping listener's certificate from the trust file (the file goes when it was
    the last)."""
    with _locked(path):
        kept = [pem for pem in _certificates_in(path) if pem.strip() != cert_pem.strip()]
        _write_certificates(path, kept)


def server_context(cert_pem: bytes, key_pem: bytes) -> ssl.SSLContext:
    """A TLS server context holding the certificate and key (the key file lives only while the
    context loads it, in a directory only this user can read)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    with tempfile.TemporaryDirectory(prefix="astro-listen-") as private:
        cert_file, key_file = Path(private) / "cert.pem", Path(private) / "key.pem"
        cert_file.write_bytes(cert_pem)
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(key_pem)
        context.load_cert_chain(cert_file, key_file)
    return context


def check_forward_url(url: str) -> str:
    """``--forward-to`` must be an http(s) URL on this machine (the listener forwards signed
    deliveries, never to another host)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.hostname not in _LOOPBACK_NAMES:
        raise ValueError(
            f"--forward-to must be an http or https URL on localhost, 127.0.0.1 or [::1]: {url}"
        )
    return url


class _Listener(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_port = False  # a second listener on the same port must fail, not share it

    def __init__(
        self,
        address: tuple[str, int],
        secret: list[str],
        forward_to: str | None,
        out: TextIO,
    ) -> None:
        super().__init__(address, _Handler)
        self.secret = secret
        self.forward_to = forward_to
        self.out = out
        self.lock = threading.Lock()

    def say(self, text: str) -> None:
        with self.lock:
            print(text, file=self.out, flush=True)


class _Handler(BaseHTTPRequestHandler):
    server: _Listener
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: each delivery is printed once, by :meth:`do_POST`."""

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        if status in _BODYLESS:
            self.send_response(status)
            self.end_headers()
            return
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        from astro_sdk import WebhookVerificationError
        from astro_sdk.webhooks import verify

        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self._answer(413, {"error": "body too large"})
            return
        body = self.rfile.read(length)
        headers = {name.lower(): value for name, value in self.headers.items()}
        stamp = dt.datetime.now(dt.UTC).strftime("%H:%M:%S")
        message_id = headers.get("webhook-id", "?")
        try:
            payload = verify(body, headers, self.server.secret)
        except (WebhookVerificationError, ValueError) as exc:
            self.server.say(f"{stamp}  {message_id}  REFUSED ({type(exc).__name__}: {exc})")
            self._answer(400, {"error": "verification failed", "message": str(exc)})
            return
        kind = payload.get("type", "?") if isinstance(payload, dict) else "?"
        self.server.say(f"{stamp}  {message_id}  {kind}  verified  {self.path}")
        self.server.say(json.dumps(payload, ensure_ascii=False, indent=2))
        if self.server.forward_to is None:
            self._answer(200, {"received": True})
            return
        self._forward(body, headers, message_id)

    def _forward(self, body: bytes, headers: dict[str, str], message_id: str) -> None:
        import httpx

        sent = {k: v for k, v in headers.items() if k.startswith("webhook-")}
        sent["content-type"] = headers.get("content-type", "application/json")
        target = self.server.forward_to or ""
        try:
            # Loopback only (check_forward_url): the local application's own certificate, on
            # this machine, is usually self-signed too.
            answer = httpx.post(
                target,
                content=body,
                headers=sent,
                timeout=FORWARD_TIMEOUT_S,
                verify=False,  # noqa: S501
            )
        except httpx.HTTPError as exc:
            self.server.say(f"          {message_id}  forward to {target} failed: {exc!r}")
            self._answer(502, {"error": "forward failed", "message": type(exc).__name__})
            return
        self.server.say(f"          {message_id}  forwarded to {target}: {answer.status_code}")
        self._answer(answer.status_code, {"forwarded": True, "status": answer.status_code})


def add_arguments(parser: argparse.ArgumentParser, default_port: int) -> None:
    parser.add_argument(
        "--secret",
        required=True,
        action="append",
        help="the subscription's signing secret, whsec_...; repeat while rotating (required)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=default_port,
        help=f"port to listen on (default: {default_port})",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        choices=("127.0.0.1", "localhost", "::1"),
        help="loopback address to listen on (default: 127.0.0.1)",
    )
    parser.add_argument(
        "--forward-to",
        default=None,
        help="also POST each verified delivery to this loopback URL (default: do not forward)",
    )


def cmd_webhook_listen(args: argparse.Namespace) -> int:
    from astro_sdk.webhooks import sign

    for secret in args.secret:
        try:  # a malformed secret fails now, not at the first delivery
            if not secret.startswith("whsec_"):
                raise ValueError
            sign(b"{}", secret)
        except ValueError:
            raise ValueError(
                "--secret takes the subscription's signing secret: whsec_ followed by base64"
            ) from None
    forward_to = check_forward_url(args.forward_to) if args.forward_to else None
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    # Bind before touching the trust file: a listener that cannot listen must not replace the
    # certificate a running one is verified with.
    try:
        listener = _Listener((host, args.port), args.secret, forward_to, sys.stdout)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        raise ValueError(
            f"port {args.port} on {host} is already in use (another "
            "webhook-listen?); stop it, or choose another port with --port and subscribe "
            "with that port"
        ) from None
    port = listener.server_address[1]
    cert_pem, key_pem = make_certificate(label=f"{shown}:{port}")
    listener.socket = server_context(cert_pem, key_pem).wrap_socket(
        listener.socket, server_side=True
    )
    cert_file = certificate_path()
    try:
        publish_certificate(cert_file, cert_pem)
    except BaseException:
        listener.server_close()
        raise
    url = f"https://{shown}:{port}/webhooks"
    print(f"Listening for webhook deliveries on {url}", flush=True)
    print(
        f"  certificate (self-signed, loopback names only) added to {cert_file.resolve()}",
        flush=True,
    )
    print(
        "  an embedded server trusts it with ASTRO_LOCAL_WEBHOOKS=1 and the same "
        "ASTRO_DATA_DIR; subscribe with destination_url " + url,
        flush=True,
    )
    if forward_to:
        print(f"  forwarding verified deliveries to {forward_to}", flush=True)
    previous = signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        listener.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        listener.server_close()
        withdraw_certificate(cert_file, cert_pem)
    return 0


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (a closed terminal, a process manager) stops the listener as Ctrl-C does, so it
    withdraws its certificate."""
    raise KeyboardInterrupt
