"""Donjon: opposed pools, the Ley de los Éxitos, and every test of the book.

Sections of ``../shared/reglas/donjon.txt`` are quoted in the docstrings. A test compares two
pools; the winner's successes are then spent under the Ley de los Éxitos ("1 éxito =
1 hecho o 1 dado"), except in expense and damage tests, where they are counted only.
"""
