"""Compare every limit of our Discord schemas with Discord's OpenAPI description.

    DISCORD_OPENAPI=/path/openapi.json python -m tests.support.spec_check

Each limited node of :mod:`tests.support.discord_schema` names the spec node it copies
(``x-spec``). A limit that differs from the spec is a failure, unless the node is marked
``x-stricter`` (tighter on purpose, with the documented reason) and is indeed tighter.
The spec itself is not kept in this repository: it is read from wherever it is.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.support.discord_schema import LOCALES, SCHEMAS

LIMITS = ("minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum", "maxProperties")
_UPPER = frozenset({"maxLength", "maxItems", "maximum", "maxProperties"})


def annotated(node: Any) -> Iterator[dict[str, Any]]:
    """Every node of our schemas that says which spec node it copies."""
    if isinstance(node, dict):
        if "x-spec" in node:
            yield node
        for value in node.values():
            yield from annotated(value)
    elif isinstance(node, list):
        for value in node:
            yield from annotated(value)


def spec_node(spec: dict[str, Any], pointer: str) -> dict[str, Any] | None:
    node: Any = spec["components"]["schemas"]
    for part in pointer.split("/"):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, dict) else None


def compare(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """The limits where ours differs from the spec without being a declared tightening."""
    problems = []
    if _nullable(ours) != _nullable(theirs):
        problems.append(
            f"{ours['x-spec']}: null allowed is {_nullable(ours)}, the spec says {_nullable(theirs)}"
        )
    for key in LIMITS:
        mine, spec = ours.get(key), theirs.get(key)
        if mine == spec or (key.startswith("min") and not mine and not spec):
            continue
        tighter = mine is not None and (spec is None or (mine < spec if key in _UPPER else mine > spec))
        if not (tighter and "x-stricter" in ours):
            problems.append(f"{ours['x-spec']}: {key} is {mine}, the spec says {spec}")
    return problems


def _nullable(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return isinstance(kind, list) and "null" in kind


def check(spec: dict[str, Any]) -> tuple[list[str], list[str], int]:
    """(mismatches, declared tightenings, nodes compared)."""
    problems: list[str] = []
    stricter: list[str] = []
    nodes = [n for schema in SCHEMAS.values() for n in annotated(schema)]
    for node in nodes:
        theirs = spec_node(spec, node["x-spec"])
        if theirs is None:
            problems.append(f"{node['x-spec']}: not in the spec")
            continue
        problems += compare(node, theirs)
        if "x-stricter" in node:
            stricter.append(f"{node['x-spec']}: {node['x-stricter']}")
    enum = spec["components"]["schemas"].get("AvailableLocalesEnum", {}).get("oneOf", [])
    locales = {c["const"] for c in enum}
    if locales != set(LOCALES):
        problems.append(
            f"locales differ: ours {sorted(set(LOCALES) - locales)}, spec {sorted(locales - set(LOCALES))}"
        )
    return sorted(set(problems)), sorted(set(stricter)), len(nodes)


def main() -> int:
    where = os.environ.get("DISCORD_OPENAPI")
    if not where:
        print("set DISCORD_OPENAPI to a copy of discord-api-spec's specs/openapi.json", file=sys.stderr)
        return 2
    spec = json.loads(Path(where).read_text(encoding="utf-8"))
    problems, stricter, count = check(spec)
    print(f"{count} limits compared with {where}")
    for line in stricter:
        print(f"  stricter on purpose: {line}")
    for line in problems:
        print(f"  MISMATCH: {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
