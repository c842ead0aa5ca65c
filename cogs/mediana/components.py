"""Mediana's test and damage buttons and the damage form (DynamicItems whose custom_id
carries the roll id, so they survive restarts)."""

from __future__ import annotations

import discord

from bot.checks import is_gm, roll_table
from bot.client import Tirada
from bot.errors import Refusal, update
from bot.i18n import Lang, lang_for, t
from bot.models import RollRecord
from bot.rolls import Decision, act, load
from bot.ui import ActionButton, Modal, parse_int
from cogs.mediana.render import effect_text, opposed_embed, test_embed
from cogs.mediana.state import KIND, test_data, test_from
from rules import mediana

# -- buttons -------------------------------------------------------------------------------------


class TestButton(ActionButton, template=r"mediana:(?P<action>dano|aceptar|repetir):(?P<roll>[0-9]{1,18})"):
    """ "Tirar daño" under a successful attack; "Aceptar empate" / "Repetir" under a tied
    opposed test, for the GM."""

    prefix = "mediana"

    async def run(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        record = await load(bot.store, self.roll_id, KIND)
        if self.action == "dano":
            if interaction.user.id != record.user_id and not is_gm(
                await roll_table(interaction, record), interaction
            ):
                raise Refusal("error.not_yours")
            if record.data.get("damage"):
                raise Refusal("mediana.damage_done")
            await interaction.response.send_modal(DamageModal(self.roll_id, lang))
            return
        if not is_gm(await roll_table(interaction, record), interaction):
            raise Refusal("error.not_gm")
        if self.action == "aceptar":
            record, _ = await act(bot.store, interaction, self.roll_id, KIND, accept_tie)
            await update(interaction, embed=opposed_embed(lang, record), view=None)
            return

        def reroll(current: RollRecord) -> Decision:
            if current.data.get("settled"):
                raise Refusal("mediana.tie_settled")
            data = current.data
            a = mediana.roll_test(bot.rng, data["a"]["score"], None, data["a"]["throws"][0][1])
            b = mediana.roll_test(bot.rng, data["b"]["score"], None, data["b"]["throws"][0][1])
            return Decision(
                {**data, "a": test_data(a), "b": test_data(b), "rerolls": data.get("rerolls", 0) + 1},
                (),
                "mediana.tie_reroll",
            )

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, reroll)
        await update(interaction, embed=opposed_embed(lang, record), view=opposed_view(lang, record))


def accept_tie(record: RollRecord) -> Decision:
    if record.data.get("settled"):
        raise Refusal("mediana.tie_settled")
    return Decision({**record.data, "settled": True}, (), "mediana.tie_accept")


class DamageModal(Modal):
    def __init__(self, roll_id: int, lang: Lang) -> None:
        super().__init__(title=t(lang, "mediana.damage.title"), custom_id=f"mediana:dano-modal:{roll_id}")
        self.roll_id = roll_id
        self.weapon: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=t(lang, "mediana.damage.weapon"), custom_id="arma", max_length=20
        )
        self.armour: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=t(lang, "mediana.damage.armour"), custom_id="absorcion", max_length=3, required=False
        )
        self.add_item(self.weapon)
        self.add_item(self.armour)

    async def on_submit(self, interaction: discord.Interaction[Tirada]) -> None:
        bot = interaction.client
        lang = lang_for(interaction.locale)
        spec = mediana.parse_effect(self.weapon.value)
        absorption = parse_int(self.armour.value or "0", "absorcion", 0, mediana.MAX_SCORE)

        def damage(current: RollRecord) -> Decision:
            if current.data.get("damage"):
                raise Refusal("mediana.damage_done")
            test = test_from(current.data["test"])
            effect = mediana.roll_effect(
                bot.rng, spec, extra_dice=test.degrees, critical=test.critical, absorption=absorption
            )
            return Decision({**current.data, "damage": effect_text(lang, effect)}, (), "mediana.damage")

        record, _ = await act(bot.store, interaction, self.roll_id, KIND, damage)
        await update(interaction, embed=test_embed(lang, record), view=None)


def opposed_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    data = record.data
    if data.get("settled") or mediana.opposed_winner(test_from(data["a"]), test_from(data["b"])) is not None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TestButton(record.id, "aceptar", t(lang, "mediana.button.aceptar")))
    view.add_item(
        TestButton(record.id, "repetir", t(lang, "mediana.button.repetir"), discord.ButtonStyle.primary)
    )
    return view


def damage_view(lang: Lang, record: RollRecord) -> discord.ui.View | None:
    """ "Tirar daño" only under a successful attack."""
    data = record.data
    if not data.get("attack") or not test_from(data["test"]).success:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TestButton(record.id, "dano", t(lang, "mediana.button.dano"), discord.ButtonStyle.danger))
    return view
