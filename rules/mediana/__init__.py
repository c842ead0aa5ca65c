"""Mediana (1o3d10). Quotes from ``../shared/reglas/mediana-1o3d10.txt``."""
