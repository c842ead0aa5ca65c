"""Record kinds more than one cog needs to name (no cog imports another cog)."""

MEDIANA_SHEET = "mediana_ficha"
# PV lost, per player: Mediana's wounds pool, which the active Mediana character sheet shares.
MEDIANA_WOUNDS = "mediana_heridas"
