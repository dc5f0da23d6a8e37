"""The API's docs page, made from its OpenAPI schema (so it is true of the code by construction):
every endpoint with its parameters and answers, and every schema with its fields. A page of the
site's own, with no script of its own: nothing is loaded from elsewhere, and no Swagger UI bundle
is shipped.
"""

from dataclasses import dataclass, field
from typing import Any, Final

REF_PREFIX: Final = "#/components/schemas/"


@dataclass(frozen=True, slots=True)
class TypePart:
    """A piece of a type written out in words; ``anchor`` links it to a schema on the page."""

    text: str
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class Span:
    """A run of prose: plain words, or ``code``."""

    text: str
    code: bool = False


Paragraph = list[Span]


def prose(text: str) -> list[Paragraph]:
    r"""Text as the schema holds it (docstrings: lines wrapped, paragraphs apart, names between
    backticks) as paragraphs of spans.

    >>> [[(s.text, s.code) for s in p] for p in prose("Uses ``kind``:\nbest.\n\nMore.")]
    [[('Uses ', False), ('kind', True), (': best.', False)], [('More.', False)]]
    """
    paragraphs = []
    for block in text.replace("``", "`").split("\n\n"):
        words = " ".join(line.strip() for line in block.splitlines()).strip()
        if words:
            pieces = words.split("`")
            paragraphs.append([Span(p, i % 2 == 1) for i, p in enumerate(pieces) if p])
    return paragraphs


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    where: str
    type: list[TypePart]
    required: bool
    default: str | None
    description: str


@dataclass(frozen=True, slots=True)
class Answer:
    status: str
    description: str
    type: list[TypePart]


@dataclass(frozen=True, slots=True)
class Endpoint:
    method: str
    path: str
    summary: str
    description: list[Paragraph]
    anchor: str
    parameters: list[Parameter]
    answers: list[Answer]
    example: str | None
    """A URL to try, for an endpoint that needs no value in its path."""


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: list[TypePart]
    required: bool
    description: str


@dataclass(frozen=True, slots=True)
class Schema:
    name: str
    anchor: str
    description: list[Paragraph]
    fields: list[Field] = field(default_factory=list)
    open: bool = False
    """Whether it may hold fields beyond those listed (a document passes on all it holds)."""


def schema_anchor(name: str) -> str:
    return f"schema-{name}"


def type_parts(schema: dict[str, Any]) -> list[TypePart]:
    """A JSON schema's type in a few words, its named schemas linked.

    >>> [p.text for p in type_parts({"anyOf": [{"type": "integer"}, {"type": "null"}]})]
    ['integer', ' or ', 'null']
    >>> [(p.text, p.anchor) for p in type_parts(
    ...     {"type": "array", "items": {"$ref": "#/components/schemas/BoardRow"}})]
    [('array of ', None), ('BoardRow', 'schema-BoardRow')]
    >>> [p.text for p in type_parts({"type": "string", "format": "date-time"})]
    ['string (date-time)']
    >>> [p.text for p in type_parts({"enum": ["all", "week"], "type": "string"})]
    ['"all" or "week"']
    """
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(REF_PREFIX)
        return [TypePart(name, schema_anchor(name))]
    for combined in ("anyOf", "oneOf", "allOf"):
        if combined in schema:
            parts: list[TypePart] = []
            for i, option in enumerate(schema[combined]):
                if i:
                    parts.append(TypePart(" or " if combined != "allOf" else " and "))
                parts.extend(type_parts(option))
            return parts
    if "const" in schema:
        return [TypePart(f'"{schema["const"]}"')]
    if "enum" in schema:
        return [TypePart(" or ".join(f'"{value}"' for value in schema["enum"]))]
    kind = schema.get("type", "any value")
    if kind == "array":
        return [TypePart("array of "), *type_parts(schema.get("items", {}))]
    if "format" in schema:
        return [TypePart(f"{kind} ({schema['format']})")]
    return [TypePart(str(kind))]


def _endpoint(path: str, method: str, operation: dict[str, Any]) -> Endpoint:
    parameters = [
        Parameter(
            name=p["name"],
            where=p["in"],
            type=type_parts(p.get("schema", {})),
            required=p.get("required", False),
            default=_default(p.get("schema", {})),
            description=p.get("description") or p.get("schema", {}).get("description", ""),
        )
        for p in operation.get("parameters", [])
    ]
    answers = [
        Answer(
            status=status,
            description=answer.get("description", ""),
            type=type_parts(
                answer.get("content", {}).get("application/json", {}).get("schema", {})
            ),
        )
        for status, answer in sorted(operation.get("responses", {}).items())
    ]
    needs_values = any(p.where == "path" for p in parameters)
    return Endpoint(
        method=method.upper(),
        path=path,
        summary=operation.get("summary", ""),
        description=prose(operation.get("description", "")),
        anchor=operation.get("operationId", f"{method}-{path}"),
        parameters=parameters,
        answers=answers,
        example=None if needs_values else path,
    )


def _default(schema: dict[str, Any]) -> str | None:
    return None if "default" not in schema else str(schema["default"])


def _schema(name: str, schema: dict[str, Any]) -> Schema:
    required = set(schema.get("required", []))
    return Schema(
        name=name,
        anchor=schema_anchor(name),
        description=prose(schema.get("description", "")),
        fields=[
            Field(
                name=key,
                type=type_parts(value),
                required=key in required,
                description=value.get("description", ""),
            )
            for key, value in schema.get("properties", {}).items()
        ],
        open=schema.get("additionalProperties") is True,
    )


def docs_page(openapi: dict[str, Any]) -> dict[str, Any]:
    """What the docs page shows of an OpenAPI document."""
    endpoints = [
        _endpoint(path, method, operation)
        for path, operations in openapi.get("paths", {}).items()
        for method, operation in operations.items()
    ]
    schemas = [
        _schema(name, schema)
        for name, schema in sorted(openapi.get("components", {}).get("schemas", {}).items())
    ]
    info = openapi.get("info", {})
    return {
        "info": info,
        "introduction": prose(info.get("description", "")),
        "endpoints": endpoints,
        "schemas": schemas,
    }
