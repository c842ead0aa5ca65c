"""Names a player types for one of a fixed set of things (D&D's skills and abilities), in
either language, with or without accents, in any case, forgiving a slipped letter.

Discord sends an autocomplete option's *value* when the player picks a suggestion, but the
raw text when they type it out and press enter, so both paths come here: ``suggest`` feeds
the autocomplete and ``find`` turns whatever arrived (a key, a Spanish or English name, a
near miss) into the key. Fuzzy scores come from rapidfuzz.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from rapidfuzz import fuzz, process

from bot.errors import Refusal
from bot.i18n import LANGS, Lang, t

# A typed name this close to a known one (rapidfuzz ratio, 0-100) is taken for it:
# "percepcon" scores 95 against "percepcion", "stelth" 92 against "stealth", while the
# nearest pair of different skills ("persuasion"/"percepcion") scores 60.
CLOSE_ENOUGH = 85
# Suggestions may be looser than acceptance: the player still picks one.
ROUGHLY = 70
MAX_CHOICES = 25


def fold(text: str) -> str:
    """Lower case, no accents, single spaces: how two spellings are compared."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.replace("_", " ").split())


class Names:
    """The keys of one catalog family and every spelling of each. ``entry`` gives a key's
    catalog entry, written where the family is made with its literal prefix
    (``lambda skill: f"dnd.skill.{skill}"``), so that the entry is found by that prefix as
    every other key built from data is."""

    def __init__(self, entry: Callable[[str], str], keys: Iterable[str], unknown: str) -> None:
        self.entry = entry
        self.keys = tuple(keys)
        self.unknown = unknown
        self.spellings: dict[str, str] = {}
        for key in self.keys:
            for spelling in (key, *(self.name(lang, key) for lang in LANGS)):
                self.spellings.setdefault(fold(spelling), key)

    def name(self, lang: Lang, key: str) -> str:
        return t(lang, self.entry(key))

    def resolve(self, typed: str) -> str | None:
        """The key ``typed`` names: an exact spelling in either language, else the one
        known spelling close enough to it (None when none is, or two keys are)."""
        folded = fold(typed)
        if folded in self.spellings:
            return self.spellings[folded]
        close = process.extract(folded, list(self.spellings), scorer=fuzz.ratio, score_cutoff=CLOSE_ENOUGH)
        keys = {self.spellings[spelling] for spelling, _, _ in close}
        return keys.pop() if len(keys) == 1 else None

    def find(self, typed: str) -> str:
        """Like :meth:`resolve`, but a name that matches nothing is refused."""
        key = self.resolve(typed)
        if key is None:
            raise Refusal(self.unknown, name=typed[:40])
        return key

    def suggest(self, lang: Lang, typed: str) -> list[tuple[str, str]]:
        """(key, label) pairs for an autocomplete: every name containing what was typed in
        either language, else the closest spellings. A match found only through the other
        language shows that name too ("Sigilo (Stealth)"), so the player sees why."""
        folded = fold(typed)
        found = [key for key in self.keys if any(folded in s for s in self.spellings_of(key))]
        if not found and folded:
            close = process.extract(folded, list(self.spellings), scorer=fuzz.WRatio, score_cutoff=ROUGHLY)
            found = list(dict.fromkeys(self.spellings[spelling] for spelling, _, _ in close))
        return [(key, self.label(lang, key, folded)) for key in found][:MAX_CHOICES]

    def spellings_of(self, key: str) -> list[str]:
        return [s for s, k in self.spellings.items() if k == key]

    def label(self, lang: Lang, key: str, folded: str) -> str:
        own = self.name(lang, key)
        other = self.name("en" if lang == "es" else "es", key)
        return f"{own} ({other})" if folded not in fold(own) and folded in fold(other) else own


def closest(typed: str, names: Iterable[str]) -> str | None:
    """The one of ``names`` (free names on a character sheet: "Espada larga", "Rastrear
    Cualquier Cosa") that ``typed`` names: exactly, folded, else the single one close enough."""
    spellings = {fold(name): name for name in names}
    folded = fold(typed)
    if folded in spellings:
        return spellings[folded]
    close = process.extract(folded, list(spellings), scorer=fuzz.ratio, score_cutoff=CLOSE_ENOUGH)
    return spellings[close[0][0]] if len(close) == 1 else None


def containing(typed: str, names: Iterable[str]) -> list[str]:
    """For an autocomplete: the names containing what was typed (folded), else the nearest."""
    names = list(names)
    folded = fold(typed)
    found = [name for name in names if folded in fold(name)]
    if not found and folded:
        close = process.extract(folded, [fold(n) for n in names], scorer=fuzz.WRatio, score_cutoff=ROUGHLY)
        found = [names[index] for _, _, index in close]
    return found[:MAX_CHOICES]
