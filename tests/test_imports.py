"""No cycle between the project's files, type-only imports included.

The graph is read from the source (``ast``), not from what Python happens to import at run
time: an import under ``if TYPE_CHECKING:`` or inside a function is an edge too, because a
cycle through one of those is still two files that cannot be read apart. ``rules/`` imports
nothing of ``bot/`` or ``cogs/``, and ``bot/`` nothing of ``cogs/``.
"""

from __future__ import annotations

import ast
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "rules")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The project modules ``path`` imports, wherever the import stands in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` reads the module; ``from module import name``
            # the module. (Either way Python runs the package's __init__ first, as it does
            # for every submodule import: that is not an edge between two files' ideas.)
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            named = len(submodules) < len(node.names)
            targets = [*submodules, *([base] if named else [])]
        else:
            continue
        found |= {t for t in targets if t in known}
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    """Read on a thread of its own: CPython 3.11's ``ast.parse`` can fail with "AST
    constructor recursion depth mismatch" on a thread where a RecursionError was once
    caught (the fuzz's deep inputs do that, and xdist may run this test after them)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_graph).result()


def _graph() -> dict[str, set[str]]:
    known = modules()
    names = set(known)
    return {name: imported(path, name, names) for name, path in known.items()}


def tangles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The graph's strongly connected components of more than one module: each is a set of
    files every one of which imports, through the others, every other (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = {stack.pop()}
            while node not in component:
                component.add(stack.pop())
            if len(component) > 1:
                found.append(frozenset(component))

    for start in sorted(edges):
        if start not in index:
            visit(start)
    return found


# Cycles tolerated for now, each exactly as found: none may grow, no new one may appear, and
# one that changes or is gone must leave this list. Issue 30 removed the last three.
KNOWN: tuple[frozenset[str], ...] = ()


def test_the_cycle_finder_finds_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}}
    assert sorted(map(sorted, tangles(edges))) == [["a", "b", "c"], ["e", "f"]]
    assert tangles({"a": {"b"}, "b": set()}) == []


def test_no_new_cycle_between_the_projects_files() -> None:
    found = tangles(graph())
    new = [sorted(c) for c in found if not any(c <= known for known in KNOWN)]
    assert not new, f"import cycles: {new}"
    gone = [sorted(k) for k in KNOWN if k not in found]
    assert not gone, f"these cycles are gone: take them off KNOWN: {gone}"


def test_layers_import_downwards_only() -> None:
    wrong = [
        f"{name} imports {target}"
        for name, targets in graph().items()
        for target in targets
        if (name.startswith("rules") and target.startswith(("bot", "cogs")))
        or (name.startswith("bot") and target.startswith("cogs"))
    ]
    assert not wrong, wrong
