import pytest

from bot.errors import Refusal
from bot.names import fold
from cogs.dnd5e.state import ABILITIES, SKILLS


def test_fold_drops_case_accents_underscores_and_extra_spaces() -> None:
    assert fold("  Trato_con  ANIMALES ") == "trato con animales"
    assert fold("Percepción") == fold("percepcion") == "percepcion"
    assert fold("Engaño") == "engano"


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("percepcion", "percepcion"),
        ("Percepción", "percepcion"),
        ("perception", "percepcion"),
        ("SLEIGHT OF HAND", "juego_de_manos"),
        ("trato_con_animales", "trato_con_animales"),
        ("percepcon", "percepcion"),
        ("stelth", "sigilo"),
    ],
)
def test_a_skill_is_found_by_any_spelling(typed: str, key: str) -> None:
    assert SKILLS.resolve(typed) == key


@pytest.mark.parametrize("typed", ["", "bailar", "perc", "in", "x" * 200])
def test_what_names_no_skill_is_refused_in_the_players_words(typed: str) -> None:
    assert SKILLS.resolve(typed) is None
    with pytest.raises(Refusal) as refused:
        SKILLS.find(typed)
    assert refused.value.key == "dnd.unknown_skill"
    assert len(refused.value.params["name"]) <= 40


def test_abilities_have_their_own_refusal() -> None:
    assert ABILITIES.resolve("Dexterity") == "destreza"
    with pytest.raises(Refusal) as refused:
        ABILITIES.find("suerte")
    assert refused.value.key == "dnd.unknown_ability"


def test_an_empty_autocomplete_lists_every_skill_in_the_clients_language() -> None:
    suggested = SKILLS.suggest("en", "")
    assert len(suggested) == 18
    assert ("sigilo", "Stealth") in suggested


def test_suggestions_fall_back_to_close_spellings_and_stop_at_nonsense() -> None:
    assert SKILLS.suggest("es", "percepcon") == [("percepcion", "Percepción")]
    assert SKILLS.suggest("es", "zzzz") == []


def test_a_sheets_own_names_are_found_with_or_without_accents() -> None:
    from bot.names import closest, containing

    attacks = ["Espada larga", "Arco corto", "Daga"]
    assert closest("espada LARGA", attacks) == "Espada larga"
    assert closest("espda larga", attacks) == "Espada larga"
    assert closest("hacha", attacks) is None
    assert closest("Rastrear cualquier cosa", ["Rastrear Cualquier Cosa"]) == "Rastrear Cualquier Cosa"
    assert closest("comprension", ["Comprensión"]) == "Comprensión"
    assert containing("ar", attacks) == ["Espada larga", "Arco corto"]
