"""Tests of ``rules.dune.traits``: Dune's scene traits: created, changed or removed, each for its
price."""

import pytest

from rules.dune import traits
from rules.errors import RuleError


def test_a_trait_is_created_changed_or_removed_with_its_count() -> None:
    """ "crear un rasgo completamente nuevo, cambiar uno que exista o eliminarlo", and
    "humo denso 2, donde el número indica que el rasgo cuenta como dos rasgos" (#26)."""
    scene = {"humo denso": 2, "de noche": 1}
    assert traits.edit_trait(scene, "Tormenta", 1) == {"Tormenta": 1}
    assert traits.edit_trait(scene, "Humo denso", 3) == {"humo denso": 3}
    assert traits.edit_trait(scene, "humo denso", 0) == {"humo denso": 0}
    assert traits.edit_trait(scene, "humo", 1, before="HUMO DENSO") == {"humo denso": 0, "humo": 1}
    assert traits.edit_trait(scene, "", 0, before="de noche") == {"de noche": 0}
    for args, key in [
        (("nieve", 0), "dune.trait.unknown"),
        (("nieve", 1, "granizo"), "dune.trait.unknown"),
        (("humo denso", 2), "dune.trait.unchanged"),
    ]:
        with pytest.raises(RuleError) as caught:
            traits.edit_trait(scene, *args)  # type: ignore[arg-type]
        assert caught.value.key == key
    with pytest.raises(RuleError):
        traits.edit_trait(scene, "nieve", 6)
