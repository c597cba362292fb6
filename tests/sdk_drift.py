"""Compare the server's OpenAPI document with the SDK's operation registry.

Used by ``test_sdk_openapi_drift.py``. Every difference comes back as one sentence saying what
to change and where, e.g.::

    createHoroscopeFeedSubscription (POST /v1/horoscope-feed-subscriptions, tag Customer
    delivery) has no SDK operation: add an Operation with operation_id=
    "createHoroscopeFeedSubscription" to astro_sdk/resources/horoscope_feeds.py ...

Rules: operations, methods, paths, credential kinds, billable flags (a route documenting 402 is
billable and must get an Idempotency-Key), success statuses, and for every request body, query
parameter and response body: each field's presence, required flag, type, nullability, format and
enum; for requests also the validation bounds (so the SDK refuses exactly what the server
refuses, before sending). Two deliberate leniencies on responses only: the SDK may read a
documented enum as a plain string (a status added later must not break old clients), and may
parse a plain string as ``date-time``/``date`` (DESIGN.md: times are ISO 8601).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from astro_sdk import Credential, Operation

# Where a tag group's SDK operations usually live (the failure message suggests the module; a
# group may be split, e.g. korean beside chinese, numerology beside tarot, estimates beside jobs).
MODULE_BY_TAG = {
    "Western": "western",
    "Vedic": "vedic",
    "Thai Astrology": "thai",
    "Chinese & Korean": "chinese",
    "Horoscopes": "horoscopes",
    "Reports": "reports",
    "Tarot & Numerology": "tarot",
    "Uranian": "uranian",
    "Human Design": "human_design",
    "Developer workflow": "jobs",
    "Visual readings": "visual_readings",
    "Customer reports": "customer_reports",
    "Customer delivery": "horoscope_feeds",
    "Customer visual readings": "customer_visual_readings",
    "Cultural Intelligence": "cultural",
    "Authentication": "auth",
}
_BOUNDS = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "multipleOf",
)
_METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Side:
    """A JSON schema together with the document its ``$ref``s point into."""

    schema: Mapping[str, Any]
    root: Mapping[str, Any]

    def resolve(self) -> Side:
        schema = self.schema
        seen = 0
        while "$ref" in schema:
            ref = str(schema["$ref"])
            node: Any = self.root
            for part in ref.lstrip("#/").split("/"):
                node = node[part]
            schema = node
            seen += 1
            if seen > 50:
                raise ValueError(f"$ref loop at {ref}")
        if "allOf" in schema and len(schema["allOf"]) == 1:
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            inner = Side(schema["allOf"][0], self.root).resolve().schema
            schema = {**inner, **rest}
        return Side(schema, self.root)

    def variants(self) -> tuple[bool, list[Side]]:
        """(nullable, the non-null alternatives) with anyOf/oneOf and type lists flattened."""
        resolved = self.resolve()
        schema = resolved.schema
        alternatives = schema.get("anyOf") or schema.get("oneOf")
        if alternatives:
            nullable = False
            found: list[Side] = []
            for alt in alternatives:
                inner_nullable, inner = Side(alt, self.root).variants()
                nullable = nullable or inner_nullable
                found.extend(inner)
            return nullable, found
        kind = schema.get("type")
        if isinstance(kind, list):
            nullable = "null" in kind
            rest = {k: v for k, v in schema.items() if k != "type"}
            return nullable, [Side({**rest, "type": t}, self.root) for t in kind if t != "null"]
        if kind == "null":
            return True, []
        return False, [resolved]


def kind_of(side: Side) -> str:
    schema = side.schema
    if "enum" in schema or "const" in schema:
        return "enum"
    kind = schema.get("type")
    if kind is None:
        if "properties" in schema:
            return "object"
        return "any"
    if kind == "object" and not schema.get("properties"):
        return "map"
    return str(kind)


def _describe(side: Side) -> str:
    kind = kind_of(side)
    if kind == "string" and side.schema.get("format"):
        return f"string({side.schema['format']})"
    if kind == "enum":
        return f"enum{sorted(map(str, _enum_values(side)))}"
    return kind


def _enum_values(side: Side) -> list[Any]:
    if "const" in side.schema:
        return [side.schema["const"]]
    return list(side.schema["enum"])


# (server $ref, SDK $ref) pairs being compared right now: a schema that contains itself (a dasha
# period's sub-periods) is compared once, not followed forever.
_COMPARING: set[tuple[str, str]] = set()


def compare_schemas(server: Side, sdk: Side, where: str, *, request: bool) -> Iterator[str]:
    """Differences between two schemas, as sentences naming the field path ``where``."""
    refs = (str(server.schema.get("$ref", "")), str(sdk.schema.get("$ref", "")))
    if all(refs):
        if refs in _COMPARING:
            return
        _COMPARING.add(refs)
        try:
            yield from _compare_schemas(server, sdk, where, request=request)
        finally:
            _COMPARING.discard(refs)
        return
    yield from _compare_schemas(server, sdk, where, request=request)


def _compare_schemas(server: Side, sdk: Side, where: str, *, request: bool) -> Iterator[str]:
    server_nullable, server_alts = server.variants()
    sdk_nullable, sdk_alts = sdk.variants()
    if _untyped(server_alts) and _untyped(sdk_alts):
        return  # an untyped value ({}) admits null already: "any" and "any or null" agree
    if server_nullable != sdk_nullable:
        yield (
            f"{where}: the server says it {'may' if server_nullable else 'may not'} be null, "
            f"the SDK says it {'may' if sdk_nullable else 'may not'}"
        )
    if len(server_alts) != len(sdk_alts):
        yield (
            f"{where}: the server allows {[_describe(s) for s in server_alts]}, "
            f"the SDK {[_describe(s) for s in sdk_alts]}"
        )
        return
    if len(server_alts) > 1:
        # Pair alternatives by kind (order in anyOf does not matter).
        server_alts = sorted(server_alts, key=_describe)
        sdk_alts = sorted(sdk_alts, key=_describe)
    for server_alt, sdk_alt in zip(server_alts, sdk_alts, strict=True):
        yield from _compare_single(server_alt, sdk_alt, where, request=request)


def _untyped(alternatives: list[Side]) -> bool:
    return len(alternatives) == 1 and kind_of(alternatives[0]) == "any"


def _compare_single(server: Side, sdk: Side, where: str, *, request: bool) -> Iterator[str]:
    server_kind, sdk_kind = kind_of(server), kind_of(sdk)
    if server_kind == "enum" and sdk_kind == "string" and not request:
        return  # lenient: a response enum read as a plain string
    if server_kind != sdk_kind:
        yield f"{where}: the server's type is {_describe(server)}, the SDK's is {_describe(sdk)}"
        return
    if server_kind == "enum":
        if sorted(map(str, _enum_values(server))) != sorted(map(str, _enum_values(sdk))):
            yield (
                f"{where}: the server allows {sorted(map(str, _enum_values(server)))}, "
                f"the SDK {sorted(map(str, _enum_values(sdk)))}"
            )
    elif server_kind == "string":
        server_format, sdk_format = server.schema.get("format"), sdk.schema.get("format")
        lenient = not request and server_format is None and sdk_format in ("date-time", "date")
        if server_format != sdk_format and not lenient:
            yield (
                f"{where}: the server's format is {server_format!r}, the SDK's is {sdk_format!r}"
            )
    elif server_kind == "array":
        yield from compare_schemas(
            Side(server.schema.get("items", {}), server.root),
            Side(sdk.schema.get("items", {}), sdk.root),
            f"{where}[]",
            request=request,
        )
    elif server_kind == "map":
        server_values = server.schema.get("additionalProperties", True)
        sdk_values = sdk.schema.get("additionalProperties", True)
        yield from compare_schemas(
            Side(server_values if isinstance(server_values, dict) else {}, server.root),
            Side(sdk_values if isinstance(sdk_values, dict) else {}, sdk.root),
            f"{where}{{}}",
            request=request,
        )
    elif server_kind == "object":
        yield from compare_objects(server, sdk, where, request=request)
    if request:
        for bound in _BOUNDS:
            if server.schema.get(bound) != sdk.schema.get(bound):
                yield (
                    f"{where}: the server's {bound} is {server.schema.get(bound)!r}, "
                    f"the SDK's is {sdk.schema.get(bound)!r}"
                )


def compare_objects(server: Side, sdk: Side, where: str, *, request: bool) -> Iterator[str]:
    server_props: Mapping[str, Any] = server.schema.get("properties", {})
    sdk_props: Mapping[str, Any] = sdk.schema.get("properties", {})
    server_required = set(server.schema.get("required", []))
    sdk_required = set(sdk.schema.get("required", []))
    prefix = f"{where}." if where else ""
    for name in sorted(server_props.keys() - sdk_props.keys()):
        yield f"{prefix}{name}: on the server, missing from the SDK model"
    for name in sorted(sdk_props.keys() - server_props.keys()):
        yield f"{prefix}{name}: in the SDK model, not on the server"
    for name in sorted(server_props.keys() & sdk_props.keys()):
        path = f"{prefix}{name}"
        if (name in server_required) != (name in sdk_required):
            yield (
                f"{path}: the server says {'required' if name in server_required else 'optional'}"
                f", the SDK says {'required' if name in sdk_required else 'optional'}"
            )
        yield from compare_schemas(
            Side(server_props[name], server.root),
            Side(sdk_props[name], sdk.root),
            path,
            request=request,
        )


def _model_side(model: type[Any]) -> Side:
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return Side(schema, schema)


def credential_of(operation: Mapping[str, Any], schemes: Mapping[str, Any]) -> Credential:
    kinds: set[Credential] = set()
    for requirement in operation.get("security") or []:
        for name in requirement:
            scheme = schemes.get(name, {})
            if scheme.get("type") == "apiKey":
                kinds.add(Credential.API_KEY)
            elif str(scheme.get("bearerFormat", "")).startswith("service_sess_"):
                kinds.add(Credential.SESSION)
            else:
                kinds.add(Credential.API_KEY)
    if not kinds:
        return Credential.NONE
    if len(kinds) > 1:
        raise ValueError(f"{operation.get('operationId')} mixes credential kinds {kinds}")
    return kinds.pop()


@dataclass(frozen=True)
class ServerOperation:
    operation_id: str
    method: str
    path: str
    tag: str
    spec: Mapping[str, Any]

    def describe(self) -> str:
        return f"{self.operation_id} ({self.method} {self.path}, tag {self.tag})"


def server_operations(document: Mapping[str, Any]) -> dict[str, ServerOperation]:
    """Every documented operation by id; probes are hidden from the document by the server."""
    found: dict[str, ServerOperation] = {}
    for path, item in document.get("paths", {}).items():
        for method in _METHODS:
            spec = item.get(method)
            if spec is None or spec.get("x-hidden"):
                continue
            op_id = spec.get("operationId") or f"<no operationId on {method.upper()} {path}>"
            tags = spec.get("tags") or ["<no tag>"]
            found[op_id] = ServerOperation(op_id, method.upper(), path, tags[0], spec)
    return found


def _json_schema_of(content: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    if not content:
        return None
    media = content.get("application/json")
    return None if media is None else media.get("schema")


def compare_operation(
    server: ServerOperation, sdk: Operation[Any], document: Mapping[str, Any]
) -> Iterator[str]:
    name = server.describe()
    if (sdk.method, sdk.path) != (server.method, server.path):
        yield f"{name}: the SDK calls {sdk.method} {sdk.path}"
    schemes = document.get("components", {}).get("securitySchemes", {})
    credential = credential_of(server.spec, schemes)
    if credential is not sdk.credential:
        yield (
            f"{name}: the server takes credential {credential.value}, the SDK sends "
            f"{sdk.credential.value} (Operation.credential)"
        )
    responses: Mapping[str, Any] = server.spec.get("responses", {})
    billable = "402" in responses
    if billable != sdk.billable:
        yield (
            f"{name}: the server {'documents' if billable else 'does not document'} 402, so "
            f"Operation.billable must be {billable} (billable POSTs carry an Idempotency-Key)"
        )
    yield from _compare_parameters(server, sdk, document)
    yield from _compare_request_body(server, sdk, document)
    yield from _compare_response(server, sdk, document)


def _compare_parameters(
    server: ServerOperation, sdk: Operation[Any], document: Mapping[str, Any]
) -> Iterator[str]:
    name = server.describe()
    params = [Side(p, document).resolve().schema for p in server.spec.get("parameters", [])]
    path_names = {p["name"] for p in params if p.get("in") == "path"}
    template_names = set(re.findall(r"\{([^}]+)\}", sdk.path))
    if path_names != template_names:
        yield (
            f"{name}: path parameters are {sorted(path_names)}, the SDK's {sorted(template_names)}"
        )
    query = [p for p in params if p.get("in") == "query"]
    if sdk.query_model is None:
        for param in query:
            yield (
                f"{name}: query parameter {param['name']!r} is on the server; give the "
                "Operation a query_model with it"
            )
        return
    model_side = _model_side(sdk.query_model)
    sdk_props: Mapping[str, Any] = model_side.schema.get("properties", {})
    sdk_required = set(model_side.schema.get("required", []))
    for param in query:
        pname = param["name"]
        if pname not in sdk_props:
            yield f"{name}: query parameter {pname!r} missing from {sdk.query_model.__name__}"
            continue
        if bool(param.get("required")) != (pname in sdk_required):
            yield (
                f"{name}: query parameter {pname!r} is "
                f"{'required' if param.get('required') else 'optional'} on the server"
            )
        yield from compare_schemas(
            Side(param.get("schema", {}), document),
            Side(sdk_props[pname], model_side.root),
            f"{name} query {pname}",
            request=True,
        )
    for pname in sorted(sdk_props.keys() - {p["name"] for p in query}):
        yield f"{name}: {sdk.query_model.__name__}.{pname} is not a query parameter on the server"


def _compare_request_body(
    server: ServerOperation, sdk: Operation[Any], document: Mapping[str, Any]
) -> Iterator[str]:
    name = server.describe()
    body = server.spec.get("requestBody")
    schema = _json_schema_of(body.get("content") if body else None)
    if schema is None:
        if sdk.request_model is not None:
            yield f"{name}: takes no JSON body, the SDK sends {sdk.request_model.__name__}"
        return
    if sdk.request_model is None:
        yield f"{name}: takes a JSON body; give the Operation a request_model"
        return
    yield from compare_schemas(
        Side(schema, document),
        _model_side(sdk.request_model),
        f"{name} request {sdk.request_model.__name__}",
        request=True,
    )


def _compare_response(
    server: ServerOperation, sdk: Operation[Any], document: Mapping[str, Any]
) -> Iterator[str]:
    name = server.describe()
    responses: Mapping[str, Any] = server.spec.get("responses", {})
    successes = {int(code): spec for code, spec in responses.items() if code.startswith("2")}
    label = f"{name} response {sdk.response_model.__name__}"
    if not successes:
        # An undocumented success (e.g. 204) has no body: the SDK's model must have no fields.
        if sdk.response_model.model_fields:
            yield f"{label}: the server documents no success body, the SDK model has fields"
        return
    if sdk.success_status not in successes:
        yield (
            f"{name}: the server answers {sorted(successes)}, the SDK expects "
            f"{sdk.success_status} (Operation.success_status)"
        )
        return
    schema = _json_schema_of(successes[sdk.success_status].get("content"))
    if schema is None:
        if sdk.response_model.model_fields:
            yield f"{label}: the server documents no JSON body, the SDK model has fields"
        return
    yield from compare_schemas(
        Side(schema, document), _model_side(sdk.response_model), label, request=False
    )


def drift(document: Mapping[str, Any], registry: Mapping[str, Operation[Any]]) -> list[str]:
    """Every disagreement between the server's document and the SDK's registry."""
    problems: list[str] = []
    server_ops = server_operations(document)
    for op_id in sorted(server_ops.keys() - registry.keys()):
        op = server_ops[op_id]
        module = MODULE_BY_TAG.get(op.tag, re.sub(r"\W+", "_", op.tag.lower()))
        problems.append(
            f"{op.describe()} has no SDK operation: add Operation(operation_id={op_id!r}, "
            f"method={op.method!r}, path={op.path!r}, ...) with its request/response models to "
            f"astro_sdk/resources/{module}.py and astro_sdk/models/ (see the SDK README, "
            "'Adding an endpoint')"
        )
    for op_id in sorted(registry.keys() - server_ops.keys()):
        sdk_op = registry[op_id]
        problems.append(
            f"{sdk_op.describe()} is in the SDK registry but not in the server's OpenAPI "
            "document (renamed, removed, or missing its operation_id on the server)"
        )
    for op_id in sorted(server_ops.keys() & registry.keys()):
        problems.extend(compare_operation(server_ops[op_id], registry[op_id], document))
    return problems
