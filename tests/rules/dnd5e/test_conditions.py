"""Tests of ``rules.dnd5e.conditions``: D&D 5e conditions (SRD 5.2, "Rules Glossary"), as far as
they change the rolls the bot makes: advantage or disadvantage on attacks by and against the
creature, automatic failures on saving throws, and hits that are critical up close. Quotes are the
SRD's, in English (the Spanish rule text stops before the glossary); the names are the Spanish
SRD's."""

from rules.dnd5e import conditions
from tests.rules.dnd5e.support import effects


def test_attacks_against_and_by_a_creature() -> None:
    assert effects(conditions.attack([], ["aturdido"], ranged=False)) == {("target", "aturdido", "ventaja")}
    assert effects(conditions.attack(["envenenado"], ["invisible"], ranged=True)) == {
        ("own", "envenenado", "desventaja"),
        ("target", "invisible", "desventaja"),
    }
    assert effects(conditions.attack(["invisible"], [], ranged=False)) == {("own", "invisible", "ventaja")}


def test_prone_is_advantage_up_close_and_disadvantage_from_afar() -> None:
    assert effects(conditions.attack([], ["derribado"], ranged=False)) == {("target", "derribado", "ventaja")}
    assert effects(conditions.attack([], ["derribado"], ranged=True)) == {
        ("target", "derribado", "desventaja")
    }


def test_a_paralyzed_target_takes_a_critical_only_up_close() -> None:
    close = effects(conditions.attack([], ["paralizado"], ranged=False))
    assert close == {("target", "paralizado", "ventaja"), ("target", "paralizado", "critico")}
    assert effects(conditions.attack([], ["paralizado"], ranged=True)) == {
        ("target", "paralizado", "ventaja")
    }


def test_saves_fail_or_have_disadvantage_by_ability() -> None:
    assert effects(conditions.save(["aturdido"], "destreza")) == {("own", "aturdido", "falla")}
    assert effects(conditions.save(["aturdido"], "sabiduria")) == set()
    assert effects(conditions.save(["restringido"], "destreza")) == {("own", "restringido", "desventaja")}
    assert effects(conditions.check(["envenenado", "cegado"])) == {("own", "envenenado", "desventaja")}
