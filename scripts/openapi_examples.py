"""Write the OpenAPI document's response examples: the answers the server itself gives to the
request examples of ``astro_server.platform.docs_examples``.

The app runs in this process on a throwaway SQLite database (nothing leaves the machine: the
examples' webhook host is answered as 127.0.0.1 and never contacted); every request example is
sent, then every other operation as far as the ids those answers made allow
(``packages/astro_server/tests/_docs_examples_support.py``). Each 2xx JSON answer is stored,
its lists cut to three entries, by operation id and status, in
``packages/astro_server/src/astro_server/data/openapi_response_examples.json``:

    uv run python scripts/openapi_examples.py

``tests/test_docs_examples.py`` checks every stored example against its response schema.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import jsonschema

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "packages/astro_server/tests"
OUTPUT = ROOT / "packages/astro_server/src/astro_server/data/openapi_response_examples.json"


async def _answers() -> dict[str, dict[str, Any]]:
    sys.path.insert(0, str(TESTS))
    from _docs_examples_support import run_examples
    from _platform_support import running_app, settings_for

    from astro_server.platform import docs_examples
    from astro_server.platform.delivery import ssrf

    async def loopback_resolver(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]

    ssrf.system_resolver = loopback_resolver  # type: ignore[assignment]
    docs_examples.response_examples.cache_clear()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        settings = settings_for(
            f"sqlite://{directory / 'astro.sqlite3'}", directory, allow_loopback_destinations=True
        )
        async with running_app(settings) as app:
            document = await (await app.test_client().get("/openapi.json")).get_json()
            answers = await run_examples(app, document, everything=True)
    stored: dict[str, dict[str, Any]] = {}
    for answer in answers:
        if 200 <= answer.status < 300 and answer.content_type == "application/json":
            schema = document["paths"][answer.path][answer.method]["responses"][str(answer.status)][
                "content"
            ]["application/json"]["schema"]
            validator = jsonschema.Draft202012Validator(
                {**schema, "components": document["components"]}
            )
            example = docs_examples.shortened(answer.body)
            if not validator.is_valid(example):
                example = answer.body  # a fixed-length list: keep the whole answer
            stored.setdefault(answer.operation_id, {})[str(answer.status)] = example
    return dict(sorted(stored.items()))


#: Credentials the throwaway database handed out: stored with a fixed, obviously fake body (same
#: prefix and length), so no example looks like a live secret to a reader or a secret scanner.
_SECRETS = re.compile(r"\b(ak_live_|ak_test_|whsec_|service_sess_|inv_tok_)[A-Za-z0-9_\-+/=]{8,}")


def _masked(text: str) -> str:
    def fake(match: re.Match[str]) -> str:
        prefix = match.group(1)
        return prefix + ("EXAMPLEnotARealSecret" * 4)[: len(match.group(0)) - len(prefix)]

    return _SECRETS.sub(fake, text)


def main() -> int:
    stored = asyncio.run(_answers())
    text = json.dumps(stored, indent=1, ensure_ascii=False) + "\n"
    OUTPUT.write_text(_masked(text), encoding="utf-8")
    print(f"wrote {len(stored)} operations' answers to {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
