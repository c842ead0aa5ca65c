"""The tests mirror the tree file for file (tests/README.md, "Where a test goes").

``tests/cogs/dnd5e/test_death.py`` tests ``cogs/dnd5e/death.py``; ``tests/bot/test_store.py``
tests the package ``bot/store/``; ``test_main.py`` tests ``__main__.py``. A test file there
that names no module is either misplaced or cross-cutting, and the cross-cutting ones are
listed here, each with why, so that "where are the tests of X" stays one look.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIRRORED = ("bot", "cogs")

CROSS_CUTTING = {
    # Discord failing an answer after the change was made: the client, delivery and the
    # store's replay together, one behaviour that no single module owns.
    "tests/bot/test_faults.py",
    # /dune tirada and /mediana tirada typed bare: one behaviour of two systems' forms.
    "tests/cogs/test_forms_bare.py",
    # A secret Donjon test's facts: /donjon hechos (cog.py), the reveal (bot/reveal.py and
    # components.py), the card (render.py) and every output a player reads, one behaviour.
    "tests/cogs/donjon/test_secret_facts.py",
}


def candidates(test: Path) -> list[Path]:
    """What ``test`` may name in the tree: its module, its package or its ``__main__``."""
    relative = test.relative_to(ROOT / "tests")
    name = relative.stem.removeprefix("test_")
    folder = ROOT / relative.parent
    return [folder / f"{name}.py", folder / name / "__init__.py", folder / f"__{name}__.py"]


def misplaced() -> list[str]:
    """The test files under ``tests/bot/`` and ``tests/cogs/`` that name no module."""
    return [
        str(test.relative_to(ROOT))
        for top in MIRRORED
        for test in sorted((ROOT / "tests" / top).rglob("test_*.py"))
        if str(test.relative_to(ROOT)) not in CROSS_CUTTING
        and not any(path.is_file() for path in candidates(test))
    ]


def test_every_test_file_names_the_module_it_tests() -> None:
    assert misplaced() == []


def test_every_cross_cutting_file_still_exists() -> None:
    assert all((ROOT / path).is_file() for path in CROSS_CUTTING)


def test_a_test_file_named_after_nothing_is_found() -> None:
    stray = ROOT / "tests" / "cogs" / "dune" / "test_nothing_here.py"
    assert not any(path.is_file() for path in candidates(stray))
    assert candidates(ROOT / "tests" / "bot" / "test_main.py")[2] == ROOT / "bot" / "__main__.py"


def layout_paths() -> list[str]:
    """The files and folders README's layout section names (templates like ``<system>`` aside)."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").partition("\n## Layout\n")[2]
    quoted = re.findall(r"`([\w./-]+)`", section.partition("\n## ")[0])
    return [path for path in quoted if "/" in path and not path.startswith("/")]


def test_every_path_the_readmes_layout_names_exists() -> None:
    """ "Where is X decided" answers with files: each must be in the tree as it is now."""
    paths = layout_paths()
    assert "rules/dune/momentum.py" in paths
    assert [path for path in paths if not (ROOT / path.rstrip("/")).exists()] == []


def decisions() -> list[str]:
    """docs/decisiones.md's entries (a bold bullet and its indented lines), the index aside."""
    entries: list[list[str]] = []
    inside = False
    for line in (ROOT / "docs" / "decisiones.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("- *"):
            entries.append([line])
            inside = True
        elif inside and (line.startswith("  ") or not line):
            entries[-1].append(line)
        else:
            inside = False
    return ["\n".join(entry) for entry in entries]


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, letters, digits, hyphens and underscores."""
    kept = "".join(c for c in heading.lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def test_every_decision_names_the_modules_it_decides_and_they_exist() -> None:
    """Each entry's *Módulo:* line (docs/decisiones.md's header) names files of the tree."""
    entries = decisions()
    assert len(entries) > 250
    unnamed = [entry.splitlines()[0] for entry in entries if "\n  *Módulo:* " not in entry]
    named = [re.findall(r"`([^`]+)`", entry.partition("\n  *Módulo:* ")[2]) for entry in entries]
    missing = [path for paths in named for path in paths if not (ROOT / path.rstrip("/")).exists()]
    assert (unnamed, missing) == ([], [])


def test_every_link_of_the_decisions_index_reaches_a_heading() -> None:
    text = (ROOT / "docs" / "decisiones.md").read_text(encoding="utf-8")
    headings = {anchor(line.lstrip("#").strip()) for line in text.splitlines() if line.startswith("#")}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) > 50
    assert [link for link in links if link not in headings] == []
