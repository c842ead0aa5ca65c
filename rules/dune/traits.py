"""Dune's scene traits: created, changed or removed, each for its price."""

from __future__ import annotations

from rules.dune.pools import Pools
from rules.errors import RuleError, check_range

# "humo denso 2, donde el número indica que el rasgo cuenta como dos rasgos": a trait's count.
MAX_TRAIT_COUNT = 5
# What each way to "crear, cambiar o eliminar" a trait costs: Impulso ("Gastando 2 puntos"),
# Amenaza ("gastando dos puntos de Amenaza"), Determinación (a Declaración, one point).
TRAIT_COSTS = {
    "impulso": Pools(momentum=-2),
    "amenaza": Pools(threat=-2),
    "determinacion": Pools(determination=-1),
}


def edit_trait(traits: dict[str, int], text: str, count: int, before: str | None = None) -> dict[str, int]:
    """One trait created, changed or removed ("crear un rasgo completamente nuevo, cambiar
    uno que exista o eliminarlo"): ``text`` at ``count`` (0 removes it), or, with
    ``before``, that trait turned into ``text``. ``traits`` are the scene's, by text; the
    answer is the new count of each trait touched (0: gone). Names compare without case."""
    check_range("cantidad", count, 0, MAX_TRAIT_COUNT)
    known = {name.casefold(): name for name, value in traits.items() if value > 0}
    result: dict[str, int] = {}
    if before is not None:
        old = known.get(before.casefold())
        if old is None:
            raise RuleError("dune.trait.unknown", name=before)
        result[old] = 0
    name = known.get(text.casefold(), text)
    if count == 0 and before is None and name.casefold() not in known:
        raise RuleError("dune.trait.unknown", name=text)
    if count or before is None:
        result[name] = count
    if all(traits.get(k, 0) == v for k, v in result.items()):
        raise RuleError("dune.trait.unchanged", name=text)
    return result
