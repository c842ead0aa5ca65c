"""Record kinds more than one cog needs to name (no cog imports another cog)."""

MEDIANA_SHEET = "mediana_ficha"
# PV lost, per player: Mediana's wounds pool, which the active Mediana character sheet shares.
MEDIANA_WOUNDS = "mediana_heridas"
# The pools a character sheet owns (its live numbers, owned by the sheet's id): named "of
# sheet no. N" in the history, kept by a table reset, the GM's own when the sheet is an NPC's.
# Here, a leaf, because the store needs them too; bot/sheets/live.py builds its fields on them.
SHEET_POOLS = frozenset(
    {
        "ficha_pg",
        "ficha_pg_temp",
        "ficha_heridas",
        "ficha_provisiones",
        "ficha_riqueza",
        # A Dune drive crossed out after it was challenged (1) until it is recovered (0).
        *(f"ficha_tachada_{drive}" for drive in ("deber", "fe", "justicia", "poder", "verdad")),
        # A Dune drive defied since the adventure began (1): it may not be defied again.
        *(f"ficha_desafiada_{drive}" for drive in ("deber", "fe", "justicia", "poder", "verdad")),
    }
)
# Reasons of operations that also write a sheet's file (Dune's permanent asset joins the
# sheet's list of assets): ``/mesa deshacer`` refuses them, as compensating ledger rows
# cannot take the file back.
SHEET_FILE_REASONS = frozenset({"dune.asset.permanent"})
