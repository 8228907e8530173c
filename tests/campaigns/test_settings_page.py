"""The campaign's one settings page (issue 12): every section on one page, each saved on its own, versioned,
logged in words; the old pages send the narrator to their section."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.models import Campaign, Event
from characters.models import CharacterRules
from conflicts.models import TableSettings
from states.models import SavageSettings
from tests.campaigns.factories import campaign_with, narrator_of, players_of

pytestmark = pytest.mark.django_db

SECTIONS = ("campaign", "characters", "traits", "states", "cards", "public-log")


def logged_in(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def section_url(campaign: Campaign, key: str) -> str:
    return reverse("campaigns:settings_section", args=[campaign.pk, key])


def characters_data(campaign: Campaign, rules: CharacterRules, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "campaign-version": campaign.version, "campaign-creation_mode": campaign.creation_mode,
        "campaign-starting_atouts": campaign.starting_atouts, "campaign-session_award": campaign.session_award,
        "campaign-revers_recovery_light_days": campaign.revers_recovery_light_days,
        "campaign-revers_recovery_deep_days": campaign.revers_recovery_deep_days,
        "rules-version": rules.version, "rules-human_maximum": rules.human_maximum,
        "rules-progression": rules.progression, "rules-streamlined_atouts": rules.streamlined_atouts,
        "rules-potential_rest_hours": rules.potential_rest_hours, "rules-npc_out_after": rules.npc_out_after,
    }  # fmt: skip
    data.update(changes)
    return data


@pytest.mark.parametrize("language", ["fr", "en"])
def test_one_page_shows_every_section_in_both_languages(language: str, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=1)
    client = logged_in(narrator_of(campaign), language)
    url = reverse("campaigns:settings", args=[campaign.pk])
    client.get(url)  # the options rows are created on first read
    with django_assert_max_num_queries(16):
        page = client.get(url)
    assert page.status_code == 200
    for key in SECTIONS:
        assert f'id="settings-{key}"' in page.text
    words = (
        ("Liste des Caractéristiques", "Esprit", "Champs d’expertise") if language == "fr" else ("Trait list", "Mind")
    )
    for word in words:
        assert word in page.text.replace("&#x27;", "'")


def test_a_player_is_refused_the_page_and_every_section() -> None:
    campaign = campaign_with(players=1)
    client = logged_in(players_of(campaign)[0])
    assert client.get(reverse("campaigns:settings", args=[campaign.pk])).status_code == 403
    for key in SECTIONS:
        assert client.post(section_url(campaign, key), {"name": "Volé", "version": campaign.version}).status_code == 403
    campaign.refresh_from_db()
    assert campaign.name == "Les Ombres"


def test_an_unknown_section_is_404() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    assert client.post(section_url(campaign, "nothing"), {}).status_code == 404
    assert client.post(section_url(campaign, "public-log"), {}).status_code == 404  # its buttons post elsewhere


def test_the_campaign_section_saves_and_the_log_says_it_in_words() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    response = client.post(
        section_url(campaign, "campaign"), {"name": "Les Ombres de Paris", "description": "", "version": 1}
    )
    assert response.status_code == 302 and response["Location"].endswith("/settings/#settings-campaign")
    campaign.refresh_from_db()
    assert campaign.name == "Les Ombres de Paris" and campaign.version == 2
    event = Event.objects.get(kind="campaign.settings_changed")
    with translation.override("fr"):
        assert describe(event).endswith(
            "a modifié les réglages de la campagne : nom : Les Ombres → Les Ombres de Paris."
        )
    with translation.override("en"):
        assert "changed the campaign settings: name: Les Ombres → Les Ombres de Paris." in describe(event)


def test_the_characters_section_saves_campaign_and_rules_together_with_values_in_words() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    client = logged_in(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    rules = CharacterRules.objects.get(campaign=campaign)
    data = characters_data(campaign, rules, **{"campaign-creation_mode": "free", "rules-single_atout_help": "on"})
    response = client.post(section_url(campaign, "characters"), data)
    assert response.status_code == 302, response.text
    campaign.refresh_from_db()
    rules.refresh_from_db()
    assert campaign.creation_mode == "free" and rules.single_atout_help
    with translation.override("fr"):
        sentences = [describe(e) for e in Event.objects.filter(kind__endswith="_changed").order_by("pk")]
    text = " ".join(sentences)
    assert "création des personnages : Standard → Style libre" in text
    assert "deux joueurs peuvent chacun dépenser un Atout pour aider : non → oui" in text
    assert "creation_mode" not in text and "single_atout_help" not in text


def test_a_stale_section_is_refused_with_a_clear_message_and_keeps_what_was_typed() -> None:
    campaign = campaign_with()
    narrator = narrator_of(campaign)
    client = logged_in(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    rules = CharacterRules.objects.get(campaign=campaign)
    stale = characters_data(campaign, rules, **{"rules-human_maximum": 6})
    # Another narrator saves the same section first.
    assert client.post(section_url(campaign, "characters"), characters_data(campaign, rules, **{
        "rules-human_maximum": 8})).status_code == 302  # fmt: skip
    response = client.post(section_url(campaign, "characters"), stale)
    assert response.status_code == 409
    assert "Quelqu’un a modifié" in response.text or "Quelqu&#x27;un a modifié" in response.text
    assert 'name="rules-human_maximum" value="6"' in response.text  # what was typed is still there
    rules.refresh_from_db()
    assert rules.human_maximum == 8


def test_a_section_saved_as_shown_after_another_narrators_save_changes_nothing_and_is_not_refused() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    client.post(section_url(campaign, "campaign"), {"name": "A", "description": "", "version": 1})
    # The states section was drawn at the campaign's version 1: it changes nothing of the campaign row.
    response = client.post(section_url(campaign, "states"), {
        "campaign-version": 1, "campaign-savage_states": "on", "savage-version": 1, "savage-weigh_on_cecj": "on",
        **{f"savage-rank_{v}": d for v, d in SavageSettings().rank_dice.items()},
    })  # fmt: skip
    assert response.status_code == 302
    assert not Event.objects.filter(kind="savage.settings_changed").exists()


def test_bad_input_is_refused_in_the_readers_language_and_nothing_changes() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign), "en")
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    rules = CharacterRules.objects.get(campaign=campaign)
    before = Event.objects.count()
    response = client.post(
        section_url(campaign, "characters"), characters_data(campaign, rules, **{"campaign-starting_atouts": 0})
    )
    assert response.status_code == 400 and "A character starts with at least one Atout." in response.text
    response = client.post(section_url(campaign, "states"), {"campaign-version": 1, "savage-version": 1,
                                                             "savage-rank_4": "d7"})  # fmt: skip
    assert response.status_code == 400
    assert Event.objects.count() == before


def test_the_states_section_logs_each_change_in_words() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    dice = {f"savage-rank_{v}": d for v, d in SavageSettings().rank_dice.items()}
    response = client.post(section_url(campaign, "states"), {
        "campaign-version": 1, "campaign-savage_states": "on", "savage-version": 1, "savage-revers_to_wounds": "on",
        "savage-weigh_on_cecj": "on", **dice, "savage-rank_4": "d10",
    })  # fmt: skip
    assert response.status_code == 302
    event = Event.objects.get(kind="savage.settings_changed")
    with translation.override("fr"):
        text = describe(event)
    assert "les Revers physiques deviennent des Blessures : non → oui" in text
    assert "dé de trait au rang Moyen : d8 → d10" in text


def test_the_cards_section_saves_the_drawing_method_and_lists_the_decks() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign), "en")
    page = client.get(reverse("campaigns:settings", args=[campaign.pk]))
    assert "Decks appear with the first draw." in page.text
    response = client.post(
        section_url(campaign, "cards"),
        {"version": 1, "success_rule": "red", "layout": "table", "cover_mode": "attacker"},
    )
    assert response.status_code == 302
    assert TableSettings.objects.get(campaign=campaign).success_rule == "red"
    with translation.override("en"):
        assert "which cards succeed: Method 1: even cards succeed → Method 2: red cards succeed" in describe(
            Event.objects.get(kind="table.settings_changed")
        )
    refused = client.post(
        section_url(campaign, "cards"), {"version": 2, "success_rule": "red", "layout": "pairs_shared",
                                         "cover_mode": "attacker"},
    )  # fmt: skip
    assert refused.status_code == 400 and "Method 2 counts red cards" in refused.text


def test_the_public_log_is_published_from_its_section_and_back_to_it() -> None:
    campaign = campaign_with()
    client = logged_in(narrator_of(campaign))
    page = client.get(reverse("campaigns:settings", args=[campaign.pk])).text
    assert reverse("campaigns:public_log_toggle", args=[campaign.pk]) in page
    response = client.post(
        reverse("campaigns:public_log_toggle", args=[campaign.pk]),
        {"publish": "1", "next": reverse("campaigns:settings", args=[campaign.pk]) + "#settings-public-log"},
    )
    assert response["Location"].endswith("/settings/#settings-public-log")
    campaign.refresh_from_db()
    assert campaign.public_log_token


@pytest.mark.parametrize(
    ("name", "key"),
    [("characters:rules", "characters"), ("states:savage_settings", "states"), ("conflicts:table", "cards")],
)
def test_old_settings_pages_redirect_to_their_section(name: str, key: str) -> None:
    campaign = campaign_with(players=1)
    url = reverse(name, args=[campaign.pk])
    response = logged_in(narrator_of(campaign)).get(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:settings", args=[campaign.pk]) + f"#settings-{key}"
    assert logged_in(players_of(campaign)[0]).get(url).status_code == 403
