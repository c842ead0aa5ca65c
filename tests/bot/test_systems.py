"""The registry of systems (bot/systems.py): one declaration a name, read by kind."""

from __future__ import annotations

import pytest

from bot import readers, systems
from bot.systems import Declaration
from tests.support.systems import DUNE, declare_all


def test_registering_a_system_again_is_no_change_but_another_of_its_name_is_refused() -> None:
    declare_all()
    before = systems.every()
    systems.register(DUNE, by="cogs.dune")
    assert systems.every() == before
    with pytest.raises(ValueError, match="two systems named 'dune'"):
        systems.register(Declaration(name=DUNE.name), by="cogs.otro")
    assert systems.declared(DUNE.name) is DUNE


def test_a_record_kind_another_system_reads_is_refused() -> None:
    """Its reader would be one system's and its dice another's (the first found, the last
    registered)."""
    declare_all()
    before = systems.every()
    with pytest.raises(ValueError, match=r"record kinds \['dune'\] declared by two systems"):
        systems.register(Declaration(name="otro", dice=DUNE.dice), by="cogs.otro")
    assert systems.every() == before and systems.declared("otro") is None
    assert systems.dice("dune") == ("dune", DUNE.dice["dune"])


def test_the_same_package_imported_again_declares_its_system_anew() -> None:
    """discord.py drops an unloaded extension's modules: loading it again imports its
    package anew, whose declaration is a new object under the same name."""
    declare_all()
    again = Declaration(name=DUNE.name)
    systems.register(again, by="cogs.dune")
    assert systems.declared(DUNE.name) is again
    assert systems.dice("dune") is None  # its kinds' dice are the new declaration's: none
    systems.register(DUNE, by="cogs.dune")
    assert systems.dice("dune") == ("dune", DUNE.dice["dune"])


def test_a_kind_is_read_by_the_system_that_declares_it_and_an_unknown_one_by_nobody() -> None:
    declare_all()
    assert systems.reader("dune") is DUNE.readers["dune"]
    assert systems.reader("otro") is None
    assert readers.read("es", "otro", {}) is None
    assert systems.declared(None) is None and systems.declared("otro") is None
