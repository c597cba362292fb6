"""The deployment files are what they claim to be, checked without a cluster or a registry.

* deploy/kubernetes: every resource validates (strict: unknown fields are errors) against the
  Kubernetes API's OpenAPI schemas shipped by ``kubernetes-validate`` (offline), for the oldest
  and the newest version it carries that we support; the topology is the documented one (API x2
  probed on /healthz and /readyz, workers x2, one scheduler, a migrate Job, one image, the
  image's non-root user, read-only root with /tmp writable).
* compose.yaml: the same topology for docker-compose (PostgreSQL >= 14, Redis >= 7 with AOF, the
  one-shot migrate every process waits for), no secret in the file, every required variable in
  the env example; ``docker-compose config`` accepts it where docker-compose is installed.
* deploy/prometheus/alerts.yml names only metrics the server exports; ``promtool check rules``
  where promtool is installed. The nginx and Caddy examples pass ``nginx -t`` and
  ``caddy validate`` where those are installed, and set the X-Forwarded-* headers.
* The image's HEALTHCHECK script probes /healthz for ``serve`` only.

The image itself is built and run by scripts/container-test.sh (a separate CI step).
"""

from __future__ import annotations

import copy
import http.server
import importlib.util
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "kubernetes"
COMPOSE = ROOT / "compose.yaml"
ENV_EXAMPLE = ROOT / "deploy" / "compose.env.example"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
NGINX = ROOT / "deploy" / "nginx" / "astro.conf"
CADDY = ROOT / "deploy" / "caddy" / "Caddyfile"
DOCKERFILE = ROOT / "Dockerfile"
SERVER_SRC = ROOT / "packages" / "astro_server" / "src"

#: The oldest Kubernetes minor still supported upstream when this was written, and the newest
#: the installed kubernetes-validate carries.
K8S_VERSIONS = ("1.31.0", "latest")
MANIFESTS = sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def resources(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def all_resources() -> dict[tuple[str, str], dict[str, Any]]:
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in MANIFESTS:
        for doc in resources(path):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


def k8s_validate(doc: dict[str, Any], version: str) -> None:
    import kubernetes_validate

    if version == "latest":
        version = kubernetes_validate.utils.latest_version()
    kubernetes_validate.validate(doc, version, strict=True)


def image_uid() -> int:
    found = re.search(r"useradd --uid (\d+)", DOCKERFILE.read_text())
    assert found, "the Dockerfile creates its user with useradd --uid"
    return int(found.group(1))


# --- Kubernetes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("version", K8S_VERSIONS)
@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_kubernetes_manifests_validate_against_the_api_schemas(path: Path, version: str) -> None:
    docs = resources(path)
    assert docs
    for doc in docs:
        k8s_validate(doc, version)


def test_the_schema_check_rejects_a_broken_deployment() -> None:
    import kubernetes_validate

    api = all_resources()[("Deployment", "astro-api")]
    wrong_type = copy.deepcopy(api)
    wrong_type["spec"]["replicas"] = "two"
    misspelt = copy.deepcopy(api)
    container = misspelt["spec"]["template"]["spec"]["containers"][0]
    container["livenesProbe"] = container.pop("livenessProbe")
    for broken in (wrong_type, misspelt):
        with pytest.raises(kubernetes_validate.ValidationError):
            k8s_validate(broken, "latest")


def pod(doc: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = doc["spec"]["template"]["spec"]
    return spec


def test_kubernetes_topology_is_the_documented_one() -> None:
    found = all_resources()
    api = found[("Deployment", "astro-api")]
    worker = found[("Deployment", "astro-worker")]
    scheduler = found[("Deployment", "astro-scheduler")]
    migrate = found[("Job", "astro-migrate")]
    assert api["spec"]["replicas"] == 2
    assert worker["spec"]["replicas"] == 2
    assert scheduler["spec"]["replicas"] == 1
    assert scheduler["spec"]["strategy"]["type"] == "Recreate"  # never two schedulers at once
    assert pod(migrate)["restartPolicy"] == "Never"

    commands = {}
    images = set()
    config = found[("ConfigMap", "astro-config")]
    secret = found[("Secret", "astro-secrets")]
    for doc in (api, worker, scheduler, migrate):
        spec = pod(doc)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["runAsUser"] == image_uid()
        (container,) = spec["containers"]
        images.add(container["image"])
        commands[doc["metadata"]["name"]] = container["args"][0]
        refs = {next(iter(ref.values()))["name"] for ref in container["envFrom"]}
        assert refs == {config["metadata"]["name"], secret["metadata"]["name"]}
        assert container["securityContext"]["readOnlyRootFilesystem"] is True
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        volumes = {v["name"]: v for v in spec["volumes"]}
        assert "emptyDir" in volumes[mounts["/tmp"]]
    assert len(images) == 1, "one image runs every role"
    assert commands == {
        "astro-api": "serve",
        "astro-worker": "worker",
        "astro-scheduler": "scheduler",
        "astro-migrate": "migrate",
    }

    (container,) = pod(api)["containers"]
    port = int(container["args"][container["args"].index("--port") + 1])
    assert container["ports"][0]["containerPort"] == port
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    service = found[("Service", "astro-api")]
    assert service["spec"]["selector"] == api["spec"]["selector"]["matchLabels"]

    # Production mode needs both URLs and the key; the example holds placeholders only.
    for name in ("ASTRO_DATABASE_URL", "ASTRO_REDIS_URL", "ASTRO_SECRET_KEY"):
        assert "REPLACE" in secret["stringData"][name]
    assert not set(secret["stringData"]) & set(config["data"])

    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    for name in kustomization["resources"]:
        assert (K8S / name).is_file(), name
    assert "secret.example.yaml" not in kustomization["resources"]


# --- compose ------------------------------------------------------------------------------------

REFERENCE = re.compile(r"\$\{(\w+)(:?[?-])?[^}]*\}")


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def depends(service: dict[str, Any]) -> dict[str, str]:
    return {name: cond["condition"] for name, cond in service.get("depends_on", {}).items()}


def major_version(image: str) -> int:
    found = re.search(r":(\d+)", image)
    assert found, f"{image}: pin a major version"
    return int(found.group(1))


def test_compose_topology() -> None:
    services = compose()["services"]
    assert set(services) == {
        "postgres",
        "redis",
        "s3",
        "bucket",
        "migrate",
        "api-1",
        "api-2",
        "worker-1",
        "worker-2",
        "scheduler",
    }
    postgres_major = major_version(services["postgres"]["image"])
    redis_major = major_version(services["redis"]["image"])
    assert postgres_major >= 14
    assert redis_major >= 7
    command = services["redis"]["command"]
    assert command[command.index("--appendonly") + 1] == "yes"

    roles = {
        name: services[name]["command"][0] for name in services if name[:-2] in ("api", "worker")
    }
    roles["scheduler"] = services["scheduler"]["command"][0]
    roles["migrate"] = services["migrate"]["command"][0]
    assert roles == {
        "api-1": "serve",
        "api-2": "serve",
        "worker-1": "worker",
        "worker-2": "worker",
        "scheduler": "scheduler",
        "migrate": "migrate",
    }
    assert depends(services["migrate"]) == {"postgres": "service_healthy"}
    for name in ("api-1", "api-2", "worker-1", "worker-2", "scheduler"):
        assert depends(services[name])["migrate"] == "service_completed_successfully"
        assert depends(services[name])["bucket"] == "service_completed_successfully"
        assert depends(services[name])["redis"] == "service_healthy"
        assert services[name]["image"] == services["migrate"]["image"]
    for name in ("postgres", "redis", "s3", "api-1", "api-2"):
        assert services[name]["healthcheck"]["test"], name
    for name in ("api-1", "api-2"):
        (published,) = services[name]["ports"]
        assert published.startswith("127.0.0.1:"), "published on loopback; the proxy faces out"
        assert "/healthz" in (ROOT / "deploy" / "docker" / "healthcheck.py").read_text()


def test_compose_has_no_inline_secret_and_the_env_example_names_every_required_one() -> None:
    text = COMPOSE.read_text()
    secretish = re.compile(r"PASSWORD|SECRET|TOKEN|ACCESS_KEY|_KEY\b|ROOT_USER")
    for service in compose()["services"].values():
        for key, value in (service.get("environment") or {}).items():
            if secretish.search(key):
                assert REFERENCE.fullmatch(str(value)), f"{key} must come from .env, not the file"
    required = {m.group(1) for m in REFERENCE.finditer(text) if m.group(2) == ":?"}
    example = {
        line.split("=", 1)[0]
        for line in ENV_EXAMPLE.read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert required <= example, required - example
    assert "ASTRO_SECRET_KEY" in required


def test_docker_compose_config_accepts_the_file(tmp_path: Path) -> None:
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.skip("docker-compose is not installed (compose.yaml was YAML-checked above)")
    values = {
        m.group(1): "x" + str(i)
        for i, m in enumerate(REFERENCE.finditer(COMPOSE.read_text()))
        if m.group(2) == ":?"
    }
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    # Compose prefers the process environment to the env file: pass none of ours.
    clean_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    out = subprocess.run(
        [
            tool,
            "--project-directory",
            str(ROOT),
            "--env-file",
            str(env_file),
            "-f",
            str(COMPOSE),
            "config",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=clean_env,
    )
    assert out.returncode == 0, out.stderr
    rendered = yaml.safe_load(out.stdout)
    assert (
        rendered["services"]["api-1"]["environment"]["ASTRO_SECRET_KEY"]
        == values["ASTRO_SECRET_KEY"]
    )
    # A missing secret stops compose with the variable's name, before anything starts.
    env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items() if k != "ASTRO_SECRET_KEY"))
    out = subprocess.run(
        [
            tool,
            "--project-directory",
            str(ROOT),
            "--env-file",
            str(env_file),
            "-f",
            str(COMPOSE),
            "config",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=clean_env,
    )
    assert out.returncode != 0
    assert "ASTRO_SECRET_KEY" in out.stderr


# --- Prometheus, proxies, the image -------------------------------------------------------------


def exported_metrics() -> set[str]:
    """Every metric name the server defines (``"astro_..."`` literals in its source)."""
    names: set[str] = set()
    for path in SERVER_SRC.rglob("*.py"):
        names.update(re.findall(r'"(astro_[a-z_]+)"', path.read_text()))
    return names


def test_alert_rules_name_only_exported_metrics() -> None:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    rules = [rule for group in groups for rule in group["rules"]]
    assert len(rules) >= 6
    known = exported_metrics()
    assert "astro_http_requests_total" in known  # the scan finds the server's metrics
    for rule in rules:
        assert rule["alert"]
        assert rule["expr"]
        assert rule["labels"]["severity"] in {"page", "ticket"}
        for name in re.findall(r"\b(astro_[a-z_]+)", rule["expr"]):
            base = re.sub(r"_(bucket|count|sum)$", "", name)
            assert name in known or base in known, f"{rule['alert']}: no metric {name}"
    wanted = " ".join(rule["expr"] for rule in rules)
    for signal in (
        'status=~"5.."',
        "histogram_quantile(0.99",
        'status="queued"',
        'status="failed"',
    ):
        assert signal in wanted


def test_promtool_accepts_the_rules() -> None:
    tool = shutil.which("promtool")
    if tool is None:
        pytest.skip("promtool is not installed (apt-get install prometheus); YAML-checked above")
    out = subprocess.run(
        [tool, "check", "rules", str(ALERTS)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_proxy_examples_forward_client_scheme_and_host() -> None:
    nginx = NGINX.read_text()
    for header, value in (
        ("X-Forwarded-For", "$remote_addr"),
        ("X-Forwarded-Proto", "$scheme"),
        ("X-Forwarded-Host", "$host"),
    ):
        assert f"proxy_set_header {header} {value};" in nginx
    assert "listen 443 ssl" in nginx
    caddy = CADDY.read_text()
    assert "reverse_proxy 127.0.0.1:8001 127.0.0.1:8002" in caddy
    assert "health_uri /healthz" in caddy


def test_nginx_accepts_the_example(tmp_path: Path) -> None:
    tool = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if tool is None:
        pytest.skip("nginx is not installed")
    import trustme

    cert = trustme.CA().issue_cert("astro.example")
    cert.cert_chain_pems[0].write_to_path(str(tmp_path / "fullchain.pem"))
    cert.private_key_pem.write_to_path(str(tmp_path / "privkey.pem"))
    site = NGINX.read_text().replace("/etc/ssl/astro/", f"{tmp_path}/")
    (tmp_path / "astro.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}/body; "
        f"include {tmp_path}/astro.conf; }}\n"
    )
    out = subprocess.run(
        [tool, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr


def test_caddy_accepts_the_example() -> None:
    tool = shutil.which("caddy")
    if tool is None:
        pytest.skip("caddy is not installed")
    out = subprocess.run(
        [tool, "validate", "--adapter", "caddyfile", "--config", str(CADDY)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert '"level":"warn"' not in out.stderr, out.stderr


def test_dockerfile_shape() -> None:
    text = DOCKERFILE.read_text()
    assert re.search(r"^ARG BASE_IMAGE=python:3\.11-slim-bookworm$", text, re.M)
    assert len(re.findall(r"^FROM \$\{BASE_IMAGE\}", text, re.M)) == 2  # multi-stage, one base
    assert "uv sync --frozen --no-dev" in text
    assert re.search(r"^USER astro$", text, re.M)
    assert image_uid() != 0
    assert "HEALTHCHECK" in text
    assert re.search(r'^ENTRYPOINT \[.*"astro-server"\]$', text, re.M)
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert "**/.venv" in ignored
    assert ".git" in ignored


def load_healthcheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "astro_healthcheck", ROOT / "deploy" / "docker" / "healthcheck.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def healthz_server() -> Iterator[tuple[int, list[int]]]:
    """A loopback server whose /healthz answers the status at the head of the list."""
    answers = [200]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(answers[0] if self.path == "/healthz" else 404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], answers
    server.shutdown()
    server.server_close()


def test_image_healthcheck_probes_healthz_for_serve_only(
    healthz_server: tuple[int, list[int]],
) -> None:
    check = load_healthcheck()
    port, answers = healthz_server
    serve = ["/usr/bin/tini", "--", "astro-server", "serve", "--port", str(port)]
    assert check.main(serve, {}) == 0
    assert check.main(["astro-server", "serve", f"--port={port}"], {}) == 0
    assert check.main(["astro-server", "serve"], {"ASTRO_PORT": str(port)}) == 0
    answers[0] = 503
    assert check.main(serve, {}) == 1
    for other in ("worker", "scheduler", "migrate"):
        assert check.main(["/usr/bin/tini", "--", "astro-server", other], {}) == 0
    assert check.healthz_url(["astro-server", "serve"], {}) == "http://127.0.0.1:8000/healthz"
