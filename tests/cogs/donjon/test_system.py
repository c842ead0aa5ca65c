"""What Donjon declares to ``bot/``: how a stored test reads back for the chronicle."""

from cogs.donjon import system
from rules.donjon import law as donjon_law
from rules.donjon import posted
from rules.donjon.contest import Contest
from rules.donjon.posted import DonjonRoll


def roll_with(law: donjon_law.Law) -> dict[str, object]:
    return posted.to_data(DonjonRoll("prueba", Contest((20, 7), (5, 3), 20), law))


def test_the_chronicle_tells_the_facts_narrated_and_not_those_waiting() -> None:
    law = donjon_law.Law(11, 0, 2)
    law = donjon_law.narrate(donjon_law.narrate(law, 11, "La puerta cede"), 11, "Hay una llave")
    assert system.read("es", roll_with(law)).facts == ()
    law = donjon_law.mark_narrated(law, 1)
    assert system.read("es", roll_with(law)).facts == ((11, "Hay una llave"),)


def test_the_chronicle_reads_a_test_stored_with_one_narrated_flag() -> None:
    data = roll_with(donjon_law.narrate(donjon_law.Law(11, 0, 1), 11, "El puente cede"))
    law = data["law"]
    assert isinstance(law, dict)
    for fact in law["facts"]:
        del fact["narrated"]
    law["narrated"] = True
    assert system.read("es", data).facts == ((11, "El puente cede"),)
