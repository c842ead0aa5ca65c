"""Every top-level command keeps headroom under Discord's 8,000 characters (issue #31).

Discord refuses a whole sync when one command passes 8,000 characters of names,
descriptions and choices, counting each field's longest localization. At 7,977 characters
``/donjon`` could not take one more option; the project's rule is 6,000, so that a new
option or a longer English sentence never breaks the sync. Rolls with many choices are
asked by the forms instead (``cogs/*/forms.py``).
"""

from tests.support.discord_schema import command_size
from tests.support.harness import Harness

# The project's ceiling for one top-level command (Discord's is 8,000).
HEADROOM = 6000


async def test_every_top_level_command_is_at_most_6000_characters(harness: Harness) -> None:
    sizes = {command["name"]: command_size(command) for command in harness.discord.commands}
    assert set(sizes) >= {"donjon", "dune", "dnd", "mediana", "ficha"}
    assert {name: size for name, size in sizes.items() if size > HEADROOM} == {}
