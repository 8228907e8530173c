"""Character pages: who sees and edits what, htmx partials, the wizard's budget, query counts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import creation as creation_services
from characters.services import sheet as sheet_services
from characters.services.allies import ally_hand
from characters.services.atouts import atout_gain
from characters.services.equipment import equipment_add
from characters.services.revers import revers_inflict
from characters.services.sheet import character_update
from tests.campaigns.factories import UserFactory
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():  # type: ignore[no-untyped-def]
    campaign, narrator, (owner, other) = table()
    jim = pc(campaign, owner)
    character_update(character=jim, actor=narrator, data={"narrator_notes": "SECRET-NOTE"},
                              expected_version=jim.version)  # fmt: skip
    npc = creation_services.npc_create(campaign=campaign, actor=narrator, name="Comtesse", concept="Veuve noire")
    return campaign, narrator, owner, other, jim, npc


def test_other_players_see_pc_sheets_but_not_npc_sheets_or_narrator_notes(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(other)
    page = client.get(jim.get_absolute_url())
    assert page.status_code == 200
    assert "Jim Bones" in page.text and "SECRET-NOTE" not in page.text
    assert 'id="narrator-tools"' not in page.text
    assert client.get(npc.get_absolute_url()).status_code == 404
    assert "Comtesse" not in client.get(reverse("characters:campaign", args=[campaign.pk])).text


def test_the_owner_never_reads_the_narrators_notes_but_the_narrator_does(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(owner)
    assert "SECRET-NOTE" not in client.get(jim.get_absolute_url()).text
    client.force_login(narrator)
    assert "SECRET-NOTE" in client.get(jim.get_absolute_url()).text


def test_non_members_get_404(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(UserFactory())
    assert client.get(jim.get_absolute_url()).status_code == 404
    assert client.get(reverse("characters:create", args=[campaign.pk])).status_code == 404


def test_another_player_cannot_edit_and_players_cannot_use_narrator_actions(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(other)
    spend = {"use": "monologue", "amount": 1}
    assert client.post(reverse("characters:act", args=[jim.pk, "spend"]), spend).status_code == 403
    client.force_login(owner)
    revers = {"domain": "physical", "severity": 3, "nature": "deep"}
    assert client.post(reverse("characters:act", args=[jim.pk, "revers"]), revers).status_code == 403
    assert client.post(reverse("characters:act", args=[jim.pk, "gain"]), {"amount": 5}).status_code == 403
    assert client.post(reverse("characters:npc_create", args=[campaign.pk]), {"name": "x"}).status_code == 403
    assert client.get(reverse("characters:rules", args=[campaign.pk])).status_code == 403
    jim.refresh_from_db()
    assert jim.atout_balance == 5 and not jim.revers.exists()


def test_the_owner_spends_an_atout_through_htmx_and_gets_the_sheet_partial(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(owner)
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("characters:act", args=[jim.pk, "spend"]),
        {"use": "save_your_skin", "amount": 1, "justification": "Il roule sous la charrette."},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="sheet"') and "<html" not in response.text
    assert "Atout spent." in response.text
    jim.refresh_from_db()
    assert jim.atout_balance == 4


def test_a_refused_spend_shows_the_rule_in_french_and_changes_nothing(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(owner)
    response = client.post(reverse("characters:act", args=[jim.pk, "spend"]), {"use": "save_your_skin", "amount": 1},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 400
    assert "Racontez comment votre personnage se sort de ce pétrin" in response.text
    jim.refresh_from_db()
    assert jim.atout_balance == 5


def test_the_narrator_quick_edits_a_sheet(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(narrator)
    url = reverse("characters:act", args=[jim.pk, "trait_set"])
    assert client.post(url, {"code": "vigueur", "rank": 6, "kind": "aptitude"}).status_code == 302
    revers = {"domain": "social", "severity": 2, "nature": "blunt", "source": "Humilié au bal"}
    assert client.post(reverse("characters:act", args=[jim.pk, "revers"]), revers).status_code == 302
    page = client.get(jim.get_absolute_url()).text
    assert "Excellent" in page and "Revers sérieux" in page and "Humilié au bal" in page


class TestWizard:
    def url(self, campaign) -> str:  # type: ignore[no-untyped-def]
        return reverse("characters:create", args=[campaign.pk])

    def test_each_click_returns_the_wizard_with_its_budget(self, client) -> None:  # type: ignore[no-untyped-def]
        campaign, narrator, (player, _o) = table()
        client.force_login(player)
        page = client.get(self.url(campaign))
        assert "data-left>11<" in page.text
        response = client.post(self.url(campaign), {"step": "inc:esprit", "rank_esprit": 2}, HTTP_HX_REQUEST="true")
        assert response.text.lstrip().startswith('<form id="wizard"')
        assert "data-spent>1<" in response.text and "data-left>10<" in response.text
        assert 'name="rank_esprit" value="3"' in response.text

    def test_an_illegal_allocation_names_the_rule_in_french_and_saves_nothing(self, client) -> None:  # type: ignore[no-untyped-def]
        campaign, narrator, (player, _o) = table(starting_atouts=6)
        client.force_login(player)
        data = {
            "step": "create",
            "name": "Jim",
            "concept": "Médecin",
            "goal": "Sauver",
            "rank_esprit": 5,
            "rank_tir": 5,
        }
        response = client.post(self.url(campaign), data)
        assert response.status_code == 400
        assert "Le dernier Atout doit être conservé pour la partie : vous en avez dépensé 6 sur 6." in response.text
        assert not Character.objects.exists()

    def test_the_same_refusal_reads_in_english(self, client) -> None:  # type: ignore[no-untyped-def]
        campaign, narrator, (player, _o) = table(starting_atouts=6)
        client.force_login(player)
        client.cookies["django_language"] = "en"
        data = {"step": "create", "name": "Jim", "concept": "Doctor", "goal": "Save", "rank_esprit": 1}
        response = client.post(self.url(campaign), data)
        assert "Esprit cannot go below its starting rank (Faible)" in response.text

    def test_a_legal_sheet_is_created_and_opens(self, client) -> None:  # type: ignore[no-untyped-def]
        campaign, narrator, (player, _o) = table()
        client.force_login(player)
        data = {"step": "create", "name": "Jim Bones", "concept": "Médecin", "goal": "Sauver", "rank_medecine": 4}
        response = client.post(self.url(campaign), data)
        jim = Character.objects.get()
        assert response.status_code == 302 and response.url == jim.get_absolute_url()
        assert jim.owner == player and jim.atouts_creation == 8

    def test_free_style_lets_players_name_a_trait(self, client) -> None:  # type: ignore[no-untyped-def]
        campaign, narrator, (player, _o) = table(creation_mode="free")
        client.force_login(player)
        added = client.post(
            self.url(campaign), {"step": "add_trait", "new_trait": "Fine gâchette"}, HTTP_HX_REQUEST="true"
        )
        assert 'name="rank_fine_gachette"' in added.text
        data = {"step": "create", "name": "Lisa Benny", "concept": "Championne de tir", "goal": "Vivre normalement",
                "custom_count": 1, "custom_name_0": "Fine gâchette", "custom_kind_0": "field", "rank_fine_gachette": 5}  # fmt: skip
        assert client.post(self.url(campaign), data).status_code == 302
        assert Character.objects.get().traits.get().name_fr == "Fine gâchette"


def test_query_counts_do_not_grow_with_the_sheet(client, django_assert_max_num_queries, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    from states.services.fatigue import savage_fatigue_gain
    from states.services.wounds import savage_wounds_set

    # States on, with a state row, wounds and a fatigue track: the roll dialog's state lines are counted.
    savage_wounds_set(character=jim, actor=narrator, count=1, expected_version=None)
    savage_fatigue_gain(character=jim, actor=narrator, source="cold", expected_version=None)
    for index in range(6):
        equipment_add(character=jim, actor=owner, data={"category": "gear", "name": f"Objet {index}", "bonus": 1})
        revers_inflict(character=jim, actor=narrator, domain="physical", severity=1, source=f"coup {index}")
    for extra in range(4):
        pc(campaign, owner, name=f"Double {extra}")
    client.force_login(narrator)
    # 17: the traits and the state row with its fatigue tracks are read once, and the one-tap chances (with the
    # wound and fatigue lines), the Savage attributes' dice and the badges share them and the campaign's options;
    # the strip of Revers and the first-aid form take the sheet's own Revers.
    with django_assert_max_num_queries(17):
        page = client.get(jim.get_absolute_url())
    assert page.status_code == 200 and 'data-roll-attribute="vigor"' in page.text
    with django_assert_max_num_queries(10):
        assert client.get(reverse("characters:campaign", args=[campaign.pk])).status_code == 200
    # 16, and 2 for the "now" block at the top (the Sequences with draws waiting, who is Shaken or in État critique),
    # and 2 for its Tests asked (the asks waiting, their subjects' versions: none once kept at this stream head).
    with django_assert_max_num_queries(20):
        assert client.get(reverse("campaigns:dashboard", args=[campaign.pk])).status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get(reverse("characters:print", args=[jim.pk])).status_code == 200


def test_quick_edits_from_a_panel_answer_with_the_panel(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(narrator)
    dashboard = client.get(reverse("campaigns:dashboard", args=[campaign.pk])).text
    assert f'id="character-panel-{jim.pk}"' in dashboard and "+1 Atout" in dashboard
    response = client.post(reverse("characters:act", args=[jim.pk, "gain"]), {"amount": 1, "return": "panel"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.text.lstrip().startswith(f'<article class="card character-panel" id="character-panel-{jim.pk}"')
    response = client.post(
        reverse("characters:act", args=[jim.pk, "revers"]),
        {"domain": "social", "severity": 2, "nature": "blunt", "return": "panel"},
        HTTP_HX_REQUEST="true",
    )
    assert "Revers sérieux · social" in response.text
    jim.refresh_from_db()
    assert jim.atout_balance == 6


def test_players_see_no_quick_edits_on_the_list(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(owner)
    assert "+1 Atout" not in client.get(reverse("characters:campaign", args=[campaign.pk])).text


def test_the_narrator_writes_an_ogres_scale(client, setting) -> None:  # type: ignore[no-untyped-def]
    from characters import selectors

    campaign, narrator, owner, other, jim, npc = setting
    client.force_login(narrator)
    url = reverse("characters:act", args=[npc.pk, "narrator"])
    npc.refresh_from_db()
    bad = client.post(url, {"version": npc.version, "scales": "+1 taille vol", "out_after_revers": 2})
    assert bad.status_code == 400 and "nommez ce à quoi l’échelle s’applique" in bad.text
    assert (
        client.post(url, {"version": npc.version, "scales": "+1 taille combat", "out_after_revers": 2}).status_code
        == 302
    )
    npc.refresh_from_db()
    sheet_services.trait_set(character=npc, actor=narrator, code="vigueur", rank=5)
    assert selectors.scale_modifier(npc, jim, "vigueur") == 1  # the ogre's Bon Vigueur counts as Excellent
    assert "Échelle +1 (Combat, Taille)" in client.get(npc.get_absolute_url()).text


def test_the_sheet_gives_the_first_aid_difficulty_of_each_revers(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    revers_inflict(character=jim, actor=narrator, domain="physical", severity=2, source="sabre", nature="deep")
    client.force_login(owner)
    assert "premiers soins : Test de Médecine Difficile" in client.get(jim.get_absolute_url()).text


def test_the_streamlined_wizard_starts_aptitudes_at_moyen_and_refunds_a_lowered_one(client) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, (player, _o) = table(creation_mode="streamlined")
    client.force_login(player)
    url = reverse("characters:create", args=[campaign.pk])
    page = client.get(url).text
    assert 'name="rank_esprit" value="4"' in page and "data-left>15<" in page
    lowered = client.post(url, {"step": "dec:vigueur", "rank_vigueur": 4}, HTTP_HX_REQUEST="true").text
    assert "data-left>18<" in lowered and "data-spent>-3<" in lowered


def test_panels_carry_the_savage_state_badges_in_constant_queries(
    client, django_assert_max_num_queries, setting
) -> None:  # type: ignore[no-untyped-def]
    from states.models import SavageState

    campaign, narrator, owner, other, jim, npc = setting
    SavageState.objects.create(character=jim, shaken=True, wounds=2)
    SavageState.objects.create(character=npc, wounds=1)
    client.force_login(narrator)
    with django_assert_max_num_queries(19):  # 2 of them for the "now" block's Tests asked (kept after the first)
        page = client.get(reverse("campaigns:dashboard", args=[campaign.pk])).text
    assert f'id="savage-badges-{jim.pk}"' in page and 'data-state="shaken"' in page


def test_a_narrator_creates_a_sheet_for_a_player_with_leave_to_pass_the_limits(client) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, (player, _o) = table(starting_atouts=16)
    client.force_login(narrator)
    url = reverse("characters:create", args=[campaign.pk])
    data = {"step": "create", "name": "Hercule", "concept": "Demi-dieu", "goal": "Douze travaux", "rank_vigueur": 8,
            "owner": player.pk}  # fmt: skip
    refused = client.post(url, data)
    assert refused.status_code == 400 and "le maximum humain naturel" in refused.text
    assert client.post(url, {**data, "narrator_leave": "on"}).status_code == 302
    hercule = Character.objects.get()
    assert hercule.owner == player and hercule.traits.get(code="vigueur").rank == 8


def test_players_cannot_give_themselves_the_narrators_leave(client) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, (player, _o) = table(starting_atouts=16)
    client.force_login(player)
    data = {"step": "create", "name": "Hercule", "concept": "Demi-dieu", "goal": "Douze travaux", "rank_vigueur": 8,
            "narrator_leave": "on", "owner": narrator.pk}  # fmt: skip
    assert client.post(reverse("characters:create", args=[campaign.pk]), data).status_code == 400
    assert not Character.objects.exists()


def test_an_ally_handed_to_a_player_is_theirs_to_see_and_run_but_hidden_from_others(client, setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, owner, other, jim, npc = setting
    ally_hand(character=npc, actor=narrator, player=owner)
    client.force_login(owner)
    assert client.get(npc.get_absolute_url()).status_code == 200
    spend = {"use": "monologue", "amount": 1}
    atout_gain(character=npc, actor=narrator, amount=1)
    assert client.post(reverse("characters:act", args=[npc.pk, "spend"]), spend).status_code == 302
    client.force_login(other)
    assert client.get(npc.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("count", ["abc", "-1", "²", "999999999999"])
def test_a_forged_custom_trait_count_is_ignored_not_a_500(client, count) -> None:  # type: ignore[no-untyped-def]
    """The wizard's hidden ``custom_count`` reached ``int()`` as it came (the fuzzing found ``abc`` → 500)."""
    campaign, _narrator, (player, _o) = table(creation_mode="free")
    client.force_login(player)
    url = reverse("characters:create", args=[campaign.pk])
    answer = client.post(url, {"step": "add_trait", "custom_count": count, "custom_name_0": "Punkette endurcie"})
    assert answer.status_code == 200
    assert not Character.objects.filter(campaign=campaign).exists()


def test_the_sheet_after_an_atout_serves_its_trait_rows_kept(client, django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """An Atout spent changes the sheet's counters and ledger, not its trait rows (characters.trait_rows): the sheet
    is rendered anew around them, and the rows with their chances and the Savage attributes' dice are served kept,
    reading neither the campaign's Savage dice table nor anything else of theirs."""
    from characters.services.atouts import atout_spend

    campaign, narrator, (owner, _other) = table(savage_states=True)
    jim = pc(campaign, owner)
    atout_gain(character=jim, actor=narrator, amount=3)
    client.force_login(owner)
    first = client.get(jim.get_absolute_url()).text
    atout_spend(character=Character.objects.get(pk=jim.pk), actor=owner, use="narrative_control",
                justification="Une corde")  # fmt: skip
    with django_assert_max_num_queries(17) as captured:
        after = client.get(jim.get_absolute_url()).text
    assert not [q["sql"] for q in captured.captured_queries if "savagesettings" in q["sql"]]
    assert 'data-roll-attribute="vigor"' in after and after.count('class="small roll-quick"') == first.count(
        'class="small roll-quick"'
    )
    assert "Une corde" in after and "Une corde" not in first
