"""Dune: Aventuras en el Imperio, the 2d20 skill test and the roll's life afterwards.

Sections of ``../shared/reglas/dune-2d20.txt`` quoted in the docstrings.
"""
