"""Pages and one-tap actions: who may do what, htmx partials, and the live fragments."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.live import feed_subject
from campaigns.live_render import forget_renderings, rendering_of
from campaigns.models import Event
from states.models import SavageState
from states.services.fatigue import savage_fatigue_gain
from states.services.rounds import savage_round_set_participants
from states.services.shaken import savage_shaken_set
from states.services.wounds import savage_incapacitation_roll, savage_wounds_set
from states.subjects import round_subject, states_subject
from tests.campaigns.factories import membership


def client_for(user, language="en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def act(client, character, action, htmx=True, **data):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("states:savage_action", args=[character.pk, action]), data, **headers)


def test_a_player_changes_their_own_character(table):
    response = act(client_for(table.alice), table.pc, "shaken_on")
    assert response.status_code == 200
    assert f'id="savage-panel-{table.pc.pk}"' in response.content.decode()
    assert SavageState.objects.get(character=table.pc).shaken


def test_a_player_cannot_change_another_players_character(table):
    response = act(client_for(table.alice), table.other_pc, "shaken_on")
    assert response.status_code == 403
    assert not SavageState.objects.filter(character=table.other_pc).exists()


def test_a_player_cannot_see_or_touch_a_narrator_npc(table):
    assert act(client_for(table.alice), table.npc, "wounds_set", count=2).status_code == 404


def test_a_non_member_gets_404(table):
    assert act(client_for(table.stranger), table.pc, "shaken_on").status_code == 404
    assert client_for(table.stranger).get(reverse("states:savage_round", args=[table.campaign.pk])).status_code == 404


def test_only_narrators_award_jetons(table):
    assert act(client_for(table.alice), table.pc, "token_award", count=1).status_code == 403
    assert act(client_for(table.narrator), table.pc, "token_award", count=1).status_code == 200
    assert SavageState.objects.get(character=table.pc).tokens == 1


def test_narrators_act_on_every_character(table):
    client = client_for(table.narrator)
    for character in (table.pc, table.other_pc, table.npc):
        assert act(client, character, "wounds_set", count=1).status_code == 200
    assert SavageState.objects.filter(wounds=1).count() == 3


def test_a_refusal_is_shown_with_its_reason_and_changes_nothing(table):
    client = client_for(table.narrator)
    act(client, table.npc, "wounds_set", count=4)
    response = act(client, table.npc, "wounds_take", count=1)
    assert response.status_code == 400
    assert "no fifth wound" in response.content.decode()
    assert SavageState.objects.get(character=table.npc).wounds == 4


def test_a_stale_click_gets_409(table):
    client = client_for(table.alice)
    act(client, table.pc, "shaken_on")
    version = SavageState.objects.get(character=table.pc).version
    act(client, table.pc, "wounds_set", count=1, version=version)
    response = act(client, table.pc, "wounds_set", count=2, version=version)
    assert response.status_code == 409


def test_without_htmx_the_action_redirects_to_the_states_page(table):
    response = act(client_for(table.alice), table.pc, "shaken_on", htmx=False)
    assert response.status_code == 302 and response["Location"] == reverse("states:savage_state", args=[table.pc.pk])


def test_the_states_page_in_french_and_english(table):
    url = reverse("states:savage_state", args=[table.pc.pk])
    act(client_for(table.narrator), table.pc, "wounds_set", count=2)
    english = client_for(table.alice).get(url).content.decode()
    assert "Wounds 2" in english and "Roll" in english
    french = client_for(table.alice, "fr").get(url).content.decode()
    assert "Blessures 2" in french


def test_the_roll_dialog_rolls_with_the_penalties(table):
    client = client_for(table.alice)
    act(client, table.pc, "wounds_set", count=1)
    response = client.post(
        reverse("states:savage_roll", args=[table.pc.pk]), {"trait": "vigor", "modifier": 0}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "wounds −1" in response.content.decode()
    event = Event.objects.filter(kind="savage.roll").get()
    assert event.payload["roll"]["modifiers"] == [{"key": "wounds", "value": -1}]


def test_the_round_tracker_page_is_for_members_and_its_actions_for_narrators(table):
    url = reverse("states:savage_round", args=[table.campaign.pk])
    assert client_for(table.alice).get(url).status_code == 200
    deal = reverse("states:savage_round_action", args=[table.campaign.pk, "deal"])
    assert client_for(table.alice).post(deal).status_code == 403
    narrator = client_for(table.narrator)
    narrator.post(
        reverse("states:savage_round_action", args=[table.campaign.pk, "participants"]),
        {"characters": [table.pc.pk, table.npc.pk]},
    )
    response = narrator.post(deal, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "playing-card" in response.content.decode()


def test_savage_settings_are_for_narrators(table):
    url = reverse("campaigns:settings", args=[table.campaign.pk])
    assert client_for(table.alice).get(url).status_code == 403
    page = client_for(table.narrator).get(url)
    assert page.status_code == 200 and "d12+2" in page.content.decode()


def test_the_states_page_queries_stay_bounded(table, django_assert_max_num_queries):
    """The panel and the tracker are regions (states.regions): the first view after a change reads the subjects'
    versions once (one query more than before they were: 10 → 11, 7 → 8), a view of the same table serves them
    kept (10 → 9, 7 → 4), the state row read once for the panel and the forms beside it."""
    savage_fatigue_gain(character=table.pc, actor=table.alice, source="cold", expected_version=None)
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.pc, table.npc], expected_version=None
    )
    client = client_for(table.alice)
    for most in (11, 9):
        with django_assert_max_num_queries(most):
            assert client.get(reverse("states:savage_state", args=[table.pc.pk])).status_code == 200
    for most in (8, 4):
        with django_assert_max_num_queries(most):
            assert client.get(reverse("states:savage_round", args=[table.campaign.pk])).status_code == 200


def _live(event: Event, user: object, watching: list[str], language: str = "en") -> str:
    """The live message a page watching ``watching`` gets for ``event``, as its socket would."""
    forget_renderings()
    rendering = rendering_of(event.pk)
    assert rendering is not None
    return rendering.html_for(membership(event.campaign, user), watching=frozenset(watching), language=language,
                              csrf_token="x" * 32)  # fmt: skip


def test_live_regions_refresh_the_states_for_those_who_may_see_the_character(table):
    """The state panel and the round tracker are regions (states.regions): pushed from their declarations, rendered
    for each member, never by an event kind. The NPC's panel is the narrator's; a player sees it only on the round
    tracker, where it takes part."""
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.npc], expected_version=None
    )
    savage_wounds_set(character=table.npc, actor=table.narrator, count=4, expected_version=None)
    event = Event.objects.filter(kind="savage.wounds_set").get()
    panel, tracker = states_subject(table.npc.pk), round_subject(table.campaign.pk)
    narrator_html = _live(event, table.narrator, [panel])
    assert f'id="savage-panel-{table.npc.pk}" hx-swap-oob="true"' in narrator_html
    assert 'data-state="incapacitated"' in narrator_html
    assert f'id="savage-panel-{table.npc.pk}"' not in _live(event, table.alice, [panel])
    player_html = _live(event, table.alice, [tracker])
    # The player sees the NPC's new state on the round tracker, where the NPC takes part.
    assert f'id="savage-round-{table.campaign.pk}" hx-swap-oob="true"' in player_html
    assert 'data-state="incapacitated"' in player_html
    assert f'id="savage-panel-{table.npc.pk}"' not in player_html


def test_the_states_page_reads_what_just_happened_live(table):
    """A states page gets its panel as a fresh GET shows it and, in its feed beside it, the roll that changed it."""
    from django.utils.html import escape

    from campaigns.chronicle import describe

    savage_wounds_set(character=table.pc, actor=table.narrator, count=1, expected_version=None)
    event = Event.objects.filter(kind="savage.wounds_set").get()
    html = _live(event, table.alice, [states_subject(table.pc.pk), feed_subject(table.campaign.pk)])
    assert f'id="savage-panel-{table.pc.pk}" hx-swap-oob="true"' in html and escape(describe(event)) in html


@pytest.mark.django_db
def test_the_log_describes_every_savage_event(table):
    from campaigns.chronicle import describe

    savage_wounds_set(character=table.npc, actor=table.narrator, count=4, expected_version=None)
    savage_incapacitation_roll(character=table.npc, actor=table.narrator, expected_version=None)
    for event in Event.objects.filter(kind__startswith="savage."):
        text = describe(event)
        assert "happened" not in text and "Le Borgne" in text


def test_the_sheet_section_and_campaign_links_for_other_pages_to_include(table):
    from django.template.loader import render_to_string

    savage_shaken_set(character=table.pc, actor=table.alice, shaken=True, expected_version=None)
    from characters.models import Character

    fresh = Character.objects.get(pk=table.pc.pk)
    html = render_to_string("states/sheet_section.html", {"character": fresh})
    assert 'data-state="shaken"' in html and reverse("states:savage_state", args=[table.pc.pk]) in html
    # A character without a state row yet shows an empty badge strip, no error.
    assert f'id="savage-badges-{table.other_pc.pk}"' in render_to_string(
        "states/sheet_section.html", {"character": table.other_pc}
    )
    links = render_to_string(
        "states/campaign_links.html",
        {"campaign": table.campaign, "membership": membership(table.campaign, table.narrator)},
    )
    assert reverse("states:savage_round", args=[table.campaign.pk]) in links


def test_the_sheet_links_to_the_states_page_through_the_badges(table):
    page = client_for(table.alice).get(reverse("characters:detail", args=[table.pc.pk]))
    assert page.status_code == 200
    assert reverse("states:savage_state", args=[table.pc.pk]) in page.content.decode()


def test_a_roll_tap_answers_with_its_dice_penalties_and_outcome(table):
    client = client_for(table.narrator)
    act(client, table.npc, "wounds_set", count=4)
    response = act(client, table.npc, "incapacitation_roll")
    html = response.content.decode()
    assert "Le Borgne, incapacitated, rolls Vigour" in html and "wounds −3" in html


def test_a_secret_npcs_states_stay_with_the_narrators_until_it_joins_a_fight(table):
    savage_wounds_set(character=table.npc, actor=table.narrator, count=1, expected_version=None)
    alice = membership(table.campaign, table.alice)
    assert not Event.objects.visible_to(alice).filter(kind="savage.wounds_set").exists()
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.npc], expected_version=None
    )
    savage_wounds_set(character=table.npc, actor=table.narrator, count=2, expected_version=None)
    assert Event.objects.visible_to(alice).filter(kind="savage.wounds_set").count() == 1
