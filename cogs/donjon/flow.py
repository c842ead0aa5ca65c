"""Donjon's roll commands as functions of their options, so *Repetir* can run them again.

Each command validates its options, works out both pools (saying where the GM's dice come
from: "Media 3 + Nivel 2 = 5 dados"), records the roll together with the banked dice it
spends, and posts it. The options (``ask``) are stored in the roll as every roll keeps
them (``bot.repeat``); *Repetir* calls the same function with them for whoever presses,
without spending banked dice again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import rolls
from bot.checks import current_table, is_gm
from bot.client import Tirada
from bot.errors import Refusal
from bot.models import Change, Record, SheetRow, Table
from bot.repeat import Asked, asked, asked_of, codec
from bot.reveal import is_secret
from bot.seen import stored
from bot.sheets import access
from bot.sheets.live import live_field
from cogs.donjon.components import roll_card, thrown_card
from cogs.donjon.settings import donjon_settings
from cogs.donjon.sheet_model import DonjonSheet
from cogs.donjon.state import GM, KIND, bank_change
from rules.donjon import contest as donjon_contest
from rules.donjon import difficulty, expenses, posted
from rules.donjon.contest import Contest
from rules.donjon.law import Law
from rules.donjon.posted import DonjonRoll
from rules.errors import check_range

Parts = list[tuple[str, int]]
# The numbers of a sheet a test changes.
SCORES = ("heridas", "provisiones", "riqueza")


@dataclass(frozen=True)
class Effect:
    """What a test's result changes (pools, a sheet's numbers) and what its card says of it."""

    changes: tuple[Change, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)


Gain = Callable[[Contest], Effect]


@dataclass(frozen=True)
class Books:
    """The sheet a test changes, with the numbers it holds as the test is rolled; ``row`` is
    None when the sheet was deleted since (the card then says nothing is noted)."""

    name: str
    row: SheetRow | None = None
    held: dict[str, int] = field(default_factory=dict)

    def effect(self, wants: dict[str, int], why: str) -> Effect:
        """The rule's ``wants`` booked on the sheet as far as its bounds let them, each a
        conditional change of its live pool (a race past a bound refuses the whole roll)."""
        if not wants:
            return Effect()
        if self.row is None:
            entries = [[score, 0, wanted] for score, wanted in wants.items()]
            return Effect(details={"sheet": {"name": self.name, "entries": entries, "gone": True}})
        fitted = expenses.fit(wants, self.held)
        changes = tuple(self.change(self.row, e.score, e.delta, why) for e in fitted if e.delta)
        entries = [[e.score, e.delta, e.wanted] for e in fitted]
        return Effect(changes, {"sheet": {"name": self.name, "entries": entries, "gone": False}})

    @staticmethod
    def change(row: SheetRow, score: str, delta: int, why: str) -> Change:
        live = live_field(row, score)
        assert live is not None, score
        way = "spent" if delta < 0 else "gained"
        return Change(live.pool, delta, live.owner(row), cap=live.cap(row.data), reason=f"{why}.{way}")


def booked(sheet: Books | None, wants: dict[str, int], why: str) -> Effect:
    """A test's changes to the character: on its sheet, or (a table without sheets) what
    the card asks the player to note, booking nothing."""
    if sheet is not None:
        return sheet.effect(wants, why)
    return Effect(details={"note": [[score, wanted] for score, wanted in wants.items()]} if wants else {})


async def books(interaction: discord.Interaction[Tirada], table: Table, ask: dict[str, Any]) -> Books | None:
    """The sheet ``ask["ficha"]`` names and what it holds now, or None for a test without one."""
    sheet_id = ask.get("ficha")
    if sheet_id is None:
        return None
    store = interaction.client.store
    row = await store.sheet(table.channel_id, sheet_id)
    name = str(ask.get("character") or "")
    if row is None:
        return Books(name)
    sheet = access.of_kind(await access.content(store, row), DonjonSheet)
    return Books(sheet.nombre, row, {score: getattr(sheet, score) for score in SCORES})


# The options a repeat leaves out: banked dice are spent by choice, one roll at a time.
SPENDS = ("banco", "banco_dj", "rival_banco", "bonificacion_dj")


async def banked(table: Table, interaction: discord.Interaction[Tirada], owner: int) -> int:
    """What ``owner`` holds now, for the rule to refuse a spend past it in words; the spend
    itself stays a conditional update, so a race is refused by the store all the same."""
    pool = "dados_dj" if owner == GM else "dados"
    return await interaction.client.store.pool(table.channel_id, pool, 0 if owner == GM else owner)


async def spend_banked(
    interaction: discord.Interaction[Tirada], table: Table, pool: int, use: int, owner: int, why: str
) -> tuple[int, tuple[Change, ...]]:
    """A pool with ``use`` banked dice of ``owner`` added, and the bank change that pays for
    them (applied with the roll, in the same operation)."""
    if not use:
        return pool, ()
    dice, delta = difficulty.with_banked(pool, use, await banked(table, interaction, owner))
    change = bank_change(owner, delta)
    return dice, (Change(change.pool, change.delta, change.owner_id, reason=why),)


def roller(interaction: discord.Interaction, table: Table, jugador: int | None) -> int:
    """Whose test it is: the caller's, or (for the GM) the named player's."""
    me = interaction.user.id
    if jugador is None or jugador == me:
        return me
    if not is_gm(table, interaction):
        raise Refusal("donjon.for_player_gm_only")
    return jugador


def gm_only(table: Table, interaction: discord.Interaction, use: int, key: str) -> None:
    if use and not is_gm(table, interaction):
        raise Refusal(key)


async def prueba(
    interaction: discord.Interaction[Tirada],
    *,
    dados: int,
    contra: int | None = None,
    dificultad: str | None = None,
    banco: int = 0,
    banco_dj: int = 0,
    jugador: int | None = None,
    secreta: bool = False,
    motivo: str | None = None,
    mine_parts: list[tuple[str, int]] | None = None,
    character: str | None = None,
) -> None:
    """A test against an opposing NPC (``contra`` dice) or an obstacle (the difficulty's
    dice plus the Donjon level; Media when neither is given). The GM may add banked dice to
    the opposing pool: "una próxima acción del DJ relacionada al personaje"."""
    ask = {
        "dados": dados,
        "contra": contra,
        "dificultad": dificultad,
        "jugador": jugador,
        "mine_parts": mine_parts,
        "character": character,
    }
    table = await current_table(interaction)
    if contra is not None and dificultad is not None:
        raise Refusal("donjon.contra_or_difficulty")
    gm_only(table, interaction, banco_dj, "donjon.gm_bank_gm_only")
    player = roller(interaction, table, jugador)
    if contra is not None:
        against, parts = contra, [("contra", contra)]
    else:
        level_name = dificultad or difficulty.DEFAULT_SEVERITY
        level = donjon_settings(table).donjon_level
        against = difficulty.difficulty_dice(level_name, level)
        parts = [(f"dificultad.{level_name}", difficulty.DIFFICULTIES[level_name]), ("nivel", level)]
    mine, spend = await spend_banked(interaction, table, dados, banco, player, "donjon.spend.banco")
    theirs, gm_spend = await spend_banked(interaction, table, against, banco_dj, GM, "donjon.spend.banco_dj")
    await contest(
        interaction,
        table,
        "prueba",
        (mine, theirs),
        spend=spend + gm_spend,
        law_for={"a": (player, GM), "b": (GM, player)},
        details={
            "bank_spent": banco,
            "player": player,
            "explain": {
                "b": [*parts, ("banco", banco_dj)],
                "a": [*mine_parts, ("banco", banco)] if mine_parts else [],
            },
            "character": character,
        },
        options=ask,
        secret=secreta,
        motivo=motivo,
    )


async def enfrentada(
    interaction: discord.Interaction[Tirada],
    *,
    rival: int,
    dados: int,
    rival_dados: int,
    banco: int = 0,
    rival_banco: int = 0,
    jugador: int | None = None,
    secreta: bool = False,
    motivo: str | None = None,
    mine_parts: Parts | None = None,
    character: str | None = None,
    rival_parts: Parts | None = None,
    rival_character: str | None = None,
) -> None:
    """Two characters against each other; the winner allocates, the loser narrates. Each
    side may add its banked dice; the rival's are spent by the rival (rolling the test
    themself) or by the GM, never by the other player. A rival NPC is the GM's (``rival``
    is ``GM``): its banked dice are the GM's, and the GM allocates or narrates for it."""
    ask = {
        "rival": rival,
        "dados": dados,
        "rival_dados": rival_dados,
        "jugador": jugador,
        "mine_parts": mine_parts,
        "character": character,
        "rival_parts": rival_parts,
        "rival_character": rival_character,
    }
    table = await current_table(interaction)
    player = roller(interaction, table, jugador)
    me = interaction.client.user
    if rival == player or (me is not None and rival == me.id):
        raise Refusal("donjon.bad_rival")
    gm_only(table, interaction, rival_banco, "donjon.rival_bank_gm_only")
    mine, spend = await spend_banked(interaction, table, dados, banco, player, "donjon.spend.banco")
    theirs, rival_spend = await spend_banked(
        interaction, table, rival_dados, rival_banco, rival, "donjon.spend.rival_banco"
    )
    await contest(
        interaction,
        table,
        "enfrentada",
        (mine, theirs),
        spend=spend + rival_spend,
        law_for={"a": (player, rival), "b": (rival, player)},
        details={
            "rival": rival,
            "bank_spent": banco,
            "player": player,
            "explain": {
                "b": [*(rival_parts or [("dados", rival_dados)]), ("banco", rival_banco)],
                "a": [*mine_parts, ("banco", banco)] if mine_parts else [],
            },
            "character": character,
            "rival_character": rival_character,
        },
        options=ask,
        secret=secreta,
        motivo=motivo,
    )


async def dano(
    interaction: discord.Interaction[Tirada],
    *,
    aguante: int,
    modificadores: int = 0,
    severidad: str | None = None,
    atributo_pnj: int | None = None,
    habilidad_pnj: int | None = None,
    bonificacion_dj: int = 0,
    jugador: int | None = None,
    secreta: bool = False,
    motivo: str | None = None,
    npc_parts: Parts | None = None,
    npc: str | None = None,
    character: str | None = None,
    habilidad: tuple[str, int] | list[Any] | None = None,
    ficha: int | None = None,
) -> None:
    """Prueba de Daño: Aguante (+ an absorbing Habilidad, + modifiers) against "el Atributo y
    Habilidad apropiados del PNJ oponente o el Nivel de Donjon actual más los modificadores
    basados en la severidad", plus the GM's banked successes; "cada éxito del DJ en una
    Prueba de Daño resta una Herida", off the Heridas of sheet ``ficha`` (the taker's).
    ``npc_parts`` are the NPC's two terms by where they came from (its sheet, or numbers);
    ``character`` names the taker's sheet."""
    if npc_parts is None and (atributo_pnj is not None or habilidad_pnj is not None):
        npc_parts = [("atributo", atributo_pnj or 0), ("habilidad", habilidad_pnj or 0)]
    skill = (str(habilidad[0]), int(habilidad[1])) if habilidad else None
    ask = {
        "aguante": aguante,
        "modificadores": modificadores,
        "severidad": severidad,
        "jugador": jugador,
        "npc_parts": npc_parts,
        "npc": npc,
        "character": character,
        "habilidad": skill,
        "ficha": ficha,
    }
    table = await current_table(interaction)
    gm_only(table, interaction, bonificacion_dj, "donjon.gm_bank_gm_only")
    player = roller(interaction, table, jugador)
    if npc_parts is not None and severidad is not None:
        raise Refusal("donjon.npc_or_severity")
    parts: Parts
    if npc_parts is not None:
        base = difficulty.npc_damage_dice(npc_parts[0][1], npc_parts[1][1])
        parts = [(str(n), v) for n, v in npc_parts]
    else:
        severity = severidad or difficulty.DEFAULT_SEVERITY
        level = donjon_settings(table).donjon_level
        base = difficulty.damage_dice(level, severity)
        parts = [(f"dificultad.{severity}", difficulty.DIFFICULTIES[severity]), ("nivel", level)]
    against, spend = await spend_banked(interaction, table, base, bonificacion_dj, GM, "donjon.spend.dano_dj")
    absorbed = skill[1] if skill else 0
    mine: Parts = []
    if character or skill:
        mine = [("atributo.aguante", aguante), *([skill] if skill else []), ("modificadores", modificadores)]
    sheet = await books(interaction, table, ask)

    def wounds(test: Contest) -> Effect:
        return booked(sheet, expenses.damage_wants(test.winner == "b", test.successes), "donjon.dano")

    await contest(
        interaction,
        table,
        "dano",
        (max(aguante + absorbed + modificadores, 0), against),
        spend=spend,
        details={
            "player": player,
            "explain": {"b": [*parts, ("banco", bonificacion_dj)], "a": mine},
            "character": character,
            "rival_character": npc,
        },
        gain=wounds,
        options=ask,
        secret=secreta,
        motivo=motivo,
    )


def expense_pools(ask: dict[str, Any]) -> tuple[Parts, Parts]:
    """The player's dice (the dice put in first, then what is added to them) and the GM's,
    each by where they come from."""
    get = ask.get
    kind = ask["tipo"]
    skill = ("habilidad", get("habilidad", 0))
    if kind == "comprar":
        return (
            [
                ("riqueza", ask["riqueza"]),
                ("sociabilidad", ask["sociabilidad"]),
                skill,
                ("intercambio", get("intercambio", 0)),
            ],
            [("valor", ask["valor"]), ("sobreprecio", get("sobreprecio", 0))],
        )
    if kind == "provisiones":
        return (
            [("riqueza", ask["riqueza"]), ("sociabilidad", ask["sociabilidad"]), skill],
            [("provisiones", ask["provisiones"]), ("sobreprecio", get("sobreprecio", 0))],
        )
    if kind == "influencia":
        return (
            [("riqueza", ask["riqueza"]), ("sociabilidad", ask["sociabilidad"]), skill],
            [("riqueza_pnj", ask["riqueza_pnj"]), ("discernimiento_pnj", ask["discernimiento_pnj"])],
        )
    if kind == "objeto":
        value, item, unusual = get("valor", 0), get("habilidad_objeto", 0), bool(get("inusual"))
        difficulty.provisions_dice(value, item, unusual)
        best = ("valor", value) if value >= item else ("habilidad_objeto", item)
        parts = [
            ("automaticos", difficulty.PROVISIONS_AUTOMATIC),
            best,
            ("inusual", difficulty.PROVISIONS_UNUSUAL * unusual),
        ]
        return [("provisiones", ask["provisiones"]), ("cerebralidad", ask["cerebralidad"]), skill], parts
    return (
        [("valor", ask["valor"]), ("sociabilidad", ask["sociabilidad"]), skill],
        [("riqueza", ask["riqueza"]), ("sobreprecio", get("sobreprecio", 0))],
    )


async def gastos(
    interaction: discord.Interaction[Tirada],
    ask: dict[str, Any],
    *,
    secreta: bool = False,
    motivo: str | None = None,
) -> None:
    """A Prueba de Gastos: "La Ley de los Éxitos no se aplica"; the dice put in are spent
    only if the test succeeds. Influence banks its successes for the one who paid. What
    came from the roller's sheet is named (``ask["nombres"]``: term → part name); with a
    sheet (``ask["ficha"]``) no more is put in than it holds, and the result is booked on it."""
    table = await current_table(interaction)
    mine, parts = expense_pools(ask)
    put_in, player, gm_dice = mine[0][1], sum(v for _, v in mine), sum(v for _, v in parts)
    check_range("dados", player, 0, donjon_contest.MAX_POOL)
    check_range("dados", gm_dice, 0, donjon_contest.MAX_POOL)
    me = interaction.user.id
    names = ask.get("nombres") or {}
    kind = ask["tipo"]
    sheet = await books(interaction, table, ask)
    score = expenses.PUT_IN_FROM.get(kind)
    if sheet is not None and sheet.row is not None and score is not None:
        expenses.check_put_in(score, put_in, sheet.held[score])

    def result(test: Contest) -> Effect:
        won = test.winner == "a"
        banked: tuple[Change, ...] = ()
        if kind == "influencia" and won:
            change = bank_change(me, test.successes)
            banked = (Change(change.pool, change.delta, change.owner_id, reason="donjon.gain.influencia"),)
        on_sheet = booked(sheet, expenses.expense_wants(kind, won, test.successes, put_in), "donjon.gastos")
        return Effect(banked + on_sheet.changes, on_sheet.details)

    await contest(
        interaction,
        table,
        f"gastos_{kind}",
        (player, gm_dice),
        details={
            "explain": {"b": parts, "a": [(names.get(n, n), v) for n, v in mine] if names else []},
            "character": ask.get("character"),
        },
        gain=result,
        options=ask,
        secret=secreta,
        motivo=motivo,
    )


async def contest(
    interaction: discord.Interaction[Tirada],
    table: Table,
    kind: str,
    pools: tuple[int, int],
    *,
    spend: tuple[Change, ...] = (),
    law_for: dict[str, tuple[int, int]] | None = None,
    details: dict[str, Any],
    gain: Gain | None = None,
    options: dict[str, Any],
    secret: bool = False,
    motivo: str | None = None,
) -> None:
    """Roll a test, record it with whatever it spends or gains, and post it, with the
    ``options`` it was asked with for *Repetir*. ``motivo`` arrives clean (the command
    cleans what was typed; *Repetir* passes the stored one)."""
    bot = interaction.client
    secret = is_secret(interaction, table, secret)
    test = donjon_contest.roll_contest(bot.rng, *pools, donjon_settings(table).donjon_sides)
    law = None
    if law_for is not None and test.winner is not None:
        winner, narrator = law_for[test.winner]
        law = Law(winner, narrator, test.successes)
    effect = gain(test) if gain else Effect()
    # In JSON's own shapes (the explanations' pairs as lists), as the record reads back: the
    # card drawn from this value is the card any later redraw decodes from the record.
    details = stored({**details, **effect.details, "motivo": motivo})
    roll = DonjonRoll(kind, test, law, details)
    changes = spend + effect.changes
    await rolls.publish(
        bot.store,
        interaction,
        table,
        KIND,
        posted.to_data(roll) | asked(options, secreta=secret, motivo=motivo),
        f"donjon.{kind}",
        roll_card,
        changes,
        secret=secret,
        fresh=thrown_card(roll),
    )


def before_options(data: dict[str, Any]) -> Asked | None:
    """A test stored before every roll kept its options: them as its details' ``ask``,
    beside its secrecy and ``motivo``."""
    details = data.get("details") or {}
    if "options" in data or "ask" not in details:
        return None
    return Asked(details["ask"], bool(details.get("secreta")), motivo=details.get("motivo"))


ROLLS = codec(before_options)


async def repeat(interaction: discord.Interaction[Tirada], record: Record) -> None:
    """*Repetir*: the same options, motivo and secrecy, for whoever presses; banked dice
    are not spent again."""
    kind = posted.from_data(record.data).kind
    how = asked_of(record.data, ROLLS)
    ask = {k: v for k, v in how.options.items() if k not in SPENDS}
    secreta, motivo = how.secreta, how.motivo
    if ask.get("character"):
        await access.check_repeat(interaction, record, ask.get("jugador"), character=ask["character"])
    if kind == "prueba":
        await prueba(interaction, **ask, secreta=secreta, motivo=motivo)
    elif kind == "enfrentada":
        await enfrentada(interaction, **ask, secreta=secreta, motivo=motivo)
    elif kind == "dano":
        await dano(interaction, **ask, secreta=secreta, motivo=motivo)
    elif kind.startswith("gastos_") and "tipo" in ask:
        await gastos(interaction, ask, secreta=secreta, motivo=motivo)
    else:
        raise Refusal("error.roll_gone")
