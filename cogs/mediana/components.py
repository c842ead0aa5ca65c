"""Mediana's buttons under a roll and the damage form (DynamicItems whose custom_id
carries the roll id, so they survive restarts)."""

from __future__ import annotations

import discord

from bot import repeat
from bot.checks import is_gm, table_of
from bot.client import Tirada
from bot.delivery import update
from bot.errors import Refusal
from bot.i18n import Lang, lang_for, t
from bot.models import Record
from bot.panel import labelled, number_or_none, number_select, worded
from bot.rolls import Card, Decision, act, load
from bot.ui import ActionButton, Modal
from cogs.mediana import sheet
from cogs.mediana.render import contest_embed, effect_text, entries_of, test_embed, tests_of
from cogs.mediana.state import KIND
from rules.mediana import checks, contests, effects


class TestButton(ActionButton, template=r"mediana:(?P<action>dano|aceptar|repetir):(?P<record>[0-9]{1,18})"):
    """ "Tirar daño" under a successful attack; "Aceptar empate" / "Repetir el empate"
    under a tied opposed test or contest, for the GM."""

    prefix = "mediana"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(interaction, self.record_id, KIND)
        if self.action == "dano":
            if interaction.user.id != record.user_id and not is_gm(
                await table_of(interaction, record), interaction
            ):
                raise Refusal("error.not_yours")
            if record.data.get("damage"):
                raise Refusal("mediana.damage_done")
            await interaction.response.send_modal(DamageModal(self.record_id, lang))
            return
        if not is_gm(await table_of(interaction, record), interaction):
            raise Refusal("error.not_gm")
        decide = accept_tie if self.action == "aceptar" else lambda r: reroll_tie(bot, r)
        record, _ = await act(bot.store, interaction, self.record_id, KIND, decide)
        embed, view = contest_card(lang, record)
        await update(interaction, embed=embed, view=view)


def tied(record: Record) -> tuple[int, ...]:
    """The sides still tied for the GM to settle (none once settled or won)."""
    return ties(record, tests_of(record))


def ties(record: Record, tests: list[checks.Test] | None) -> tuple[int, ...]:
    """:func:`tied`, from the sides' tests as already decoded (a card's)."""
    if record.data.get("settled") or tests is None:
        return ()
    winners = contests.contest_winners(tests)
    return winners if len(winners) > 1 else ()


def accept_tie(record: Record) -> Decision:
    if not tied(record):
        raise Refusal("mediana.tie_settled")
    return Decision({**record.data, "settled": True}, (), "mediana.tie_accept")


def reroll_tie(bot: Tirada, record: Record) -> Decision:
    """ "Se haga una nueva tirada para resolverlo": the tied sides roll again (at their
    own rank and score); the others keep the result that already lost."""
    again = tied(record)
    if not again:
        raise Refusal("mediana.tie_settled")
    entries = entries_of(record)
    for index in again:
        old = checks.roll_from_data(entries[index]["test"])
        test = checks.roll_test(bot.rng, old.score, None, old.first.rank)
        entries[index] = {**entries[index], "test": checks.roll_to_data(test)}
    data = {key: value for key, value in record.data.items() if key not in ("a", "b", "rival")}
    data = {**data, "entries": entries, "rerolls": data.get("rerolls", 0) + 1}
    return Decision(data, (), "mediana.tie_reroll")


# The absorption the damage form offers after "the target's armour's": "La absorción se
# resta a la tirada de daño del enemigo", 0 to 23 as an armour's estorbo.
ABSORPTIONS = range(0, 24)


class DamageModal(Modal):
    """The weapon's damage dice, typed (an expression such as 2d6+1, as on the sheet), the
    target's sheet, typed (a name), and the absorption, picked: as ``/mediana daño``."""

    def __init__(self, record_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "mediana.damage.title"), custom_id=f"mediana:dano-modal:{record_id}")
        self.record_id = record_id
        self.weapon: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=t(lang, "mediana.damage.weapon"), custom_id="arma", max_length=20
        )
        self.add_item(self.weapon)
        self.target: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=t(lang, "mediana.damage.target"), custom_id="objetivo", max_length=100, required=False
        )
        self.add_item(self.target)
        self.absorption = number_select("absorcion", ABSORPTIONS, worded(t(lang, "mediana.damage.worn")))
        self.add_item(labelled(t(lang, "mediana.damage.armour"), self.absorption))

    async def submit(self, interaction: discord.Interaction[Tirada]) -> None:
        """An absorption picked wins, as ``absorcion:`` does over ``objetivo:``; else the
        target's armour's, or none without a target."""
        bot = interaction.client
        lang = lang_for(interaction.locale)
        spec = effects.parse_effect(self.weapon.value)
        absorption = number_or_none(self.absorption)
        armour: str | None = None
        typed = self.target.value.strip()
        if absorption is None:
            absorption, armour = await sheet.armour(bot, interaction, typed) if typed else (0, None)

        def damage(current: Record) -> Decision:
            if current.data.get("damage"):
                raise Refusal("mediana.damage_done")
            test = checks.roll_from_data(current.data["test"])
            dice, doubled = effects.effect_dice(spec.dice, test.degrees, test.critical, in_combat=True)
            effect = effects.roll_effect(
                bot.rng, effects.EffectSpec(dice, spec.bonus), critical=doubled, absorption=absorption
            )
            text = effect_text(lang, effect, armour)
            return Decision({**current.data, "damage": text}, (), "mediana.damage")

        record, _ = await act(bot.store, interaction, self.record_id, KIND, damage)
        embed, view = test_card(lang, record)
        await update(interaction, embed=embed, view=view)


def test_card(lang: Lang, record: Record) -> tuple[discord.Embed, discord.ui.View]:
    """A test's embed and buttons, from its test decoded once: pydantic's decoding was a
    card's largest cost when each drew its own (issue 29)."""
    test = checks.roll_from_data(record.data["test"])
    return test_embed(lang, record, test), test_view(lang, record, test)


def thrown_card(test: checks.Test) -> Card:
    """The card of the record just written from ``test``, drawn from it, not decoded again
    (``bot.rolls.publish``'s ``fresh``)."""
    return lambda lang, record: (test_embed(lang, record, test), test_view(lang, record, test))


def contest_card(lang: Lang, record: Record) -> tuple[discord.Embed, discord.ui.View]:
    """A resolved contest or opposed test: its card with *Repetir*, from its sides' tests
    decoded once."""
    tests = tests_of(record)
    return contest_embed(lang, record, tests), contest_view(lang, record, tests)


def test_view(lang: Lang, record: Record, test: checks.Test) -> discord.ui.View:
    """*Repetir*, and "Tirar daño" under a successful attack whose damage is not rolled."""
    data = record.data
    view = discord.ui.View(timeout=None)
    view.add_item(repeat.button(lang, record.id))
    if data.get("attack") and test.success and not data.get("damage"):
        view.add_item(
            TestButton.draw(record.id, "dano", t(lang, "mediana.button.dano"), discord.ButtonStyle.danger)
        )
    return view


def contest_view(lang: Lang, record: Record, tests: list[checks.Test] | None) -> discord.ui.View:
    """*Repetir*, and the GM's two ways out of a tie while it stands."""
    view = discord.ui.View(timeout=None)
    view.add_item(repeat.button(lang, record.id))
    if ties(record, tests):
        view.add_item(TestButton.draw(record.id, "aceptar", t(lang, "mediana.button.aceptar")))
        view.add_item(
            TestButton.draw(
                record.id, "repetir", t(lang, "mediana.button.repetir"), discord.ButtonStyle.primary
            )
        )
    return view
