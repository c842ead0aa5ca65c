"""Saved rolls' named parameters: ``1d20+{bono}`` filled with ``bono=5``.

Pure text work, checked before anything is rolled: a parameter's value is a whole number
within :data:`VALUE_LIMIT` (it lands inside a dice expression, so nothing but digits and a
sign ever enters it), names are short identifiers, and a template names at most
:data:`MAX_PARAMETERS` of them. The filled expression then goes through
:func:`rules.expression.parse`, whose limits (dice, sides, length) still hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.errors import RuleError

MAX_PARAMETERS = 10
VALUE_LIMIT = 1000
# What ``valores`` may hold: ten ``name=value`` pairs fit easily.
MAX_VALUES_LENGTH = 200
_NAME = r"[a-z_][a-z0-9_]{0,15}"
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PAIR = re.compile(rf"\s*({_NAME})\s*=\s*([+-]?\d{{1,6}})\s*")


def placeholders(template: str) -> tuple[str, ...]:
    """The parameters ``template`` names, in order of first use; a malformed one (``{}``,
    ``{Bono!}``, an unclosed brace) is refused with its text."""
    names: list[str] = []
    for match in _PLACEHOLDER.finditer(template):
        name = match[1].strip().lower()
        if not re.fullmatch(_NAME, name):
            raise RuleError("template.bad_name", name=match[0][:20])
        if name not in names:
            names.append(name)
    if "{" in _PLACEHOLDER.sub("", template) or "}" in _PLACEHOLDER.sub("", template):
        raise RuleError("template.unbalanced")
    if len(names) > MAX_PARAMETERS:
        raise RuleError("template.too_many", max=MAX_PARAMETERS)
    return tuple(names)


def parse_values(text: str | None) -> dict[str, int]:
    """``"bono=5, fue=-1"`` (commas, semicolons or spaces between pairs) as a mapping."""
    if text is None or not text.strip():
        return {}
    if len(text) > MAX_VALUES_LENGTH:
        raise RuleError("template.values_too_long", max=MAX_VALUES_LENGTH, length=len(text))
    values: dict[str, int] = {}
    for chunk in re.split(r"[,;]|\s+(?=[a-z_][a-z0-9_]*\s*=)", text.strip().lower()):
        if not chunk.strip():
            continue
        match = _PAIR.fullmatch(chunk)
        if match is None:
            raise RuleError("template.bad_value", text=chunk.strip()[:40])
        value = int(match[2])
        if abs(value) > VALUE_LIMIT:
            raise RuleError("template.value_range", name=match[1], max=VALUE_LIMIT)
        values[match[1]] = value
    if len(values) > MAX_PARAMETERS:
        raise RuleError("template.too_many", max=MAX_PARAMETERS)
    return values


def fill(template: str, values: Mapping[str, int]) -> str:
    """The expression with every parameter replaced (a negative value in parentheses, so
    ``1d20+{bono}`` with ``bono=-1`` reads ``1d20+(-1)``). A parameter without a value, or
    a value for a parameter the template lacks, is refused by name."""
    names = placeholders(template)
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise RuleError("template.unknown", name=unknown[0])
    missing = [name for name in names if name not in values]
    if missing:
        raise RuleError("template.missing", name=missing[0])

    def value(match: re.Match[str]) -> str:
        number = values[match[1].strip().lower()]
        return f"({number})" if number < 0 else str(number)

    return _PLACEHOLDER.sub(value, template)
