"""What Donjon keeps at a table: the record kinds, the banks of dice and how they change."""

from __future__ import annotations

from bot.i18n import Lang, t
from bot.models import Change, Record
from bot.store import Store
from rules.donjon import posted
from rules.donjon.law import Law

KIND = "donjon"
COMBAT_KIND = "donjon_combate"
ATTRIBUTES_KIND = "donjon_atributos"
BANK = "dados"
GM_BANK = "dados_dj"
GM = 0  # the owner id that stands for "the GM" in a Law (and the GM's bank)


def bank_change(owner: int, delta: int) -> Change:
    return Change(GM_BANK, delta) if owner == GM else Change(BANK, delta, owner_id=owner)


async def pending_laws(store: Store, channel_id: int, *, secret: bool = False) -> list[tuple[Record, Law]]:
    """The tests whose facts still await narration, newest first, each with its Law. A
    secret test's stay with its secret until the reveal: only with ``secret`` (for the GM's
    eyes alone) are they among them."""
    pending = []
    for record in await store.records(channel_id, KIND, limit=200):
        law = posted.from_data(record.data).law
        if law is not None and law.pending and (secret or not record.secret):
            pending.append((record, law))
    return pending


def who(lang: Lang, user_id: int) -> str:
    return t(lang, "donjon.the_gm") if user_id == GM else f"<@{user_id}>"
