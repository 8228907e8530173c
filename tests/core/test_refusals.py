"""The engines' one refusal mechanism (core/refusals.py): a listed template reads in the reader's language
with its code words named; anything else keeps the engine's English."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import translation
from django.utils.translation import gettext_noop

from core.refusals import RefusalCatalogue, labelled


@dataclass
class Refused:
    template: str
    params: dict[str, object] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return self.template.format(**self.params)


CATALOGUE = RefusalCatalogue(
    [gettext_noop("the game is over"), gettext_noop("{action} is not allowed now ({phase})")],
    reworded={"healing never goes above the starting Santé": "healing never goes above the starting Health"},
    words={"phase": labelled({"over": "the end"})},
)


def test_a_listed_template_reads_in_the_active_language() -> None:
    with translation.override("fr"):
        assert CATALOGUE.text(Refused("the game is over")) == "la partie est terminée"
    with translation.override("en"):
        assert CATALOGUE.text(Refused("the game is over")) == "the game is over"


def test_code_words_are_named_and_other_parameters_kept() -> None:
    refusal = Refused("{action} is not allowed now ({phase})", {"action": "jump", "phase": "over"})
    with translation.override("en"):
        assert CATALOGUE.text(refusal) == "jump is not allowed now (the end)"


def test_a_reworded_template_reads_as_its_english_message() -> None:
    with translation.override("en"):
        assert CATALOGUE.text(Refused("healing never goes above the starting Santé")) == (
            "healing never goes above the starting Health"
        )


def test_an_unlisted_template_keeps_the_engines_english() -> None:
    with translation.override("fr"):
        assert CATALOGUE.text(Refused("a new {thing}", {"thing": "rule"})) == "a new rule"
    assert CATALOGUE.templates == {
        "the game is over",
        "{action} is not allowed now ({phase})",
        "healing never goes above the starting Santé",
    }
