"""The card tells the truth (issue 26), for the whole table and all four systems.

Every case plays commands and buttons through the harness. After each interaction, what the
messages it posted or edited announce is read back and compared with the books:

- every *change* a message announces ("Riqueza −2", "Se añaden 4 de Impulso", "PG 38 → 31")
  must equal the sum of the ledger rows that interaction wrote for that pool and owner (each
  message on its own: the GM's answer and the table's notice must both be right);
- every ledger row must be announced by some message, or its pool's value shown;
- a *value* a card shows ("Impulso: **3**/6", "**15**/18 PV") must be what the pool holds.

An edited card announces only what the edit added (its reading after, less its reading
before); a message that copies one already posted (a reveal) announces nothing new. Each
system has a reader: the sentences of its catalog, in Spanish, as regular expressions, plus
/mesa's (undo, end of scene), which every table shares.

To add a case: write its steps with :class:`Play` (which checks after every interaction)
and add it to ``CASES``; a case that fails today for a reason another issue owns is marked
``xfail(strict=True)`` with that issue's number.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.cogs.ficha.test_cog import imported
from tests.support.discord_schema import walk
from tests.support.harness import Harness, Message, Reply
from tests.support.payloads import CHANNEL_ID, GM, OTHER, PLAYER

Key = tuple[str, str]  # what changed ("Riqueza", "dados") and whose ("<@1>", a sheet's name, "")
Tally = Counter[Key]
NUMBER = r"(\d+)"
MENTION = r"(<@\d+>)"


def text_of(data: dict[str, Any]) -> str:
    """All visible text of a message, as Reply.text reads the first one (a Components V2
    message's Text Displays, in reading order, included)."""
    parts = [data.get("content") or ""]
    texts = walk(data.get("components") or [], ())
    parts += [c.get("content") or "" for _, c in texts if c.get("type") == 10]
    for embed in data.get("embeds", []):
        parts += [embed.get("title", ""), embed.get("description", "")]
        for f in embed.get("fields", []):
            parts += [f["name"], f["value"]]
    return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Sentence:
    """A sentence that announces a change: ``what`` of ``whose`` (a group of the pattern when
    ``whose`` is an int, else that text) moves by the number in group ``amount`` × ``sign``."""

    pattern: str
    what: str
    sign: int = 1
    whose: int | str = ""
    # None: the sentence announces one ("🎲 Dado guardado para <@1>.").
    amount: int | None = 1

    def read(self, text: str) -> Tally:
        found: Tally = Counter()
        for match in re.finditer(self.pattern, text, re.MULTILINE):
            whose = match.group(self.whose) if isinstance(self.whose, int) else self.whose
            amount = 1 if self.amount is None else int(match.group(self.amount))
            found[(self.what, whose)] += self.sign * amount
        return found


@dataclass(frozen=True)
class Shown:
    """A value a card shows: ``what`` of ``whose`` is the number in group ``value``."""

    pattern: str
    what: str
    whose: int | str = ""
    value: int = 1
    # For a value shown as what is left of a maximum (Mediana's PV): the maximum's group.
    of: int | None = None

    def read(self, text: str) -> dict[Key, tuple[int, int | None]]:
        found = {}
        for match in re.finditer(self.pattern, text, re.MULTILINE):
            whose = match.group(self.whose) if isinstance(self.whose, int) else self.whose
            maximum = int(match.group(self.of)) if self.of is not None else None
            found[(self.what, whose)] = (int(match.group(self.value)), maximum)
        return found


# -- Donjon -----------------------------------------------------------------------------------

DONJON_SCORES = {"ficha_heridas": "Heridas", "ficha_provisiones": "Provisiones", "ficha_riqueza": "Riqueza"}


def donjon_changes(text: str) -> Tally:
    """A Donjon card: banked dice spent (the roller's, "Se usan 2 dados…"; another side's,
    "(+ 2 guardados)" on its line), banked by the Ley de los Éxitos or by influence, given or
    taken by the GM, and the numbers of a character's sheet ("Ficha de Roland")."""
    found: Tally = Counter()
    lines = text.split("\n")
    pools = [m for m in (re.match(r"^(.*) \(\d+ dados?\): ", line) for line in lines) if m]
    roller = owner(pools[0].group(1)) if pools else ""
    for line in lines:
        spent = re.match(r"^↳ (.*?): .*\(\+ (\d+) (?:de )?guardados?\)", line)
        if spent and pools and spent.group(1) != pools[0].group(1):
            found[("dados", owner(spent.group(1)))] -= int(spent.group(2))
    used = re.search(r"^Se usan? (\d+) (?:de )?dados? de bonificación guardados?\.", text, re.MULTILINE)
    if used:
        found[("dados", roller)] -= int(used.group(1))
    influence = re.search(r"^✅ (\d+) (?:de )?dados? de bonificación guardados? para", text, re.MULTILINE)
    if influence:
        found[("dados", roller)] += int(influence.group(1))
    for sentence in DONJON_SENTENCES:
        found.update(sentence.read(text))
    character = re.search(r" como \*\*(.+?)\*\*", pools[0].group(1)) if pools else None
    found.update(scores(text, character.group(1) if character else roller))
    return found


def scores(text: str, whose: str) -> Tally:
    """ "Riqueza −2" anywhere on a card is a change to the character's (``whose``) number,
    or to the one its "Ficha de X" field names; asking the player to note it ("anota Riqueza
    −2 en tu hoja", "Esa ficha ya no existe") announces nothing of the books."""
    found: Tally = Counter()
    text = re.sub(r"[^\n]*(?:anota [^\n]* en tu hoja|ya no existe)[^\n]*", "", text)
    sheet = re.search(
        r"^Ficha de (.+)\n((?:(?:Heridas|Provisiones|Riqueza) .*(?:\n|$))+)", text, re.MULTILINE
    )
    blocks = [(text, whose)]
    if sheet:
        blocks = [(text.replace(sheet.group(0), ""), whose), (sheet.group(2), sheet.group(1))]
    for block, name in blocks:
        for what, sign, amount in re.findall(r"(Heridas|Provisiones|Riqueza) ([+−])(\d+)", block):
            found[(what, name)] += int(amount) * (1 if sign == "+" else -1)
    return found


def owner(label: str) -> str:
    """Whose bank a pool's label names: a player's mention, else the GM (an NPC is the GM's)."""
    mention = re.match(MENTION, label)
    return mention.group(1) if mention else "el DJ"


DONJON_SENTENCES = (
    Sentence(r"^🎲 Dado guardado para (<@\d+>|el DJ)\.", "dados", whose=1, amount=None),
    Sentence(rf"^El DJ da {NUMBER} (?:de )?dados? guardados? a {MENTION}", "dados", whose=2),
    Sentence(rf"^El DJ quita {NUMBER} (?:de )?dados? guardados? a {MENTION}", "dados", -1, whose=2),
    Sentence(rf"^El DJ suma {NUMBER} (?:de )?dados? a sus dados guardados", "dados", whose="el DJ"),
    Sentence(rf"^El DJ quita {NUMBER} (?:de )?dados? de sus dados guardados", "dados", -1, whose="el DJ"),
)


# -- Dune ---------------------------------------------------------------------------------------

DUNE_SENTENCES = (
    Sentence(rf"^Se añaden? {NUMBER} de Impulso a la reserva del grupo", "Impulso"),
    Sentence(rf"^<@\d+> gasta {NUMBER} de Impulso del grupo", "Impulso", -1),
    Sentence(rf"^<@\d+> añade {NUMBER} de Amenaza", "Amenaza"),
    Sentence(rf"^El DJ gasta {NUMBER} de Amenaza", "Amenaza", -1),
    Sentence(rf"^{MENTION} recibe {NUMBER} de Determinación", "Determinación", whose=1, amount=2),
    Sentence(rf"^{MENTION} pierde {NUMBER} de Determinación", "Determinación", -1, whose=1, amount=2),
    Sentence(rf"^{MENTION} gasta {NUMBER} de Determinación", "Determinación", -1, whose=1, amount=2),
    Sentence(rf"^\d+ (?:de )?dados?: {NUMBER} de Impulso", "Impulso", -1),
    Sentence(rf"^\d+ (?:de )?dados?: \+{NUMBER} de Amenaza", "Amenaza"),
    Sentence(rf"^\d+ (?:de )?dados?: {NUMBER} de Impulso y \+\d+ de Amenaza", "Impulso", -1),
    Sentence(rf"^\d+ (?:de )?dados?: \d+ de Impulso y \+{NUMBER} de Amenaza", "Amenaza"),
    Sentence(rf"^Impulso guardado\n{NUMBER} a la reserva del grupo", "Impulso"),
)
DUNE_SHOWN = (
    Shown(rf"^Impulso: \*\*{NUMBER}\*\*/\d+", "Impulso"),
    Shown(rf"^Amenaza: \*\*{NUMBER}\*\*", "Amenaza"),
    Shown(rf"^Determinación de {MENTION}: \*\*{NUMBER}\*\*", "Determinación", whose=1, value=2),
)

# -- Mediana and D&D ----------------------------------------------------------------------------

MEDIANA_SENTENCES = (
    Sentence(rf"^{MENTION} pierde {NUMBER} PV", "PV", -1, whose=1, amount=2),
    Sentence(rf"^{MENTION} recupera {NUMBER} PV", "PV", whose=1, amount=2),
)


def mediana_changes(text: str) -> Tally:
    """Mediana's PV: "<@1> pierde 3 PV", and a damage roll's target "Maese Tobías: 18 →
    **15**/18 PV" (named by its sheet; the PV are its player's)."""
    found = sentences(*MEDIANA_SENTENCES)(text)
    for name, before, after in re.findall(r"^(.+?): (-?\d+) → \*\*(-?\d+)\*\*/\d+ PV", text, re.MULTILINE):
        found[("PV", name)] += int(after) - int(before)
    return found


MEDIANA_SHOWN = (Shown(rf"^{MENTION}: \*\*(-?\d+)\*\*/{NUMBER} PV", "PV", whose=1, value=2, of=3),)
DND_SENTENCES = (
    Sentence(rf"^✨ {MENTION} recibe inspiración heroica", "inspiración", whose=1, amount=None),
    Sentence(rf"^✨ {MENTION} gasta su inspiración heroica", "inspiración", -1, whose=1, amount=None),
)


def dnd_changes(text: str) -> Tally:
    """A D&D card: inspiration given, and a sheet's hit points ("Lía Brezo recibe 7 de daño
    … PG 38 → 31 de 38")."""
    found: Tally = Counter()
    for sentence in DND_SENTENCES:
        found.update(sentence.read(text))
    pattern = r"^(?:🩸 )?(.+?) recibe \d+ de daño\..*?PG (\d+) → (\d+)"
    for name, before, after in re.findall(pattern, text, re.MULTILINE | re.DOTALL):
        found[("PG", name)] += int(after) - int(before)
    return found


# /mesa's cards name pools by their catalog names ("dados guardados de <@1>", "Impulso").
MESA_POOLS = {
    "Impulso": ("Impulso", 1),
    "Amenaza": ("Amenaza", 1),
    "Determinación": ("Determinación", 1),
    "dados guardados del DJ": ("dados", 1),
    "dados guardados": ("dados", 1),
    "inspiración heroica": ("inspiración", 1),
    "PV perdidos": ("PV", -1),
    "PG": ("PG", 1),
    "Heridas": ("Heridas", 1),
    "Provisiones": ("Provisiones", 1),
    "Riqueza": ("Riqueza", 1),
}
# Whose, when a card does not say: any owner of that pool (compared with their sum).
ANYONE = "*"


def mesa_changes(text: str) -> Tally:
    """/mesa deshacer and /mesa escena-fin, at any table: "Anulada la entrada `#1`: dados
    guardados de <@2> **-3** → 0", "Impulso: -1 (queda 0).", "dados guardados: -3 (queda 0)."."""
    found: Tally = Counter()
    names = "|".join(re.escape(name) for name in MESA_POOLS)
    undone = rf"^Anulada la entrada `#\d+`: ({names})(?: de (<@\d+>|la ficha n\.º \d+))? \*\*([+-]\d+)\*\*"
    for name, owned, delta in re.findall(undone, text, re.MULTILINE):
        what, sign = MESA_POOLS[name]
        whose = "el DJ" if name.endswith("del DJ") else owned.replace("la ficha n.º ", "#")
        found[(what, whose if whose or what in ("Impulso", "Amenaza") else ANYONE)] += sign * int(delta)
    for name, delta in re.findall(rf"^({names}): ([+-]\d+) \(queda \d+\)\.", text, re.MULTILINE):
        what, sign = MESA_POOLS[name]
        found[(what, "" if what in ("Impulso", "Amenaza") else ANYONE)] += sign * int(delta)
    return found


@dataclass(frozen=True)
class Adventure:
    """ "Empieza la aventura: 2 jugadores (<@1>, <@2>) con 1 de Determinación y 4 de Amenaza"."""

    def read(self, text: str) -> dict[Key, tuple[int, int | None]]:
        found: dict[Key, tuple[int, int | None]] = {}
        pattern = r"Empieza la aventura: .*?\((.*?)\) con (\d+) de Determinación y (\d+) de Amenaza"
        for players, points, threat in re.findall(pattern, text):
            found.update(
                {("Determinación", who): (int(points), None) for who in re.findall(MENTION, players)}
            )
            found[("Amenaza", "")] = (int(threat), None)
        return found


@dataclass(frozen=True)
class Reader:
    """How one system's cards announce changes and show values (besides /mesa's)."""

    changes: Callable[[str], Tally]
    shown: tuple[Shown | Adventure, ...] = ()

    def read(self, text: str) -> Tally:
        found = self.changes(text)
        found.update(mesa_changes(text))
        return found


def sentences(*table: Sentence) -> Callable[[str], Tally]:
    def read(text: str) -> Tally:
        found: Tally = Counter()
        for sentence in table:
            found.update(sentence.read(text))
        return found

    return read


READERS = {
    "donjon": Reader(donjon_changes),
    "dune": Reader(sentences(*DUNE_SENTENCES), (*DUNE_SHOWN, Adventure())),
    "mediana": Reader(mediana_changes, MEDIANA_SHOWN),
    "dnd5e": Reader(dnd_changes),
}


# -- the books ------------------------------------------------------------------------------------

# A ledger pool as cards name it; ``whose`` is the owner as a mention, a sheet's name or "".
POOL_NAMES = {
    **DONJON_SCORES,
    "dados": "dados",
    "dados_dj": "dados",
    "impulso": "Impulso",
    "amenaza": "Amenaza",
    "determinacion": "Determinación",
    "mediana_heridas": "PV",
    "ficha_pg": "PG",
    "inspiracion": "inspiración",
}
# Pools of what was lost: the card says the PV left, the pool holds the PV lost.
LOST = frozenset({"mediana_heridas"})
SHEET_POOLS = frozenset({*DONJON_SCORES, "ficha_pg"})
TABLE_POOLS = frozenset({"impulso", "amenaza"})


@dataclass
class Play:
    """A table driven through the harness, checked after every interaction."""

    harness: Harness
    system: str
    sheets: bool = False
    seen: int = 0
    checked: int = 0
    names: dict[int, str] = field(default_factory=dict)

    @property
    def reader(self) -> Reader:
        return READERS[self.system]

    def messages(self) -> dict[int, tuple[str, tuple[str, ...]]]:
        """Every message but the live board's: its text, and its buttons (a copy of a card,
        as a reveal posts it, has the same; a new roll's buttons carry its own id)."""
        board = self.harness.discord.board_messages
        return {
            i: (text_of(m.data), tuple(c for c in m.custom_ids if not c.startswith("secreta")))
            for i, m in self.harness.discord.messages.items()
            if i not in board
        }

    async def slash(self, command: str, **options: Any) -> Reply:
        return await self.checking(self.harness.slash(command, **options))

    async def click(self, message: Message, custom_id: str, **options: Any) -> Reply:
        return await self.checking(self.harness.click(self.harness.current(message), custom_id, **options))

    async def feed(self, payload: dict[str, Any]) -> Reply:
        return await self.checking(self.harness.feed(dict(payload)))

    async def checking(self, interaction: Awaitable[Reply], extra: Tally | None = None) -> Reply:
        """Each message the interaction posted or edited must announce every change exactly
        as the ledger holds it; every ledger row must be announced by one (or its pool's
        value shown)."""
        before = self.messages()
        reply = await interaction
        after = self.messages()
        cards: list[tuple[str, Tally]] = []
        shown: dict[Key, tuple[int, int | None]] = {}
        copies = set(before.values())
        for message_id, (text, buttons) in after.items():
            old = before.get(message_id, ("", ()))[0]
            if old == text or (not old and (text, buttons) in copies):
                continue
            told = self.reader.read(text)
            told.subtract(self.reader.read(old))
            cards.append((text, await self.named(told)))
            for value in self.reader.shown:
                shown.update(value.read(text))
        if extra and not any(key in told for _, told in cards for key in extra):
            cards.append(("", extra))
        booked = await self.booked()
        for text, told in cards:
            for key, n in told.items():
                assert n == self.sum(booked, key), f"the card says {key} {n:+d}, the ledger {booked}:\n{text}"
        said = {key for _, told in cards for key in told}
        for (what, whose), n in booked.items():
            unsaid = not {(what, whose), (what, ANYONE)} & said and (what, whose) not in shown
            assert not n or not unsaid, f"the ledger holds {what} of {whose} {n:+d}, no card says it"
        for key, (value, maximum) in shown.items():
            assert await self.held(key, maximum) == value, f"the card shows {key} = {value}"
        self.checked += 1
        return reply

    @staticmethod
    def sum(booked: Tally, key: Key) -> int:
        what, whose = key
        return sum(n for (w, o), n in booked.items() if w == what and whose in (o, ANYONE))

    async def named(self, told: Tally) -> Tally:
        """A tally with its zeros dropped, a sheet's number ("#1") as its name, and a sheet
        named for PV that are its player's (Mediana's PV pool is the player's)."""
        found: Tally = Counter()
        for (what, whose), n in told.items():
            if not n:
                continue
            if whose.startswith("#"):
                whose = await self.sheet_name(int(whose[1:]))
            elif what == "PV" and not re.fullmatch(MENTION, whose):
                whose = await self.player_of(whose)
            found[(what, whose)] += n
        return found

    async def player_of(self, name: str) -> str:
        assert self.harness.bot is not None
        rows = await self.harness.bot.store.sheets(CHANNEL_ID)
        owners = {row.owner_id for row in rows if row.name == name and not row.npc}
        return f"<@{owners.pop()}>" if len(owners) == 1 else name

    async def announce(self, interaction: Awaitable[Reply], extra: Tally) -> Reply:
        """An interaction whose card announces ``extra`` in words no reader parses (yet: once
        a reader finds the change in the card's words, those count)."""
        return await self.checking(interaction, extra)

    async def booked(self) -> Tally:
        """The ledger rows written since the last check, by pool as the cards name them."""
        assert self.harness.bot is not None
        rows = await self.harness.bot.store.ledger(CHANNEL_ID, limit=200)
        fresh = [r for r in rows if r.id > self.seen]
        self.seen = max([self.seen, *(r.id for r in rows)])
        found: Tally = Counter()
        for row in fresh:
            found[(POOL_NAMES.get(row.pool, row.pool), await self.whose(row.pool, row.owner_id))] += (
                -row.delta if row.pool in LOST else row.delta
            )
        return found

    async def whose(self, pool: str, owner_id: int) -> str:
        if pool in TABLE_POOLS:
            return ""
        if pool == "dados_dj":
            return "el DJ"
        if pool in SHEET_POOLS:
            return await self.sheet_name(owner_id)
        return f"<@{owner_id}>"

    async def sheet_name(self, sheet_id: int) -> str:
        assert self.harness.bot is not None
        if sheet_id not in self.names:
            row = await self.harness.bot.store.sheet(CHANNEL_ID, sheet_id)
            assert row is not None, f"a ledger row for sheet no. {sheet_id}, which is gone"
            self.names[sheet_id] = row.name
        return self.names[sheet_id]

    async def held(self, key: Key, maximum: int | None) -> int:
        """What the books hold for a value a card shows."""
        pool = next(p for p, name in POOL_NAMES.items() if name == key[0] and p not in ("dados_dj",))
        user = re.match(r"<@(\d+)>", key[1])
        value = await self.harness.pool(pool, int(user.group(1)) if user else 0)
        return maximum - value if pool in LOST and maximum is not None else value


# -- the cases ------------------------------------------------------------------------------------


def custom_id(message: Message, prefix: str) -> str:
    found = [c for c in message.custom_ids if c.startswith(prefix)]
    assert found, f"no {prefix} in {message.custom_ids}"
    return found[0]


async def donjon_banked_dice(play: Play) -> None:
    """Banked dice spent (the roller's, the GM's, a rival's), banked by the Ley de los Éxitos
    (for the winner and for a friend), given and taken by the GM; *Repetir* spends none."""
    h = play.harness
    mine = {"atributo": "virilidad"} if play.sheets else {"dados": 2}
    await play.slash("donjon banco ajustar", user=GM, cantidad=3, jugador=PLAYER)
    await play.slash("donjon banco ajustar", user=GM, cantidad=4)
    h.script(*([10] * 4), *([5] * 3))
    own = await play.slash("donjon prueba", banco=2, contra=3, **mine)
    await play.click(own.message, custom_id(own.message, "donjon:ley:dado"))
    h.script(*([10] * 2), *([5] * 5))
    gm = await play.slash("donjon prueba", user=GM, jugador=PLAYER, dados=2, contra=3, banco_dj=2)
    await play.click(gm.message, custom_id(gm.message, "donjon:ley:dado"))
    friend = await play.click(gm.message, custom_id(gm.message, "donjon:ley:amigo"))
    await play.click(friend.message, friend.message.custom_ids[0], picked=[OTHER], component_type=5)
    h.script(*([10] * 2), *([5] * 4))
    rival = await play.slash(
        "donjon enfrentada", user=GM, jugador=PLAYER, dados=2, rival=OTHER, rival_dados=3, rival_banco=1
    )
    h.script(*([10] * 2), *([5] * 3))
    await play.click(rival.message, rival.message.custom_ids[-1])
    h.script(*([1] * 3), *([10] * 5))
    await play.slash("donjon daño", user=GM, jugador=PLAYER, aguante=3, bonificacion_dj=2)
    await play.slash("donjon banco ajustar", user=GM, cantidad=-1, jugador=PLAYER)
    await play.slash("donjon banco ajustar", user=GM, cantidad=-1)


async def donjon_expenses(play: Play) -> None:
    """Every Prueba de Gastos, won and lost, and a *Repetir*: booked on the sheet with one
    (Roland: Riqueza 3, Provisiones 5), to be noted by hand without; influence banks dice."""
    h = play.harness
    social = {"sociabilidad": 2}
    h.script(*([10] * 3), *([5] * 3))
    bought = await play.slash("donjon gastos comprar", riqueza=1, valor=3, **social)
    h.script(*([10] * 3), *([5] * 3))
    await play.click(bought.message, bought.message.custom_ids[-1])
    h.script(*([10] * 6), *([5] * 3))
    await play.slash("donjon gastos vender", valor=4, riqueza=3, **social)
    h.script(*([10] * 3), *([5] * 4))
    await play.slash("donjon gastos provisiones", riqueza=1, provisiones=4, **social)
    h.script(*([10] * 3), 5, 5)
    await play.slash("donjon gastos influencia", riqueza=1, riqueza_pnj=1, discernimiento_pnj=1, **social)
    h.script(*([10] * 5), *([5] * 3))
    await play.slash("donjon gastos objeto", provisiones=2, cerebralidad=3)
    h.script(*([1] * 3), *([10] * 3))
    await play.slash("donjon gastos comprar", riqueza=1, valor=3, **social)


async def donjon_damage(play: Play) -> None:
    h = play.harness
    h.script(*([5] * 3), 10, 10, 1)
    await play.slash("donjon daño", user=GM, jugador=PLAYER, aguante=3)
    h.script(*([1] * 3), *([10] * 3))
    hurt = await play.slash("donjon daño", aguante=3)
    h.script(*([1] * 3), *([10] * 3))
    await play.click(hurt.message, hurt.message.custom_ids[-1])
    h.script(*([10] * 3), *([1] * 3))
    await play.slash("donjon daño", aguante=3)


async def donjon_sheet_gone(play: Play) -> None:
    h = play.harness
    h.script(*([10] * 3), *([5] * 3))
    bought = await play.slash("donjon gastos comprar", riqueza=1, valor=3)
    await play.slash("ficha borrar", ficha="Roland el Explorador")
    h.script(*([10] * 3), *([5] * 3))
    again = await play.click(bought.message, bought.message.custom_ids[-1])
    assert "Esa ficha ya no existe" in again.text


async def donjon_replayed_press(play: Play) -> None:
    from tests.support.payloads import interaction_payload

    h = play.harness
    h.script(*([10] * 2), *([5] * 3))
    roll = await play.slash("donjon prueba", dados=2, contra=3)
    press = interaction_payload(
        3,
        {"custom_id": custom_id(roll.message, "donjon:ley:dado"), "component_type": 2},
        user=PLAYER,
        locale="es-ES",
        channel_id=CHANNEL_ID,
        message=h.current(roll.message).payload(),
        channels=h.channels,
    )
    await play.feed(press)
    await play.feed(press)
    assert await h.pool("dados", PLAYER.id) == 1


async def donjon_narrated(play: Play) -> None:
    """Facts told and narrated one by one on the V2 narration: nothing booked, nothing said."""
    h = play.harness
    h.script(20, 20, 1, 1)
    roll = await play.slash("donjon prueba", dados=2, contra=2)
    await play.click(roll.message, custom_id(roll.message, "donjon:ley:dado"))
    form = await play.click(roll.message, custom_id(roll.message, "donjon:ley:hecho"))
    told = await play.checking(
        h.submit(form.modal_id, {"hecho": "La puerta cede"}, message=h.current(roll.message))
    )
    narration = told.messages[-1]
    await play.click(narration, custom_id(narration, "donjon:narrado:"), user=GM)


async def donjon_quiet(play: Play) -> None:
    """Tests that book nothing announce nothing: a plain test, the attributes, the panels."""
    h = play.harness
    h.script(*([10] * 2), *([5] * 3))
    await play.slash("donjon prueba", dados=2, dificultad="media")
    h.script(*([3] * 18))
    await play.slash("donjon atributos", metodo="mejorado")
    await play.slash("donjon iniciativa")
    await play.slash("donjon hechos")
    await play.slash("donjon banco ver")


async def dune_pools(play: Play) -> None:
    await play.slash("dune impulso añadir", user=GM, cantidad=4)
    await play.slash("dune impulso gastar", cantidad=1)
    await play.slash("dune amenaza añadir", cantidad=2)
    await play.slash("dune amenaza gastar", user=GM, cantidad=1)
    await play.slash("dune determinacion dar", user=GM, jugador=PLAYER, cantidad=2)
    await play.slash("dune determinacion quitar", user=GM, jugador=PLAYER)
    await play.slash("dune determinacion gastar")


async def dune_roll(play: Play) -> None:
    h = play.harness
    await play.slash("dune impulso añadir", user=GM, cantidad=4)
    h.script(5, 6, 7, 8)
    roll = await play.slash("dune tirada", habilidad=6, motivacion=6, dados_extra=2, dificultad=1)
    await play.click(roll.message, custom_id(roll.message, "dune:rasgo"))
    await play.click(roll.message, custom_id(roll.message, "dune:guardar"))
    h.script(5, 6, 7)
    await play.slash("dune tirada", habilidad=6, motivacion=6, dados_extra=1, pago="amenaza")
    h.script(2, 3)
    spent = await play.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    await play.click(spent.message, custom_id(spent.message, "dune:info"))
    await play.click(spent.message, custom_id(spent.message, "dune:rasgo"))


async def dune_complication(play: Play) -> None:
    """Ignoring a complication costs 2 Amenaza; the card's pools line shows it."""
    play.harness.script(20, 3)
    roll = await play.slash("dune tirada", habilidad=6, motivacion=6, dificultad=1)
    await play.click(roll.message, custom_id(roll.message, "dune:ignorar"))


async def dune_adventure_and_scene(play: Play) -> None:
    """An adventure sets Determinación and Amenaza; the end of a scene loses one Impulso."""
    await play.slash("dune determinacion dar", user=GM, jugador=OTHER, cantidad=3)
    await play.slash("dune impulso añadir", user=GM, cantidad=2)
    await play.slash("dune aventura", user=GM, jugadores=f"<@{PLAYER.id}> <@{OTHER.id}>")
    await play.slash("mesa escena-fin", user=GM)


async def donjon_undo(play: Play) -> None:
    """Undoing a change writes compensating rows, and says what it reverted."""
    await play.slash("donjon banco ajustar", user=GM, cantidad=3, jugador=PLAYER)
    await play.slash("mesa deshacer", user=GM)


async def dnd_inspiration_spent(play: Play) -> None:
    await play.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    play.harness.script(3, 18)
    roll = await play.slash("dnd prueba", modificador=0, desventaja=True, cd=10)
    play.harness.script(15)
    await play.click(roll.message, custom_id(roll.message, "dnd:insp0"))


async def dnd_inspiration_on_damage(play: Play) -> None:
    """Heroic Inspiration spent on one die of a hit's damage, not on the d20."""
    await play.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    play.harness.script(15, 1, 5)
    attack = await play.slash("dnd ataque", bonificador=5, ca=10, dano="2d6")
    play.harness.script(6)
    menu = custom_id(attack.message, "dnd:inspdano:")
    await play.click(attack.message, menu, values=["0"], component_type=3)


async def dnd_initiative_inspiration(play: Play) -> None:
    """Heroic Inspiration spent on one's own initiative, from the private offer."""
    await play.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)
    await play.slash("dnd iniciativa panel")
    play.harness.script(3)
    joined = await play.slash("dnd iniciativa unirme", modificador=2)
    play.harness.script(18)
    await play.click(joined.message, custom_id(joined.message, "dnd:ini:insp0"))


async def mediana_rest(play: Play) -> None:
    await play.slash("mediana pv daño", user=GM, cantidad=5, jugador=PLAYER)
    await play.slash("mediana descanso", comodidad=True)


async def mediana_quiet(play: Play) -> None:
    play.harness.script(5, 5, 5)
    await play.slash("mediana tirada", atributo=4, habilidad=3, dificultad=10)


async def dnd_quiet(play: Play) -> None:
    play.harness.script(12)
    await play.slash("dnd prueba", modificador=3, cd=10)


async def mediana_hit_points(play: Play) -> None:
    await play.slash("mediana pv daño", user=GM, cantidad=3, jugador=PLAYER)
    await play.slash("mediana pv curar", cantidad=1)


async def mediana_damage_to_a_target(play: Play) -> None:
    """ "absorción −2 (armadura de Maese Tobías) · total **3**": 3 off Maese Tobías's PV."""
    play.harness.script(4)
    await play.announce(
        play.harness.slash("mediana daño", user=GM, dados="1d6+1", objetivo="maese tobias"),
        Counter({("PV", f"<@{PLAYER.id}>"): -3}),
    )


async def dnd_inspiration(play: Play) -> None:
    await play.slash("dnd inspiracion dar", user=GM, jugador=PLAYER)


async def dnd_damage_to_a_sheet(play: Play) -> None:
    h = play.harness
    await play.slash("dnd iniciativa panel")
    h.script(15)
    await play.slash("dnd iniciativa unirme")
    h.script(15, 3, 4)
    attack = await play.slash("dnd ataque", user=GM, ca=10, bonificador=4, dano="2d6")
    menu = await play.click(attack.message, custom_id(attack.message, "dnd:dano:"), user=GM)
    await play.click(
        menu.message, menu.message.custom_ids[0], user=GM, values=[f"u{PLAYER.id}"], component_type=3
    )


Steps = Callable[[Play], Awaitable[None]]


@dataclass(frozen=True)
class Case:
    system: str
    sheets: bool
    steps: Steps


def case(system: str, sheets: bool, steps: Steps, *marks: pytest.MarkDecorator) -> Any:
    name = f"{steps.__name__}-{'fichas' if sheets else 'numeros'}"
    return pytest.param(Case(system, sheets, steps), id=name, marks=marks)


CASES = [
    case("donjon", False, donjon_banked_dice),
    case("donjon", True, donjon_banked_dice),
    case("donjon", False, donjon_expenses),
    case("donjon", True, donjon_expenses),
    case("donjon", False, donjon_damage),
    case("donjon", True, donjon_damage),
    case("donjon", True, donjon_sheet_gone),
    case("donjon", False, donjon_replayed_press),
    case("donjon", False, donjon_narrated),
    case("donjon", False, donjon_quiet),
    case("donjon", True, donjon_quiet),
    case("dune", False, dune_pools),
    case("dune", False, dune_roll),
    case("dune", True, dune_roll),
    case("dune", False, dune_complication),
    case("dune", False, dune_adventure_and_scene),
    case("donjon", False, donjon_undo),
    case("mediana", False, mediana_quiet),
    case("mediana", True, mediana_quiet),
    case("mediana", True, mediana_hit_points),
    case("mediana", True, mediana_rest),
    case("mediana", True, mediana_damage_to_a_target),
    case("dnd5e", False, dnd_quiet),
    case("dnd5e", True, dnd_quiet),
    case("dnd5e", True, dnd_inspiration),
    case("dnd5e", True, dnd_inspiration_spent),
    case("dnd5e", False, dnd_inspiration_on_damage),
    case("dnd5e", False, dnd_initiative_inspiration),
    case("dnd5e", True, dnd_damage_to_a_sheet),
]


@pytest.mark.parametrize("played", CASES)
async def test_every_change_a_card_announces_is_in_the_books(harness: Harness, played: Case) -> None:
    await harness.table_for(played.system)
    if played.sheets:
        await imported(harness, played.system)
    if played.system == "donjon":
        await harness.slash("donjon ajustes", user=GM, nivel=0)
    play = Play(harness, played.system, played.sheets)
    await play.booked()
    await played.steps(play)
    assert play.checked
    await harness.assert_ledger_matches()


def test_the_readers_read_what_the_cards_write() -> None:
    """A reader that misread its card would pass the invariant unread: each is pinned on the
    card's own lines (the roller's banked dice are said twice, once counted)."""
    card = "\n".join(
        [
            "Prueba",
            "<@1> como **Roland** (4 dados): **10**✓",
            "el DJ (5 dados): **5**",
            "↳ <@1> como **Roland**: Virilidad 2 (+ 2 guardados) = 4 dados",
            "↳ el DJ: PNJ 3 (+ 2 guardados) = 5 dados",
            "🎲 Dado guardado para <@1>.",
            "Se usan 2 dados de bonificación guardados.",
            "Ficha de Roland",
            "Riqueza −2",
            "Provisiones +1 (4 más no caben: el máximo es 100)",
        ]
    )
    assert donjon_changes(card) == {
        ("dados", "el DJ"): -2,
        ("dados", "<@1>"): -1,
        ("Riqueza", "Roland"): -2,
        ("Provisiones", "Roland"): 1,
    }
    assert READERS["dune"].changes("2 dados: 3 de Impulso\n<@1> gasta 1 de Determinación.") == {
        ("Impulso", ""): -3,
        ("Determinación", "<@1>"): -1,
    }
    assert dnd_changes("Lía Brezo recibe 7 de daño.\nPG 38 → 31 de 38") == {("PG", "Lía Brezo"): -7}
    assert mediana_changes("Maese Tobías: 18 → **15**/18 PV · en pie") == {("PV", "Maese Tobías"): -3}


def test_the_reader_reads_a_components_v2_message() -> None:
    """A V2 message has no embeds: its words are its Text Displays, nested as they come."""
    banked = {"type": 10, "content": "🎲 Dado guardado para <@1>."}
    section = {"type": 9, "components": [banked], "accessory": {"type": 2, "custom_id": "x"}}
    message = {"flags": 1 << 15, "components": [{"type": 17, "components": [section]}]}
    assert donjon_changes(text_of(message)) == {("dados", "<@1>"): 1}
