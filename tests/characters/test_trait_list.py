"""The trait list as a form on the settings page (issue 12): add, rename, change, remove, reorder, one trait at a
time, versioned, logged in words; what the TOML editor could say is still said."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns.chronicle import describe
from campaigns.models import Campaign, Event
from characters.models import Character, CharacterRules, CharacterTrait
from characters.rules.traits import TraitDef, TraitKind, trait_moved
from characters.selectors import character_rules, trait_defs
from tests.characters.factories import pc, table

pytestmark = pytest.mark.django_db


def client_for(user, language: str = "fr") -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def traits_of(campaign: Campaign) -> tuple[TraitDef, ...]:
    return trait_defs(CharacterRules.objects.get(campaign=campaign))


def version(campaign: Campaign) -> int:
    return character_rules(Campaign.objects.get(pk=campaign.pk)).version


def post(client: Client, campaign: Campaign, data: dict[str, object]):  # type: ignore[no-untyped-def]
    return client.post(reverse("campaigns:settings_section", args=[campaign.pk, "traits"]), data)


def trait_fields(prefix: str, ver: int, **fields: object) -> dict[str, object]:
    data: dict[str, object] = {f"{prefix}-version": ver}
    data.update({f"{prefix}-{k}": v for k, v in fields.items()})
    return data


@pytest.fixture
def setting():  # type: ignore[no-untyped-def]
    campaign, narrator, (owner, other) = table()
    jim = pc(campaign, owner)  # Médecine Moyen, Esprit Bon
    lisa = pc(campaign, other, name="Lisa", ranks={"medecine": 3})
    return campaign, narrator, jim, lisa


def test_every_trait_is_a_form_with_what_the_toml_described(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    page = client_for(narrator).get(reverse("campaigns:settings", args=[campaign.pk])).text
    for trait in traits_of(campaign):
        for field in ("name_fr", "name_en", "kind", "default", "technical", "description_fr", "description_en"):
            assert f'name="t-{trait.code}-{field}"' in page
    assert "sur 2 fiches" in page  # Médecine is on both sheets
    assert "[[trait]]" not in page  # no raw TOML any more


def test_a_new_trait_with_every_field_is_added_after_its_kind_and_logged_in_both_languages(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    data = {"op": "add", **trait_fields("new", version(campaign), name_fr="Ruse", name_en="Guile", kind="aptitude",
                                        default=1, technical="on", description_fr="Tromper.", description_en="Trick.",
                                        code="")}  # fmt: skip
    response = post(client, campaign, data)
    assert response.status_code == 302 and response["Location"].endswith("#settings-traits")
    traits = traits_of(campaign)
    added = next(t for t in traits if t.code == "ruse")
    assert added == TraitDef("ruse", TraitKind.APTITUDE, "Ruse", "Guile", "Tromper.", "Trick.", 1, True)
    kinds = [t.kind for t in traits]
    assert kinds.index(TraitKind.FIELD) == [t.code for t in traits].index("ruse") + 1  # after the last Aptitude
    event = Event.objects.get(kind="trait_list.changed")
    with translation.override("fr"):
        assert "a ajouté « Ruse » (Aptitude) à la liste des Caractéristiques." in describe(event)
    with translation.override("en"):
        assert "added “Guile” (Aptitude) to the trait list." in describe(event)


def test_renaming_a_trait_renames_it_on_the_sheets_that_carry_it(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    before = Character.objects.get(pk=jim.pk).version
    medecine = next(t for t in traits_of(campaign) if t.code == "medecine")
    data = {"op": "change", "code": "medecine", **trait_fields(
        "t-medecine", version(campaign), name_fr="Soins", name_en="Care", kind="field", default=medecine.default,
        technical="on", description_fr=medecine.description_fr, description_en=medecine.description_en)}  # fmt: skip
    assert post(client, campaign, data).status_code == 302
    rows = CharacterTrait.objects.filter(code="medecine")
    assert {(r.name_fr, r.name_en) for r in rows} == {("Soins", "Care")} and rows.count() == 2
    assert Character.objects.get(pk=jim.pk).version == before + 1  # no kept sheet shows the old name
    assert "Soins" in client.get(jim.get_absolute_url()).text
    with translation.override("fr"):
        text = describe(Event.objects.get(kind="trait_list.changed"))
    assert text.endswith(
        "a renommé la Caractéristique « Médecine » en « Soins » : nom en français : Médecine → Soins"
        " · nom en anglais : Medicine → Care."
    )  # in the form's order, on every database
    assert "name_fr" not in text and "technique" not in text


def test_removing_a_trait_sheets_carry_is_refused_with_their_names_unless_they_keep_it(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    ver = version(campaign)
    response = post(client, campaign, {"op": "remove", "code": "medecine", "rm-medecine-version": ver})
    assert response.status_code == 400
    assert "« Médecine » est sur les fiches de Jim Bones, Lisa." in response.text
    assert any(t.code == "medecine" for t in traits_of(campaign)) and version(campaign) == ver
    response = post(client, campaign, {"op": "remove", "code": "medecine", "rm-medecine-version": ver,
                                       "rm-medecine-keep_on_sheets": "on"})  # fmt: skip
    assert response.status_code == 302
    assert not any(t.code == "medecine" for t in traits_of(campaign))
    assert set(CharacterTrait.objects.filter(code="medecine").values_list("custom", flat=True)) == {True}
    with translation.override("en"):
        text = describe(Event.objects.get(kind="trait_list.changed"))
    assert text.endswith("removed “Medicine” from the trait list. Jim Bones, Lisa keep it as their own trait.")


def test_an_unused_trait_is_removed_and_the_last_one_never(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator, "en")
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    assert (
        post(client, campaign, {"op": "remove", "code": "art", "rm-art-version": version(campaign)}).status_code == 302
    )
    assert not any(t.code == "art" for t in traits_of(campaign))
    from characters.services.trait_list import trait_remove
    from core.errors import ServiceError

    rules = CharacterRules.objects.get(campaign=campaign)
    rules.trait_list = [rules.trait_list[0]]
    rules.save()
    with pytest.raises(ServiceError, match="Keep at least one trait"):
        trait_remove(
            campaign=campaign, actor=narrator, expected_version=rules.version, code=rules.trait_list[0]["code"]
        )


def test_moving_swaps_with_the_neighbour_of_the_same_kind(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    fields = [t.code for t in traits_of(campaign) if t.kind == TraitKind.FIELD]
    second = fields[1]
    assert (
        post(client, campaign, {"op": "move", "code": second, "version": version(campaign), "step": -1}).status_code
        == 302
    )
    moved = [t.code for t in traits_of(campaign) if t.kind == TraitKind.FIELD]
    assert moved[:2] == [second, fields[0]]
    first_aptitude = next(t.code for t in traits_of(campaign) if t.kind == TraitKind.APTITUDE)
    response = post(client, campaign, {"op": "move", "code": first_aptitude, "version": version(campaign), "step": -1})
    assert response.status_code == 400 and "est déjà la première de sa catégorie" in response.text
    with translation.override("fr"):
        assert "a monté" in describe(Event.objects.filter(kind="trait_list.changed").latest("pk"))


def test_trait_moved_keeps_other_kinds_in_place() -> None:
    a = TraitDef("a", TraitKind.APTITUDE, "A", "A")
    f1, f2 = TraitDef("f1", TraitKind.FIELD, "F1", "F1"), TraitDef("f2", TraitKind.FIELD, "F2", "F2")
    b = TraitDef("b", TraitKind.APTITUDE, "B", "B")
    assert trait_moved((a, f1, b, f2), "b", -1) == (b, f1, a, f2)
    assert trait_moved((a, f1, b, f2), "f2", 1) == (a, f1, b, f2)


def test_a_stale_trait_form_is_refused_and_keeps_what_was_typed(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator)
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    ver = version(campaign)
    assert post(client, campaign, {"op": "remove", "code": "art", "rm-art-version": ver}).status_code == 302
    data = {"op": "change", "code": "tir", **trait_fields("t-tir", ver, name_fr="Armes à feu", name_en="Firearms",
                                                          kind="field", default=2)}  # fmt: skip
    response = post(client, campaign, data)
    assert response.status_code == 409
    assert "Quelqu’un a modifié la liste des Caractéristiques avant vous" in response.text
    assert 'value="Armes à feu"' in response.text
    assert next(t for t in traits_of(campaign) if t.code == "tir").name_fr == "Tir"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name_fr": "", "name_en": "X", "kind": "field", "default": 2}, "This field is required."),
        ({"name_fr": "X", "name_en": "X", "kind": "talent", "default": 2}, "Select a valid choice."),
        ({"name_fr": "X", "name_en": "X", "kind": "field", "default": 12}, "Select a valid choice."),
        ({"name_fr": "X", "name_en": "X", "kind": "field", "default": 2, "code": "Bad Code"}, "Lowercase letters"),
        ({"name_fr": "Tir", "name_en": "X", "kind": "field", "default": 2}, "already has a trait with the code “tir”"),
    ],
)
def test_bad_new_traits_are_refused_in_english_too_and_nothing_changes(setting, fields, message) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    client = client_for(narrator, "en")
    client.get(reverse("campaigns:settings", args=[campaign.pk]))
    before = (traits_of(campaign), version(campaign), Event.objects.count())
    response = post(client, campaign, {"op": "add", **trait_fields("new", version(campaign), **fields)})
    assert response.status_code == 400
    assert message in response.text.replace("&#x27;", "'")
    assert (traits_of(campaign), version(campaign), Event.objects.count()) == before


def test_a_player_cannot_touch_the_list(setting) -> None:  # type: ignore[no-untyped-def]
    campaign, narrator, jim, lisa = setting
    response = post(client_for(jim.owner), campaign, {"op": "remove", "code": "art", "rm-art-version": 1})
    assert response.status_code == 403
    assert any(t.code == "art" for t in traits_of(campaign))
