"""Run the OpenAPI document's request examples against an app (shared by
tests/test_docs_examples.py and scripts/openapi_examples.py, which stores the answers as the
document's response examples).

Each operation with a request example is sent as its example, with the credential it takes (an
enterprise account's API key, or a customer's session), creations before the changes that need
their ids: a path parameter gets the first id of its pattern that an earlier answer held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from quart import Quart

from astro_server.platform.auth import accounts
from astro_server.platform.docs_examples import REQUEST_EXAMPLES

#: Examples that need what a request example cannot make in-process (a photo uploaded to the
#: grant's signed URL): their documented refusal is checked instead.
NEEDS_OUTSIDE_STATE: dict[str, int] = {
    "createVisualReading": 404,
    "createCustomerVisualReading": 404,
}


@dataclass
class Answer:
    operation_id: str
    method: str
    path: str
    status: int
    content_type: str
    body: Any


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(path, method, operation) for every operation with a request body; creations first."""
    return [(p, m, o) for p, m, o in _ordered(document) if "requestBody" in o]


#: Operations this harness does not call: signed file URLs (made by other answers, not by an
#: API credential) and the session's own end.
NOT_RUN: frozenset[str] = frozenset({"getFile", "putVisualUpload", "logout"})


#: Ids the document gives no pattern for.
_PATTERNS: dict[str, str] = {
    "upload_id": r"^upl_[a-f0-9]{24}$",
    "reading_id": r"^vr_[a-f0-9]{24}$",
    "subscription_id": r"^whe_[a-f0-9]{24}$",
    "card_id": r"^the_fool$",
}


def _ordered(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every operation: bodies that create, bodies that change, reads and bodiless actions,
    then deletions (so each finds the ids the ones before it made)."""
    found = [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]

    def phase(entry: tuple[str, str, dict[str, Any]]) -> int:
        path, method, operation = entry
        if operation["operationId"] == "acceptInvitation":
            return 1  # after the invitation, before the member's changes
        if operation["operationId"] == "updateMyPreferences":
            return 0  # the owner's own id, answered before the invited member's
        if method == "delete":
            return 6 if operation["operationId"] == "revokeApiKey" else 5
        if "requestBody" in operation:
            return 0 if "{" not in path and method == "post" else 2
        return 3 if method == "get" else 4

    return sorted(found, key=phase)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


async def run_examples(
    app: Quart, document: dict[str, Any], *, everything: bool = False
) -> list[Answer]:
    """Send every request example (``everything``: every other operation too, as far as the
    ids earlier answers made allow) and return the answers."""
    login = REQUEST_EXAMPLES["login"]
    account, api_key = await accounts.create_account("Siam Stars", "enterprise", 1_000_000)
    await accounts.create_customer(account.id, login["email"], login["password"])
    client = app.test_client()
    response = await client.post("/auth/login", json=login)
    assert response.status_code == 200, await response.get_data(as_text=True)
    session = (await response.get_json())["token"]
    seen: list[str] = []
    created: dict[str, list[str]] = {}
    answers: list[Answer] = []
    for path, method, operation in _ordered(document):
        operation_id = operation["operationId"]
        if operation_id in NOT_RUN or ("requestBody" not in operation and not everything):
            continue
        example = None
        if "requestBody" in operation:
            example = operation["requestBody"]["content"]["application/json"].get("example")
            assert example is not None, f"{operation_id} has no request example"
        if operation_id == "acceptInvitation":
            # The invitation's token is e-mailed to the invitee; here it comes from the answer.
            invited = next(a for a in answers if a.operation_id == "inviteTeamMember")
            example = {**example, "token": invited.body["token"]}
        url = path
        query: dict[str, Any] = {}
        missing = False
        for parameter in operation.get("parameters", ()):
            if parameter["in"] == "query" and parameter.get("required"):
                query[parameter["name"]] = parameter.get("example", "")
            if parameter["in"] != "path":
                continue
            pattern = re.compile(
                parameter["schema"].get("pattern") or _PATTERNS.get(parameter["name"], "^$")
            )
            # The id the collection's creation answered (an invited member, not the account's
            # owner), else the latest of its kind.
            collection = path.split("/{" + parameter["name"] + "}")[0]
            candidates = [*created.get(collection, ()), *reversed(seen)]
            value = next((s for s in candidates if pattern.match(s)), None)
            if value is None:
                missing = True
                break
            url = url.replace("{" + parameter["name"] + "}", value)
        if missing:
            assert everything, f"{operation_id}: no earlier answer has its path's id"
            continue
        schemes = {name for requirement in operation.get("security", ()) for name in requirement}
        headers: dict[str, str] = {}
        if "ApiKeyHeader" in schemes:
            headers["X-API-Key"] = api_key
        elif "SessionBearer" in schemes:
            headers["Authorization"] = f"Bearer {session}"
        response = await client.open(
            url, method=method.upper(), json=example, headers=headers, query_string=query
        )
        content_type = response.headers.get("Content-Type", "").split(";")[0]
        body: Any = (
            await response.get_json()
            if content_type == "application/json"
            else await response.get_data()
        )
        answers.append(Answer(operation_id, method, path, response.status_code, content_type, body))
        if everything and isinstance(example, dict) and example.get("async") is False:
            # The same request as a job (its 202 answer), when the operation offers both.
            queued = await client.open(
                url, method=method.upper(), json={**example, "async": True}, headers=headers
            )
            answers.append(
                Answer(operation_id, method, path, queued.status_code,
                       queued.headers.get("Content-Type", "").split(";")[0],
                       await queued.get_json())
            )  # fmt: skip
        if response.status_code < 300:
            seen.extend(_strings(body))
            if method == "post" and "{" not in path:
                created[path] = _strings(body)
    return answers
