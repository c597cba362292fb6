"""MCP tools derived from the OpenAPI document: one source, no hand-written tool.

Every operation that takes an API key (security ``ApiKeyHeader``) becomes a tool unless
:data:`EXCLUDED` names it with a reason. The tool's

* name is the operation id in snake case (``westernNatal`` -> ``western_natal``);
* input schema is one object: the path and query parameters as properties, then the JSON body's
  properties (the body schema with ``#/components/schemas/X`` rewritten to ``#/$defs/X`` and the
  components it reaches attached as ``$defs``);
* description is the operation's summary and description, its price and tier from the price
  table (``costs 2 credits; pro tier``) and an example input built from the schema;
* output schema is the JSON schema of the operation's success answer (200/201/202; two of them
  become ``anyOf``), with its components attached as ``$defs``: the tool's
  ``structuredContent`` is that answer as REST sends it. A picture tool's output schema is
  :data:`IMAGE_OUTPUT_SCHEMA` (the PNG travels as image content), an answer without a JSON body
  :data:`NO_CONTENT_OUTPUT_SCHEMA`.

Operations taking a session token (``SessionBearer``) or no credential at all (login, file
downloads, upload PUTs) are outside the API-key surface and never tools.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

#: Operations of the API-key surface that are deliberately not tools, with the reason.
EXCLUDED: Final[dict[str, str]] = {
    "listApiKeys": "key management stays with a person in the portal or REST",
    "createApiKey": "key management: an agent must not mint credentials",
    "revokeApiKey": "key management and a delete",
    "rotateApiKey": "key management: an agent must not mint credentials",
    "inviteTeamMember": "account administration: a person invites members",
    "changeTeamMemberRole": "account administration: a person changes roles",
    "deleteCampaign": "a delete: irreversible, left to a person",
    "deleteProfile": "a delete: irreversible, left to a person",
    "removeTeamMember": "a delete: irreversible, left to a person",
    "deleteVisualReadingImages": "a delete: irreversible, left to a person",
    "deleteWebhookEndpoint": "a delete: irreversible, left to a person",
    "deleteCalendarFeed": "a delete: revoking a subscribed calendar is left to a person",
    "createVisualUploadGrant": "needs an image PUT to /uploads, which an MCP client cannot send",
    "completeVisualUpload": "follows an image PUT to /uploads, which an MCP client cannot send",
    "rotateWebhookEndpointSecret": "secret management: the new secret must reach a person",
}

#: The operation whose tool follows a job handle (answers of long-running operations).
JOB_OPERATION: Final = "getJob"
API_KEY_SCHEMES: Final = frozenset({"ApiKeyHeader", "ApiKeyBearer"})
_EXAMPLE_VALUES: Final[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("example_values.json")).read_text(encoding="utf-8")
)
#: The structured content of a picture tool: the PNG itself is the call's image content.
IMAGE_OUTPUT_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "media_type": {"const": "image/png"},
        "bytes": {"type": "integer", "minimum": 1, "description": "Size of the PNG"},
        "x_credits_charged": {"type": "integer"},
        "x_credits_remaining": {"type": "integer"},
        "x_credits_price": {"type": "integer"},
    },
    "required": ["media_type", "bytes"],
}
#: The structured content of a success without a JSON body (none of today's tools answers one).
NO_CONTENT_OUTPUT_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"status": {"type": "integer", "description": "The HTTP status"}},
    "required": ["status"],
}
_SUCCESS: Final = ("200", "201", "202")
_REF: Final = re.compile(r"^#/components/schemas/(.+)$")
#: Our ids' pattern (``^job_[a-f0-9]{24}$``): an example id is the prefix and 24 hex digits.
_ID_PATTERN: Final = re.compile(r"^\^([a-z]+_)\[a-f0-9\]\{24\}\$$")


@dataclass(frozen=True)
class Price:
    """A billable operation's row in the price table, as the description shows it."""

    operation: str
    credits: int
    tier: str
    per_unit: str | None = None


@dataclass
class ToolSpec:
    """One tool and how to call its REST twin."""

    name: str
    operation_id: str
    tag: str
    method: str
    path: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] = field(default_factory=lambda: dict(NO_CONTENT_OUTPUT_SCHEMA))
    path_params: list[str] = field(default_factory=list)
    query_params: list[str] = field(default_factory=list)
    has_body: bool = False
    image: bool = False
    example: dict[str, Any] = field(default_factory=dict)


def snake(operation_id: str) -> str:
    """``westernNatalWheel`` -> ``western_natal_wheel``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


def is_api_key_operation(operation: dict[str, Any]) -> bool:
    return any(set(req) & API_KEY_SCHEMES for req in operation.get("security") or ())


def api_key_operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """``(method, path, operation)`` of every API-key operation, in document order."""
    found = []
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if isinstance(operation, dict) and is_api_key_operation(operation):
                found.append((method.upper(), path, operation))
    return found


def _rewrite_refs(node: Any, reached: set[str]) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and (match := _REF.match(value)):
                reached.add(match.group(1))
                out[key] = f"#/$defs/{match.group(1)}"
            else:
                out[key] = _rewrite_refs(value, reached)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item, reached) for item in node]
    return node


#: Keys whose value maps names (fields, definitions) to schemas, rather than being a schema.
_NAME_MAPS: Final = frozenset({"properties", "$defs", "patternProperties", "definitions"})


def drop_titles(node: Any, names: bool = False) -> Any:
    """The schema without its ``title`` keywords: pydantic derives each from the field's name
    (``job_id`` -> ``Job Id``), so they tell an agent nothing and were a sixth of tools/list.
    A field *named* ``title`` stays (``names``: ``node`` maps names to schemas)."""
    if isinstance(node, dict):
        return {
            key: drop_titles(value, not names and key in _NAME_MAPS)
            for key, value in node.items()
            if names or key != "title" or not isinstance(value, str)
        }
    if isinstance(node, list):
        return [drop_titles(item) for item in node]
    return node


def _attach_defs(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    reached: set[str] = set()
    schema = _rewrite_refs(schema, reached)
    defs: dict[str, Any] = {}
    pending = sorted(reached)
    while pending:
        name = pending.pop()
        if name in defs or name not in components:
            continue
        more: set[str] = set()
        defs[name] = _rewrite_refs(components[name], more)
        pending.extend(sorted(more - set(defs)))
    if defs:
        schema["$defs"] = defs
    return schema


def output_schema(
    operation: dict[str, Any], components: dict[str, Any], image: bool
) -> dict[str, Any]:
    """The tool's output schema (module docstring): the JSON success answers' schemas."""
    if image:
        return copy.deepcopy(IMAGE_OUTPUT_SCHEMA)
    answers = []
    for status in _SUCCESS:
        content = (operation.get("responses", {}).get(status) or {}).get("content") or {}
        schema = (content.get("application/json") or {}).get("schema")
        if schema is not None:
            answers.append(_resolve_component(schema, components))
    if not answers:
        return copy.deepcopy(NO_CONTENT_OUTPUT_SCHEMA)
    for answer in answers:
        # MCP wants an object at the root; every answer of the API is one (a JSON object body).
        if answer.get("type") != "object":
            raise ValueError(f"{operation.get('operationId')}: a success answer is not an object")
    root: dict[str, Any] = (
        copy.deepcopy(answers[0])
        if len(answers) == 1
        else {"type": "object", "anyOf": copy.deepcopy(answers)}
    )
    shaped: dict[str, Any] = drop_titles(_attach_defs(root, components))
    return shaped


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _resolve(defs.get(ref.removeprefix("#/$defs/"), {}), defs)
    return schema


def example_value(name: str, schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    """A value for one property: the example table's by name, else the schema's default, first
    enum member or first alternative; objects get their required properties (and those
    required unless another is given, see :func:`example_object`)."""
    schema = _resolve(schema, defs)
    if (match := _ID_PATTERN.match(str(schema.get("pattern", "")))) is not None:
        return match.group(1) + "0123456789abcdef01234567"
    if name in _EXAMPLE_VALUES:
        value = _EXAMPLE_VALUES[name]
        if schema.get("format") == "date-time" and isinstance(value, str) and "T" not in value:
            return value + "T00:00:00Z"  # a date by name where the field is an instant
        return value
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("oneOf", "anyOf"):
        options = [o for o in schema.get(key, []) if o.get("type") != "null"]
        if options:
            return example_value(name, options[0], defs, depth)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return example_object(schema, defs, depth + 1)
    if kind == "array":
        item = example_value(name, schema.get("items", {}), defs, depth + 1)
        return [item] * max(1, int(schema.get("minItems", 1)))
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 0))
    if kind == "boolean":
        return False
    if schema.get("format") == "date":
        return "2026-01-01"
    if schema.get("format") == "date-time":
        return "2026-01-01T09:00:00+07:00"
    return "example"


def example_object(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    schema = _resolve(schema, defs)
    if depth > 6:
        return {}
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    # Also a property without a default that the example table knows: one required unless
    # another is given (a subject's latitude and longitude, unless its place).
    wanted = [
        name
        for name, definition in properties.items()
        if name in required or ("default" not in definition and name in _EXAMPLE_VALUES)
    ]
    return {name: example_value(name, properties[name], defs, depth) for name in wanted}


def price_text(price: Price | None) -> str:
    if price is None:
        return "Free: no credits (not a billable operation)."
    unit = f" per item of {price.per_unit}" if price.per_unit else ""
    plural = "credit" if price.credits == 1 else "credits"
    return (
        f"Costs {price.credits} {plural}{unit}; {price.tier} tier "
        f"(price-table row {price.operation}; a test key (ak_test_) is never charged)."
    )


def build_tool(
    method: str,
    path: str,
    operation: dict[str, Any],
    components: dict[str, Any],
    price: Price | None,
    image_operations: frozenset[str],
) -> ToolSpec:
    """The tool of one operation (module docstring)."""
    operation_id = str(operation["operationId"])
    properties: dict[str, Any] = {}
    required: list[str] = []
    path_params: list[str] = []
    query_params: list[str] = []
    for parameter in operation.get("parameters", ()):
        name = parameter["name"]
        prop = copy.deepcopy(parameter.get("schema", {}))
        if parameter.get("description"):
            prop.setdefault("description", parameter["description"])
        properties[name] = prop
        if parameter.get("in") == "path":
            path_params.append(name)
            required.append(name)
        elif parameter.get("in") == "query":
            query_params.append(name)
            if parameter.get("required"):
                required.append(name)
    schema: dict[str, Any] = {"type": "object"}
    body = (
        operation.get("requestBody", {})
        .get("content", {})
        .get("application/json", {})
        .get("schema")
    )
    if body is not None:
        body_schema = _resolve_component(body, components)
        schema = _attach_defs(copy.deepcopy(body_schema), components)
        schema["type"] = "object"
        for name in schema.get("properties", {}):
            if name in properties:
                raise ValueError(f"{operation_id}: body field {name!r} clashes with a parameter")
    schema["properties"] = {**properties, **schema.get("properties", {})}
    schema["required"] = [*required, *schema.get("required", [])]
    if not schema["required"]:
        del schema["required"]
    schema = drop_titles(schema)
    defs = schema.get("$defs", {})
    example = {
        **example_object(schema, defs),
        **_EXAMPLE_VALUES["_operation_extras"].get(operation_id, {}),
    }
    image = operation_id in image_operations
    lines = [operation.get("summary", operation_id) + ".", "", operation.get("description", "")]
    lines += ["", price_text(price)]
    if image:
        lines.append(
            "Returns the picture as an image (PNG) and its SVG as text; send format 'png' for the "
            "PNG alone."
        )
    if operation.get("responses", {}).get("202") is not None:
        lines.append(f"Long-running: answers a job handle; follow it with {snake(JOB_OPERATION)}.")
    lines += ["", "Example input: " + json.dumps(example, ensure_ascii=False)]
    return ToolSpec(
        name=snake(operation_id),
        operation_id=operation_id,
        tag=(operation.get("tags") or ["Other"])[0],
        method=method,
        path=path,
        description="\n".join(lines).strip(),
        input_schema=schema,
        output_schema=output_schema(operation, components, image),
        path_params=path_params,
        query_params=query_params,
        has_body=body is not None,
        image=image,
        example=example,
    )


def _resolve_component(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and (match := _REF.match(ref)):
        return dict(components.get(match.group(1), {}))
    return schema


def build_tools(
    document: dict[str, Any],
    prices: dict[str, Price],
    image_operations: frozenset[str] = frozenset(),
) -> list[ToolSpec]:
    """Every tool of the document: its API-key operations minus :data:`EXCLUDED`.

    ``prices`` maps an operation id to its price-table row (absent: not billable)."""
    components = document.get("components", {}).get("schemas", {})
    return [
        build_tool(method, path, operation, components, prices.get(operation["operationId"]),
                   image_operations)
        for method, path, operation in api_key_operations(document)
        if operation.get("operationId") not in EXCLUDED
    ]  # fmt: skip


def search_operations(
    document: dict[str, Any], query: str, limit: int = 10
) -> list[dict[str, Any]]:
    """Operations whose id, path, summary, description or tag contain every word of ``query``
    (case-insensitive), most words in the summary first: the keyless docs tool."""
    words = [w for w in query.lower().split() if w]
    hits: list[tuple[int, dict[str, Any]]] = []
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            text = " ".join(
                [str(operation.get("operationId", "")), path, str(operation.get("summary", "")),
                 str(operation.get("description", "")), " ".join(operation.get("tags", []))]
            ).lower()  # fmt: skip
            if all(w in text for w in words):
                score = sum(w in str(operation.get("summary", "")).lower() for w in words)
                hits.append(
                    (
                        -score,
                        {
                            "operation_id": operation.get("operationId"),
                            "tool": snake(str(operation.get("operationId", "")))
                            if is_api_key_operation(operation)
                            and operation.get("operationId") not in EXCLUDED
                            else None,
                            "method": method.upper(),
                            "path": path,
                            "summary": operation.get("summary", ""),
                            "tag": (operation.get("tags") or [""])[0],
                        },
                    )
                )
    hits.sort(key=lambda pair: pair[0])
    return [hit for _score, hit in hits[:limit]]
