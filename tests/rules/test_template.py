import pytest

from rules.errors import RuleError
from rules.expression import parse
from rules.template import fill, parse_values, placeholders


def test_parameters_are_found_once_in_order() -> None:
    assert placeholders("1d20+{bono}+{Fue}+{bono}") == ("bono", "fue")


def test_values_read_with_commas_semicolons_or_spaces() -> None:
    assert parse_values("bono=5, fue=-1; des = +2 car=0") == {"bono": 5, "fue": -1, "des": 2, "car": 0}
    assert parse_values(None) == {} and parse_values("  ") == {}


def test_a_negative_value_is_bracketed_and_the_result_parses() -> None:
    text = fill("1d20+{bono}", {"bono": -1})
    assert text == "1d20+(-1)"
    parse(text)


@pytest.mark.parametrize(
    ("template", "values", "key"),
    [
        ("1d20+{bono}", {}, "template.missing"),
        ("1d20", {"bono": 1}, "template.unknown"),
        ("1d20+{}", {}, "template.bad_name"),
        ("1d20+{bono!}", {}, "template.bad_name"),
        ("1d20+{bono", {}, "template.unbalanced"),
        ("1d20+bono}", {}, "template.unbalanced"),
        ("+".join(f"{{p{i}}}" for i in range(11)), {}, "template.too_many"),
    ],
)
def test_broken_templates_are_refused_by_name(template: str, values: dict[str, int], key: str) -> None:
    with pytest.raises(RuleError) as error:
        fill(template, values)
    assert error.value.key == key


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("bono", "template.bad_value"),
        ("bono=1d6", "template.bad_value"),
        ("bono=@everyone", "template.bad_value"),
        ("bono=1001", "template.value_range"),
        ("x=1," * 60, "template.values_too_long"),
        (", ".join(f"p{i}=1" for i in range(11)), "template.too_many"),
    ],
)
def test_bad_values_are_refused(text: str, key: str) -> None:
    with pytest.raises(RuleError) as error:
        parse_values(text)
    assert error.value.key == key
