"""Sequence pages: who sees what, the player's panel, odds through htmx, refusals shown, query counts."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.live import Viewer, extra_fragments, home_subject
from campaigns.models import Event
from characters.services.creation import npc_create
from conflicts.models import Participant
from conflicts.rules.budget import Split
from conflicts.services.drawing import participant_declare_split
from conflicts.services.sequences import participant_add, participant_update, sequence_create
from tests.campaigns.factories import PASSWORD, UserFactory, membership
from tests.conflicts.factories import draw, fight, npc
from tests.page_marks import without_page_marks

pytestmark = pytest.mark.django_db


def login(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    client.cookies["django_language"] = "en"
    return client


def test_narrator_sees_the_sequence_with_npc_values_and_controls() -> None:
    f = fight()
    page = login(f.narrator).get(reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Truand 1" in html and "Add a PC or an NPC" in html and "Modifiers of Truand 2" in html


def test_a_player_never_sees_an_npcs_trait_value_or_its_split() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    participant_update(participant=t, actor=f.narrator, data={"trait_value": 7}, expected_version=f.sequence.version)
    participant_declare_split(participant=t, actor=f.narrator, split=Split(attack={f.pc.key: 4}, defence={t.key: 3}))
    html = login(f.player).get(reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk])).content.decode()
    assert "Truand 1" in html
    assert "Exceptionnel" not in html and "Superb" not in html and "(7)" not in html
    assert "Modifiers of" not in html and "Add a PC or an NPC" not in html
    assert "defence not known yet" in html


def test_outsiders_get_404_and_players_cannot_open_an_npc_panel() -> None:
    f = fight(npcs=1)
    assert (
        login(UserFactory()).get(reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk])).status_code == 404
    )
    player = login(f.player)
    assert player.get(reverse("conflicts:panel", args=[f.campaign.pk, f.npcs[0].pk])).status_code == 404
    assert player.get(reverse("conflicts:panel", args=[f.campaign.pk, f.pc.pk])).status_code == 200
    refused = player.post(reverse("conflicts:settle", args=[f.campaign.pk, f.sequence.pk]))
    assert refused.status_code == 403


def test_odds_change_as_the_player_splits() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    client = login(f.player)
    url = reverse("conflicts:odds", args=[f.campaign.pk, f.pc.pk])
    all_in = client.post(url, {f"attack_{t.pk}": 5, f"defence_{f.pc.pk}": 0}, HTTP_HX_REQUEST="true").content.decode()
    careful = client.post(url, {f"attack_{t.pk}": 1, f"defence_{f.pc.pk}": 4}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="odds-' in all_in and "Cards placed: 5 of 5" in all_in
    assert all_in != careful
    assert "0.0%" in careful  # one attack card can never make a Serious Revers


def test_the_player_draws_from_the_panel_and_sees_the_cards() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    client = login(f.player)
    url = reverse("conflicts:split", args=[f.campaign.pk, f.pc.pk])
    response = client.post(url, {f"attack_{t.pk}": 3, f"defence_{f.pc.pk}": 2, "action": "draw", "version": f.sequence.version},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
    assert "Your cards are on the table" in response.content.decode()
    assert len(Participant.objects.get(pk=f.pc.pk).hand["attack"][t.key]) == 3


def test_refusals_are_shown_with_their_reason() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    client = login(f.player)
    url = reverse("conflicts:split", args=[f.campaign.pk, f.pc.pk])
    too_many = client.post(
        url, {f"attack_{t.pk}": 6, "action": "draw", "version": f.sequence.version}, HTTP_HX_REQUEST="true"
    )
    assert too_many.status_code == 400 and "only have 5" in too_many.content.decode()
    stale = f.sequence.version
    draw(t, f.narrator, Split(attack={f.pc.key: 3}))
    late = client.post(url, {f"attack_{t.pk}": 5, "action": "draw", "version": stale}, HTTP_HX_REQUEST="true")
    assert late.status_code == 409 and "Someone acted first" in late.content.decode()
    assert not Participant.objects.get(pk=f.pc.pk).drawn


def test_the_sequence_page_costs_the_same_queries_with_more_participants(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    client = login(f.narrator)
    url = reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk])
    client.get(url)
    with django_assert_max_num_queries(200) as small:
        client.get(url)
    count = len(small)  # read now: the next request resets Django's query log
    for i in range(4):
        extra = npc(f.campaign, f.narrator, f"Renfort {i}")
        participant_add(sequence=f.sequence, actor=f.narrator, character=extra, side="Truands", trait_code="combat")
    client.get(url)
    with django_assert_max_num_queries(count):
        client.get(url)


def test_the_players_sequence_page_reads_the_decks_once_cold(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """Nothing kept (after a change of the table): the deck list and the draw panel's odds share one read of the
    campaign's decks: session, user, member, sequence, participants, table settings, Revers, power feeds, the
    states' settings and rows, story, decks, and the versions of the board region's subjects (core.kept_regions:
    one read, which a page after a change unrelated to the board then saves the whole board with)."""
    from django.core.cache import caches

    f = fight(npcs=2)
    client = login(f.player)
    url = reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk])
    client.get(url)
    caches["fragments"].clear()
    with django_assert_max_num_queries(13) as cold:
        assert client.get(url).status_code == 200
    assert sum(1 for q in cold.captured_queries if '"conflicts_deck"' in q["sql"]) == 1


def test_a_sequence_whose_id_is_not_its_campaigns_opens() -> None:
    """The page's reads are compiled once (core.prepared): a second Sequence of the campaign (ids that no longer
    match the campaign's) opens, and another campaign's Sequence does not."""
    f = fight(npcs=1)
    other = sequence_create(scene=f.scene, actor=f.narrator, data={"title": "La poursuite"})
    assert other.pk != f.campaign.pk
    client = login(f.narrator)
    page = client.get(reverse("conflicts:sequence", args=[f.campaign.pk, other.pk]))
    assert page.status_code == 200 and "La poursuite" in page.content.decode()
    elsewhere = fight(npcs=1)
    assert client.get(reverse("conflicts:sequence", args=[f.campaign.pk, elsewhere.sequence.pk])).status_code == 404


def test_the_log_reads_like_a_scene() -> None:
    f = fight(npcs=1)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    html = login(f.narrator).get(reverse("campaigns:log", args=[f.campaign.pk])).content.decode()
    assert "Jim Bones draws" in html and "The cards are down" in html


def test_the_narrator_sets_range_defence_from_the_range_table() -> None:
    f = fight(npcs=1)
    client = login(f.narrator)
    url = reverse("conflicts:modifiers", args=[f.campaign.pk, f.pc.pk])
    base = {"side": "PJ", "trait_value": 5, "weapon": 0, "weapon_use": "attack", "two_weapons_use": "attack", "armour": 0,
            "surprise": 0, "conditions": 0, "cover": 0, "scale": 0, "vehicle": 0, "range_defence": 0, "other": 0,
            "defence_weight": 1, "out_of_range_bands": 0, "version": f.sequence.version, "weapon_era": 2, "armour_era": 2}  # fmt: skip
    client.post(url, {**base, "range_band": "long", "shooter_weapon": "handgun"})
    assert Participant.objects.get(pk=f.pc.pk).range_defence == 5  # « Longue … Difficile (5) »
    f.reload()
    client.post(url, {**base, "version": f.sequence.version, "range_band": "extreme", "shooter_weapon": "handgun"})
    assert Participant.objects.get(pk=f.pc.pk).range_defence == 5  # a handgun cannot reach: refused, unchanged


def test_modifiers_refused_as_stale_come_back_with_what_the_narrator_typed() -> None:
    """Someone acted while the narrator typed: the page says so and keeps the figures, ready to send again."""
    f = fight(npcs=1)
    client = login(f.narrator)
    url = reverse("conflicts:modifiers", args=[f.campaign.pk, f.pc.pk])
    stale = f.sequence.version
    participant_update(participant=f.npcs[0], actor=f.narrator, data={"goal": "fuir"}, expected_version=None)
    base = {"side": "PJ", "trait_value": 5, "weapon": 0, "weapon_use": "attack", "two_weapons_use": "attack", "armour": 0,
            "surprise": 0, "conditions": 0, "cover": 0, "scale": 0, "vehicle": 0, "range_defence": 0, "other": 3,
            "defence_weight": 1, "out_of_range_bands": 0, "version": stale, "weapon_era": 2, "armour_era": 2}  # fmt: skip
    response = client.post(url, base)
    assert response.status_code == 409 and Participant.objects.get(pk=f.pc.pk).other == 0
    html = response.content.decode()
    assert f'name="other" value="3" required id="id_p{f.pc.pk}_other"' in html and '<details class="card" open>' in html
    f.reload()
    assert f'name="version" value="{f.sequence.version}"' in html
    assert client.post(url, {**base, "version": f.sequence.version}).status_code == 302
    assert Participant.objects.get(pk=f.pc.pk).other == 3


def test_the_phone_panel_costs_the_same_queries_with_more_opponents(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    f = fight(npcs=1)
    client = login(f.player)
    url = reverse("conflicts:panel", args=[f.campaign.pk, f.pc.pk])
    client.get(url)
    with django_assert_max_num_queries(200) as small:
        assert client.get(url).status_code == 200
    count = len(small)
    for i in range(4):
        extra = npc(f.campaign, f.narrator, f"Renfort {i}")
        participant_add(sequence=f.sequence, actor=f.narrator, character=extra, side="Truands", trait_code="combat")
    client.get(url)  # as above: the story of this new state of the sequence is read once, then kept
    with django_assert_max_num_queries(count):
        html = client.get(url).content.decode()
    assert "Renfort 3" in html


def test_any_player_may_deal_and_reshuffle_the_table_deck_but_not_the_narrators() -> None:
    from conflicts.models import Deck, DeckLayout, TableSettings

    f = fight(npcs=1)
    t = f.npcs[0]
    draw(t, f.narrator, Split(attack={f.pc.key: 3}))
    f.reload()
    deck = Deck.objects.get(campaign=f.campaign)
    client = login(f.player)
    page = client.post(reverse("conflicts:reshuffle", args=[f.campaign.pk, deck.pk]), follow=True)
    deck.refresh_from_db()
    assert len(deck.pile) == 37 and len(deck.in_play) == 3 and deck.discard == []
    # Issue 28: « Mélanger » reshuffled the table deck without a word; the page says it, the log names the deck
    # in its reader's language.
    assert "Deck shuffled: Table deck · The table." in page.content.decode()
    from django.utils import translation

    from campaigns.chronicle import describe
    from campaigns.models import Event

    with translation.override("en"):
        assert "(Table deck · The table)" in describe(Event.objects.get(kind="deck.reshuffled"))
    TableSettings.objects.filter(campaign=f.campaign).update(layout=DeckLayout.PAIRS_SHARED)
    narrators = Deck.objects.create(
        campaign=f.campaign,
        kind="attack",
        holder="narrator",
        pile=[f"{v}H" for v in range(1, 11)] + [f"{v}D" for v in range(1, 11)],
    )
    before = narrators.pile
    client.post(reverse("conflicts:reshuffle", args=[f.campaign.pk, narrators.pk]))
    narrators.refresh_from_db()
    assert narrators.pile == before


def test_a_test_shows_its_exact_chance_before_rolling() -> None:
    f = fight(npcs=1)
    client = login(f.player)
    response = client.post(
        reverse("conflicts:test_chance", args=[f.campaign.pk]),
        {"character": f.hero.pk, "trait_code": "combat", "difficulty": 5, "relatedness": "close", "equipment": 0,
         "scale": 0, "other": 0, "technical_policy": "fail"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    # Combat Bon against Difficile (Bon): 0 or better on 4dF, (19 + 16 + 10 + 4 + 1) / 81.
    assert "Exact chance of success: 61.7%" in response.content.decode()


def test_the_narrator_takes_a_tests_difficulty_from_an_opponents_trait() -> None:
    """« la Difficulté peut provenir d'une Caractéristique du ou des adversaires (exemple : le Rang de la
    Caractéristique Esprit d'une sentinelle …). Le Rang de la Caractéristique donne alors la Difficulté de
    l'action (Exemple : un Rang Bon indique une action Difficile) » (V). Players do not get the field."""
    f = fight(npcs=0)
    sentinel = npc_create(
        campaign=f.campaign, actor=f.narrator, name="Sentinelle", concept="Garde", ranks={"esprit": 5}
    )
    form = {"character": f.hero.pk, "trait_code": "combat", "difficulty": 2, "relatedness": "close", "equipment": 0,
            "scale": 0, "other": 0, "technical_policy": "fail", "opponent": sentinel.pk, "opponent_trait": "esprit"}  # fmt: skip
    narrator = login(f.narrator)
    assert 'name="opponent_trait"' in narrator.get(reverse("conflicts:scenes", args=[f.campaign.pk])).text
    preview = narrator.post(reverse("conflicts:test_chance", args=[f.campaign.pk]), form, HTTP_HX_REQUEST="true")
    # Combat Bon against Difficile (the sentinel's Esprit Bon), not Facile: 61.7 %.
    assert "61.7%" in preview.content.decode()
    narrator.post(reverse("conflicts:test", args=[f.campaign.pk]), form)
    event = Event.objects.get(kind="test.rolled")
    assert event.payload["difficulty"] == "DIFFICILE"
    assert event.payload["difficulty_from"]["name"] == "Sentinelle"
    player = login(f.player)
    assert 'name="opponent_trait"' not in player.get(reverse("conflicts:scenes", args=[f.campaign.pk])).text


def test_a_shots_test_takes_its_difficulty_from_the_range_table() -> None:
    """« La table de combat à distance permet de déterminer la Difficulté d'un éventuel Test »: « Longue
    - 40 m Difficile (5) »; « (1) Extrême … Carabine & Fusil requis » refuses a handgun."""
    f = fight(npcs=0)
    client = login(f.player)
    form = {"character": f.hero.pk, "trait_code": "combat", "difficulty": 2, "relatedness": "close", "equipment": 0,
            "scale": 0, "other": 0, "technical_policy": "fail", "range_band": "long", "shooter_weapon": "handgun"}  # fmt: skip
    rolled = client.post(reverse("conflicts:test", args=[f.campaign.pk]), form)
    assert rolled.status_code == 200
    # The verdict stands out and the next test is one tap away; the range reads as the rule book names it.
    assert 'class="badge ok"' in rolled.text or 'class="badge bad"' in rolled.text
    assert "Another test" in rolled.text and "#test-form" in rolled.text
    assert "long (40 m)" in client.get(reverse("conflicts:scenes", args=[f.campaign.pk])).text
    event = Event.objects.get(kind="test.rolled")
    assert event.payload["difficulty"] == "DIFFICILE" and event.payload["range_band"] == "long"
    refused = client.post(reverse("conflicts:test", args=[f.campaign.pk]), {**form, "range_band": "extreme"})
    assert refused.status_code == 400 and Event.objects.filter(kind="test.rolled").count() == 1


def test_a_players_campaign_page_shows_the_sequence_waiting_for_their_draw() -> None:
    """The next step is on the player's campaign page: the sequence, and « À vous de tirer »."""
    f = fight(npcs=1)
    client = Client()
    client.force_login(f.player)
    html = client.get(reverse("campaigns:home", args=[f.campaign.pk])).content.decode()
    assert 'id="running-sequences"' in html and f.sequence.get_absolute_url() in html
    assert "À vous de tirer" in html and f.pc.character.name in html
    assert f"?watch=home%3A{f.campaign.pk}" in html  # its socket asks for the list's live refresh


def test_the_running_sequences_follow_the_draws_live() -> None:
    """Once the player has drawn, the live feed drops « your turn » from their campaign page."""
    f = fight(npcs=1)
    draw(f.pc, f.player, Split(attack={f.npcs[0].key: 5}), seed=3)
    event = Event.objects.filter(kind="sequence.drew").latest("pk")
    home = frozenset({home_subject(f.campaign.pk)})
    seen = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.player), watching=home)))
    assert '<div id="running-sequences" hx-swap-oob="outerHTML">' in seen and "Your turn to draw" not in seen
    on_the_sequence_page = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.player))))
    assert "running-sequences" not in on_the_sequence_page  # only the pages that list them get the list
    narrator_sees = "".join(extra_fragments(event, Viewer(membership(f.campaign, f.narrator), watching=home)))
    assert f"Your turn to draw: {f.npcs[0].character.name}" in narrator_sees  # the NPC still has to draw


def test_the_sequence_page_offers_the_sides_in_play_and_has_unique_ids() -> None:
    """Adding a participant suggests the sides already in play; the modifiers forms do not repeat ids."""
    import re

    f = fight(npcs=2)
    client = Client()
    client.force_login(f.narrator)
    add_url = reverse("conflicts:participant_add", args=[f.campaign.pk, f.sequence.pk])
    form = client.get(add_url, HTTP_HX_REQUEST="true").content.decode()  # its fold loads when opened
    assert 'list="sides-in-play"' in form and f'<option value="{f.pc.side}">' in form
    assert 'list="sides-in-play"' in client.get(add_url).content.decode()  # without JavaScript: the page, fold open
    html = client.get(f.sequence.get_absolute_url()).content.decode()
    assert 'list="sides-in-play"' not in html
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def test_spending_an_atout_before_the_draw_is_confirmed() -> None:
    """The player who taps « +1 carte » is told the Atout is spent."""
    from tests.characters.factories import open_session

    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    client = Client()
    client.force_login(f.player)
    url = reverse("conflicts:atout", args=[f.campaign.pk, f.pc.pk])
    response = client.post(
        url, {"use": "card", "version": f.sequence.version, "next": f.sequence.get_absolute_url()}, follow=True
    )
    assert "Atout dépensé." in response.content.decode()


def test_a_player_helps_a_teammate_before_the_draw_saying_how() -> None:
    """App. 4: « Deux Atouts permettent de donner un bonus de +1 Carte […] à un autre personnage », a teammate who
    has not drawn yet; « le mieux est de décrire comment ils aident leur camarade » (the ledger asks for it). The
    panel's help offered no place to say how, so every help was refused; it is now one form (the teammate, how,
    one button), whose version and token are sent once with each live draw, however many teammates there are."""
    from tests.characters.factories import open_session

    f = fight(npcs=1)
    open_session(f.campaign, f.narrator)
    ally = participant_add(
        sequence=f.sequence, actor=f.narrator, character=npc(f.campaign, f.narrator, "Allié <b>"), side="PJ",
        goal="aider", trait_code="combat",
    )  # fmt: skip
    f.sequence.refresh_from_db()
    client = login(f.player)
    html = client.get(f.sequence.get_absolute_url()).content.decode()
    panel = html[html.index(f'id="atouts-{f.pc.pk}"') :].split("</details>", 1)[0]
    assert (
        panel.count("<form") == 2 and f'<option value="{ally.pk}">Allié &lt;b&gt;</option>' in panel
    )  # its name escaped
    assert f'<label for="help-why-{f.pc.pk}">How do you help?</label>' in panel
    url = reverse("conflicts:atout", args=[f.campaign.pk, f.pc.pk])
    fields = {"use": "help", "target": str(ally.pk), "version": f.sequence.version,
              "next": f.sequence.get_absolute_url()}  # fmt: skip
    refused = client.post(url, fields, follow=True).content.decode()
    assert "Describe how your character helps." in refused and not Participant.objects.get(pk=ally.pk).help_cards
    answer = client.post(url, {**fields, "justification": "Je le couvre"}, follow=True)
    assert "Atout spent." in answer.content.decode()
    spent = Event.objects.filter(campaign=f.campaign).latest("pk")
    assert spent.kind == "sequence.atout" and spent.payload["use"] == "help" and spent.payload["amount"] == 2
    assert spent.payload["target_participant"] == ally.pk
    assert Participant.objects.get(pk=ally.pk).help_cards == 1


def test_modifiers_show_a_true_minus() -> None:
    """French typography: « Revers −2 » with a minus sign, not a hyphen."""
    from conflicts.templatetags.conflicts_tags import signed

    assert [signed(2), signed(-1), signed(0)] == ["+2", "\u22121", "+0"]


def test_recording_the_revers_is_confirmed() -> None:
    """« Inscrire les Revers sur les feuilles » says it is done."""
    f = fight(npcs=1)
    t = f.npcs[0]
    draw(f.pc, f.player, Split(attack={t.key: 5}), seed=1)
    draw(t, f.narrator, Split(attack={f.pc.key: 3}), seed=2)
    f.reload()
    url = reverse("conflicts:settle", args=[f.campaign.pk, f.sequence.pk])
    response = login(f.narrator).post(url, {"version": f.sequence.version}, follow=True)
    assert "The Revers are on the sheets." in response.content.decode()


@pytest.mark.parametrize("last", [False, True])
def test_a_draw_post_reads_the_table_once_and_appends_one_event(last: bool, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """Issue 26: a draw POST is load → decide → write over one snapshot (conflicts.snapshot): the table read once
    under its locks, the answer's board built from the snapshot as written, one Event. A first draw: 76 queries
    at first, 40 before the snapshot, ≤ 30 now (with the table's deck created on this first draw of the campaign);
    the last draw, which resolves: 41 before, with two Events (``sequence.drew`` then ``sequence.resolved``),
    ≤ 30 now and the result in the one ``sequence.drew``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from campaigns.models import Event

    f = fight(npcs=1)
    t = f.npcs[0]
    if last:
        draw(t, f.narrator, Split(attack={f.pc.key: 3}))
        f.sequence.refresh_from_db()
    client = login(f.player)
    client.get(reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk]))  # the page drawn from
    url = reverse("conflicts:split", args=[f.campaign.pk, f.pc.pk])
    data = {f"attack_{t.pk}": 3, f"defence_{f.pc.pk}": 2, "action": "draw", "version": f.sequence.version}
    before = Event.objects.count()
    with django_assert_max_num_queries(30), CaptureQueriesContext(connection) as ctx:
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and Participant.objects.get(pk=f.pc.pk).drawn
    assert "Your cards are on the table" in response.content.decode()
    for table in ("characters_savagestate", "conflicts_participant", "characters_revers"):
        reads = [q for q in ctx.captured_queries if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"]]
        assert len(reads) == 1, table  # the snapshot's, shared by the rules and the answer
    added = list(Event.objects.filter(pk__gt=0).order_by("pk"))[before:]
    assert [e.kind for e in added] == ["sequence.drew"]
    assert ("outcome" in added[0].payload) is last
    f.sequence.refresh_from_db()
    assert f.sequence.phase == ("resolved" if last else "drawing")
    if last:
        assert f.sequence.outcome == added[0].payload["outcome"]


def test_a_console_found_kept_builds_no_board(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """The narrator's console shows no draw panel: when its board and its « take someone out » card are found kept
    (``conflicts.regions``), nothing behind them is read: session, user, member (with the stream's head), sequence,
    decks. A draw then renders them anew, the same bytes as with the caches off."""

    from django.test import override_settings

    f = fight(npcs=2)
    client = login(f.narrator)
    url = reverse("conflicts:sequence", args=[f.campaign.pk, f.sequence.pk])
    client.get(url)
    with django_assert_max_num_queries(5):
        warm = client.get(url).content.decode()
    assert f'id="narrator-leave-{f.sequence.pk}"' in warm and "Truand 2" in warm
    draw(f.pc, f.player, Split(defence={f.pc.key: 5}))

    def page() -> str:
        html = client.get(url).content.decode()
        return without_page_marks(html)

    after = page()
    with override_settings(FRAGMENT_CACHE=False):
        assert page() == after
