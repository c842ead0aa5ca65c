"""``bot/`` names no game system (issue 30): each system declares what ``bot/`` needs in
``cogs/<system>/system.py`` (bot/systems.py), and ``bot/`` iterates the registry.

What counts is code: a name (a variable, a function, an attribute, an import) or a string
literal that spells a system's id, one of its record kinds or one of its pools, as a whole
word of it (``"board.dune.hidden"``, ``dune_part``, ``SYSTEMS["dune"]``, ``"amenaza"``).
Prose does not (docstrings and comments name the rules they follow), nor do the catalog's
keys in ``bot/locales/`` (the sentences are the catalog's), nor the migrations, which are
history: a statement once run is never edited.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.support.systems import DECLARATIONS

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "bot"
WORD = re.compile(r"[a-z0-9_]+")

# A word spelled alike by something generic: /tirar's stored dice (``data["dados"]``), not
# Donjon's bank of dice.
ALIKE = {("bot/readers.py", "dados")}


def forbidden() -> tuple[frozenset[str], frozenset[str]]:
    """Every system's identifiers (its id, record kinds and pools), and the words of them
    that say a system on their own inside a longer name (``dnd`` in ``dnd_part``)."""
    ids = {d.name for d in DECLARATIONS}
    names = set(ids)
    for d in DECLARATIONS:
        names |= {
            d.name,
            *d.forgotten,
            *d.kept,
            *d.kept_on_reset,
            *d.table_pools,
            *d.player_pools,
            *d.hideable,
        }
        names |= {live.pool for live in d.live} | set(d.readers)
    systems = {name for name in names if "_" not in name} & (ids | {"dnd"})
    return frozenset(names), frozenset(systems)


def spells(text: str, names: frozenset[str], systems: frozenset[str]) -> str | None:
    """The identifier ``text`` spells, if it spells one."""
    for word in WORD.findall(text.lower()):
        if word in names:
            return word
        if any(part in systems for part in word.split("_")):
            return word
    return None


def docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string nodes that are docstrings (prose)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def history(tree: ast.Module) -> set[int]:
    """The ids of every node inside the migrations (module constants named ``*MIGRATIONS``
    or ``*_THEN``, as bot/store/schema.py names them)."""
    found = set()
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and t.id.endswith(("MIGRATIONS", "_THEN")) for t in targets):
            found |= {id(n) for n in ast.walk(node)}
    return found


def code_words(tree: ast.Module) -> Iterator[str]:
    """Every name and string literal of the code (docstrings and migrations left out)."""
    skipped = docstrings(tree) | history(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.alias):
            yield node.asname or node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module.replace(".", " ")


def spelled() -> dict[str, set[str]]:
    """Each file of bot/ that spells a system's identifier, and what it spells."""
    names, systems = forbidden()
    found: dict[str, set[str]] = {}
    for path in sorted(BOT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        words = {w for text in code_words(tree) if (w := spells(text, names, systems))}
        words -= {word for file, word in ALIKE if file == name}
        if words:
            found[name] = words
    return found


def test_the_finder_finds_a_system_in_code_and_not_in_prose() -> None:
    names, systems = forbidden()
    tree = ast.parse('"""Dune\'s board."""\nx = t(lang, "board.dune.hidden")  # Dune\ndef dnd_part(): ...\n')
    assert {w for text in code_words(tree) if (w := spells(text, names, systems))} == {"dune", "dnd_part"}
    assert spells("amenaza", names, systems) == "amenaza"
    assert spells("board.hidden", names, systems) is None


def test_bot_spells_no_systems_identifier() -> None:
    """No file of bot/ may (the last four left with issue 30: the system enum and Donjon's
    settings, the sheet models, the Foundry import, the odds lines)."""
    found = {name: sorted(words) for name, words in spelled().items()}
    assert not found, f"bot/ names a system (declare it in cogs/<system>/system.py instead): {found}"
