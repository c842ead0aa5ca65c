"""Record kinds more than one cog needs to name (no cog imports another cog)."""

MEDIANA_SHEET = "mediana_ficha"
