"""Tests of ``rules.dnd5e.death``: D&D 5e at 0 hit points (SRD 5.2, "Dropping to 0 Hit Points"):
death saving throws, stable, dead; what damage and healing do to them."""

import pytest

from rules.dnd5e import death
from rules.dnd5e.death import Fate, after_harm, after_healing, death_save, standing
from rules.dnd5e.hit_points import Condition, HitPoints, damage
from rules.errors import RuleError
from tests.support.dice import Scripted

DOWN = HitPoints(0, 12)


@pytest.mark.parametrize(
    ("face", "after"),
    [
        (10, Fate(successes=1)),
        (19, Fate(successes=1)),
        (9, Fate(failures=1)),
        (2, Fate(failures=1)),
        (1, Fate(failures=2)),
    ],
)
def test_a_death_save_counts_against_ten(face: int, after: Fate) -> None:
    saved = death_save(Fate(), DOWN, face)
    assert saved.after == after and saved.face == face and saved.regained == 0


def test_a_natural_twenty_regains_one_hit_point_and_resets() -> None:
    saved = death_save(Fate(successes=1, failures=2), DOWN, 20)
    assert saved.regained == 1 and saved.after == Fate()


def test_three_successes_stabilise_and_three_failures_kill() -> None:
    assert death_save(Fate(successes=2, failures=1), DOWN, 12).after == Fate(stable=True)
    assert death_save(Fate(successes=1, failures=2), DOWN, 5).after == Fate(1, 3, dead=True)
    assert death_save(Fate(failures=2), DOWN, 1).after == Fate(failures=3, dead=True)


def test_only_the_dying_make_death_saves() -> None:
    for fate, hp in ((Fate(), HitPoints(3, 12)), (Fate(stable=True), DOWN), (Fate(dead=True), DOWN)):
        with pytest.raises(RuleError):
            death_save(fate, hp, 10)


def test_the_d20_is_rolled_by_the_rng() -> None:
    assert death.roll_death_save(Scripted([14]), Fate(), DOWN).after == Fate(successes=1)


def test_damage_at_zero_adds_failures_and_ends_stability() -> None:
    fate = Fate(successes=2, failures=1)
    assert after_harm(fate, damage(DOWN, 3)) == Fate(successes=2, failures=2)
    assert after_harm(fate, damage(DOWN, 3, critical=True)) == Fate(successes=2, failures=3, dead=True)
    assert after_harm(Fate(stable=True), damage(DOWN, 3)) == Fate(failures=1)


def test_killed_outright_is_dead_and_stays_dead() -> None:
    dead = after_harm(Fate(), damage(HitPoints(6, 12), 18))
    assert dead.dead
    assert after_harm(dead, damage(DOWN, 3)) == dead
    with pytest.raises(RuleError):
        after_healing(dead, HitPoints(5, 12))


def test_healing_resets_the_death_saves() -> None:
    assert after_healing(Fate(successes=2, failures=2), HitPoints(1, 12)) == Fate()
    assert after_healing(Fate(stable=True), HitPoints(4, 12)) == Fate()


def test_standing_tells_dead_stable_and_unconscious() -> None:
    assert standing(HitPoints(5, 12), Fate()) is Condition.UP
    assert standing(DOWN, Fate()) is Condition.UNCONSCIOUS
    assert standing(DOWN, Fate(stable=True)) is Condition.STABLE
    assert standing(DOWN, Fate(dead=True)) is Condition.DEAD
    assert standing(DOWN, Fate(), dies_at_zero=True) is Condition.DEAD


def test_the_board_tells_dead_stable_and_the_death_saves_counted() -> None:
    from bot.board import hp as board_hp
    from bot.models import BoardHitPoints
    from cogs.dnd5e import board as dnd_board

    def word(fate: Fate | None, *, player: bool = False, dies_at_zero: bool = False) -> str | None:
        points = dnd_board.points(0, 38, 0, fate, dies_at_zero=dies_at_zero)
        return board_hp.hp_text("es", BoardHitPoints.STATE, points, player)

    assert word(None) == "Inconsciente"
    assert word(Fate(successes=1, failures=2)) == "Inconsciente (éxitos 1 · fallos 2)"
    assert word(Fate(stable=True)) == "Estable"
    assert word(Fate(dead=True)) == "Muerto"
    assert word(None, dies_at_zero=True) == "Muerto"
    assert word(Fate(dead=True), player=True) == "0/38 PG, Muerto"
