"""What ``/ficha editar`` may change: every single value of a sheet (a number, a text, a
yes/no), named by its path ("caracteristicas.destreza", "pg.actuales"). Lists (attacks,
Habilidades, focuses) are edited whole through ``/ficha exportar`` and ``importar``.
"""

from __future__ import annotations

from typing import Any

from bot.sheets import io
from bot.sheets.live import put
from bot.sheets.models import SheetBase

# Texts typed into /ficha editar are bounded like the file's own texts.
VALUE_LIMIT = 200


def paths(data: dict[str, Any], prefix: str = "") -> list[str]:
    """The editable leaves of a sheet, in the file's order (the version and system are not)."""
    found: list[str] = []
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            found += paths(value, f"{path}.")
        elif not isinstance(value, list) and path not in ("version", "sistema"):
            found.append(path)
    return found


def parse(current: Any, typed: str) -> Any:
    """``typed`` as the kind of value the field holds; a number that is not one stays text
    so validation names the field."""
    text = typed.strip()
    if isinstance(current, bool):
        return text.casefold() in ("si", "sí", "yes", "true", "1")
    if isinstance(current, int) or current is None:
        try:
            return int(text)
        except ValueError:
            return text
    return text


def edited(data: dict[str, Any], path: str, typed: str) -> SheetBase:
    """The sheet with one field changed, validated whole (:class:`io.Rejected` if not)."""
    current = data
    for key in path.split("."):
        current = current[key]
    return io.validate(put(data, path, parse(current, typed)))
