"""Packaging check for astro-sdk, run by hand or in CI (not collected by pytest: it builds,
creates a virtual environment and installs from the package registry):

    uv run python packages/astro_sdk/tests/check_packaging.py [--venv /tmp/sdkcheck]

1. ``uv build --package astro-sdk`` gives a wheel and an sdist; the wheel holds ``py.typed`` and
   no tests.
2. The wheel installs into a fresh virtual environment outside the workspace.
3. ``import astro_sdk`` works there, from the installed wheel.
4. astro-sdk requires httpx and pydantic (and, only before Python 3.13, typing-extensions, which
   pydantic requires anyway); everything installed is one of those or their own dependencies (no
   pyswisseph, Quart, database driver or other workspace package).
5. The README's examples pass ``mypy --strict`` in that environment.

Exits non-zero with the reason on the first failure.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKSPACE = HERE.parents[2]
sys.path.insert(0, str(HERE))

from test_sdk_readme import write_examples  # noqa: E402

# The closure is computed from installed metadata; these must never be in it.
FORBIDDEN = {"astro-calc", "astro-server", "pyswisseph", "quart", "tortoise-orm", "asyncpg",
             "msgspec", "redis", "taskiq", "hypercorn"}  # fmt: skip
ALWAYS_PRESENT = {"pip", "setuptools", "wheel"}

CLOSURE_SCRIPT = r"""
import json, re
from importlib import metadata
from pip._vendor.packaging.requirements import Requirement

def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()

installed = {norm(d.metadata["Name"]): d for d in metadata.distributions()}
seen, pending = set(), ["astro-sdk"]
while pending:
    name = pending.pop()
    if name in seen or name not in installed:
        continue
    seen.add(name)
    for raw in installed[name].requires or []:
        req = Requirement(raw)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            pending.append(norm(req.name))
direct = [norm(Requirement(r).name) for r in installed["astro-sdk"].requires or []
          if Requirement(r).marker is None]
print(json.dumps({"installed": sorted(installed), "closure": sorted(seen), "direct": direct}))
"""


def run(*cmd: str | Path, cwd: Path | None = None) -> str:
    result = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(map(str, cmd))}\n{result.stdout}\n{result.stderr}")
    return result.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=Path("/tmp/sdkcheck"))
    args = parser.parse_args()
    venv: Path = args.venv
    work = Path(tempfile.mkdtemp(prefix="sdk-packaging-"))
    dist = work / "dist"

    run("uv", "build", "--package", "astro-sdk", "--out-dir", dist, cwd=WORKSPACE)
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        sys.exit(f"FAILED: expected one wheel and one sdist, found {sorted(dist.iterdir())}")
    names = zipfile.ZipFile(wheels[0]).namelist()
    if "astro_sdk/py.typed" not in names:
        sys.exit("FAILED: the wheel lacks astro_sdk/py.typed")
    if any("/tests/" in n or n.startswith("tests/") for n in names):
        sys.exit("FAILED: the wheel contains tests")
    print(f"built {wheels[0].name} ({len(names)} files) and {sdists[0].name}")

    if venv.exists():
        shutil.rmtree(venv)
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheels[0])

    location = run(python, "-c", "import astro_sdk; print(astro_sdk.__file__)", cwd=work).strip()
    if not location.startswith(str(venv)):
        sys.exit(f"FAILED: astro_sdk imported from {location}, not from {venv}")
    print(f"import astro_sdk -> {location}")

    report = json.loads(run(python, "-c", CLOSURE_SCRIPT, cwd=work))
    installed = set(report["installed"]) - ALWAYS_PRESENT
    closure = set(report["closure"])
    if sorted(report["direct"]) != ["httpx", "pydantic"]:
        sys.exit(f"FAILED: astro-sdk requires {report['direct']}, expected httpx and pydantic")
    if installed - closure:
        sys.exit(f"FAILED: installed beyond the SDK's dependencies: {sorted(installed - closure)}")
    if installed & FORBIDDEN:
        sys.exit(f"FAILED: forbidden packages installed: {sorted(installed & FORBIDDEN)}")
    print(f"installed (all from httpx + pydantic): {sorted(installed)}")

    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "mypy")
    examples = write_examples(work)
    config = work / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n")
    run(python, "-m", "mypy", "--config-file", config, *examples, cwd=work)
    print(f"mypy --strict passed on {len(examples)} README examples against the installed wheel")
    print("packaging check: OK")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
