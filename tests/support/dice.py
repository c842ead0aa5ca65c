"""A generator that hands out chosen faces, to pin rules and cogs on exact dice."""

from __future__ import annotations

import random


class Scripted(random.Random):
    """``randint`` returns the scripted faces in order; running out is a test bug."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the test scripted too few dice"
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted {face} outside {a}..{b}"
        return face

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        """d20 rolls a die of ``n`` sides as ``randrange(n) + 1``: script its face."""
        assert stop is None, "only randrange(n) is scripted"
        return self.randint(1, start) - 1
