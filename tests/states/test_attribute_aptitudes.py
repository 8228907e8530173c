"""The Aptitude each Savage attribute is read from, picked on the settings page (issue 12: « pick the related
Aptitude »): a campaign whose list names its own Aptitudes (Force instead of Vigueur) reads Vigour from it."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.models import Event
from characters.models import CharacterRules, CharacterTrait
from characters.selectors import character_rules
from characters.services.trait_list import trait_add
from states.models import SavageSettings
from states.selectors import trait_die
from states.services.sheet import savage_sheet_update


def _client(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _post(table, client: Client, **changes: str):  # type: ignore[no-untyped-def]
    settings, _created = SavageSettings.objects.get_or_create(campaign=table.campaign)
    table.campaign.refresh_from_db()
    data = {"campaign-version": table.campaign.version, "campaign-savage_states": "on",
            "savage-version": settings.version, "savage-weigh_on_cecj": "on",
            **{f"savage-rank_{v}": d for v, d in settings.rank_dice.items()}, **changes}  # fmt: skip
    return client.post(reverse("campaigns:settings_section", args=[table.campaign.pk, "states"]), data)


def test_vigor_is_read_from_the_aptitude_the_narrator_picks(table):
    rules = character_rules(table.campaign)
    trait_add(campaign=table.campaign, actor=table.narrator, expected_version=rules.version, code="force",
              data={"name_fr": "Force", "name_en": "Strength", "kind": "aptitude", "default": 2})  # fmt: skip
    CharacterTrait.objects.create(character=table.pc, code="force", kind="aptitude", name_fr="Force",
                                  name_en="Strength", rank=6)  # fmt: skip
    state = savage_sheet_update(character=table.pc, actor=table.narrator, data={"vigor_die": "", "spirit_die": "",
                                "base_pace": 6, "base_parry": 5}, expected_version=None)  # fmt: skip
    assert str(trait_die(state, "vigor")) == "d4"  # no Vigueur on the sheet: Faible
    client = _client(table.narrator)
    page = client.get(reverse("campaigns:settings", args=[table.campaign.pk])).text
    assert "Force</option>" in page and "reads_vigor" in page
    assert _post(table, client, **{"savage-reads_vigor": "force"}).status_code == 302
    assert str(trait_die(state, "vigor")) == "d12"  # Excellent, through Force
    with translation.override("fr"):
        text = describe(Event.objects.filter(kind="savage.settings_changed").latest("pk"))
    assert "Vigueur lue depuis : l’Aptitude qui porte son nom → Force" in text
    with translation.override("en"):
        text = describe(Event.objects.filter(kind="savage.settings_changed").latest("pk"))
    assert "Vigour read from: the Aptitude bearing its name → Force" in text


def test_an_aptitude_not_in_the_list_is_refused_and_nothing_changes(table):
    client = _client(table.narrator, "en")
    before = Event.objects.count()
    response = _post(table, client, **{"savage-reads_vigor": "tir"})  # a Field of expertise, not an Aptitude
    assert response.status_code == 400 and "Select a valid choice" in response.text
    assert Event.objects.count() == before
    assert not (SavageSettings.objects.get(campaign=table.campaign).attribute_traits or {})
    assert CharacterRules.objects.filter(campaign=table.campaign).exists()


def test_the_roll_dialog_shows_the_die_of_the_aptitude_the_narrator_picked(table):
    """The sheet's roll dialog (states.bridge.attribute_rolls) reads Vigour as the Savage roll itself does: through
    the Aptitude picked on the settings page, not only the one bearing its name."""
    from states.bridge import attribute_rolls

    rules = character_rules(table.campaign)
    trait_add(campaign=table.campaign, actor=table.narrator, expected_version=rules.version, code="force",
              data={"name_fr": "Force", "name_en": "Strength", "kind": "aptitude", "default": 2})  # fmt: skip
    CharacterTrait.objects.create(character=table.pc, code="force", kind="aptitude", name_fr="Force",
                                  name_en="Strength", rank=6)  # fmt: skip
    state = savage_sheet_update(character=table.pc, actor=table.narrator, data={"vigor_die": "", "spirit_die": "",
                                "base_pace": 6, "base_parry": 5}, expected_version=None)  # fmt: skip
    table.campaign.savage_states = True
    table.campaign.save(update_fields=["savage_states"])
    settings, _created = SavageSettings.objects.get_or_create(campaign=table.campaign)
    settings.attribute_traits = {"vigor": "force"}
    settings.save(update_fields=["attribute_traits"])
    pc = type(table.pc).objects.select_related("campaign").get(pk=table.pc.pk)
    rolls = {roll.trait: roll for roll in attribute_rolls(pc)}
    assert str(rolls["vigor"].die) == str(trait_die(state, "vigor")) == "d12"
