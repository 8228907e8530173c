"""Issue 28: a Test the narrator asks for, shown first on the player's phone.

« Dans un premier temps, le Narrateur et le joueur choisissent une Caractéristique appropriée à la tâche ou à
l'action envisagée. Le Narrateur estime ensuite la Difficulté de la tâche ou de l'action. Le joueur jette ensuite
4 dés Fudge. » (MicroFudge CECJ, Tests.) The narrator asks one or more characters for a Test (one ``test.asked``
Event); the player's "now" block shows it first with its chance and a one-tap roll, whose one ``test.rolled``
Event answers it; the narrator may withdraw it (``test.ask_withdrawn``). The block follows all of it live.
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from campaigns.live import Viewer, feed_subject, home_subject
from campaigns.live_regions import changed_regions
from campaigns.models import Event
from conflicts.models import AskedTest, AskStatus
from conflicts.rules.ranks import Difficulty
from conflicts.services import asked_tests as service
from conflicts.services.asked_tests import asked_test_create, asked_test_roll, asked_test_withdraw
from core.errors import PermissionRefused, ServiceError, StaleState
from tests.campaigns.factories import PASSWORD, membership
from tests.characters.factories import pc, table
from tests.conflicts.factories import npc

pytestmark = pytest.mark.django_db


class Table:
    def __init__(self) -> None:
        self.campaign, self.narrator, (self.player, self.other) = table(players=2)
        self.hero = pc(self.campaign, self.player, {"medecine": 4, "esprit": 5}, name="Harvey")
        self.friend = pc(self.campaign, self.other, {"medecine": 3}, name="Janey")

    def client(self, user, language: str = "en") -> Client:  # type: ignore[no-untyped-def]
        client = Client()
        client.login(username=user.username, password=PASSWORD)
        client.cookies["django_language"] = language
        return client

    def ask(self, *characters, trait: str = "medecine", difficulty: int | None = None, note: str = ""):  # type: ignore[no-untyped-def]
        return asked_test_create(campaign=self.campaign, actor=self.narrator, character_ids=[c.pk for c in characters],
                                 trait_code=trait, difficulty=difficulty, note=note)  # fmt: skip

    def home(self, user) -> str:  # type: ignore[no-untyped-def]
        name = "campaigns:dashboard" if user == self.narrator else "campaigns:home"
        return self.client(user).get(reverse(name, args=[self.campaign.pk])).content.decode()


def _state() -> tuple[int, list[tuple[int, str]]]:
    return Event.objects.count(), list(AskedTest.objects.order_by("pk").values_list("pk", "status"))


def _region(html: str) -> str:
    start = html.index('id="now-ask"')
    return html[start : html.index("</div>", html.index("</ul>", start) if "</ul>" in html[start:] else start)]


# Services


def test_one_ask_of_two_characters_is_one_event_naming_both_and_one_row_each() -> None:
    t = Table()
    rows = t.ask(t.hero, t.friend, difficulty=int(Difficulty.DIFFICILE), note="  Le mur est glissant  ")
    assert [r.character for r in rows] == [t.hero, t.friend] and {r.ask for r in rows} == {rows[0].ask}
    event = Event.objects.get(kind="test.asked")
    assert set(event.characters.all()) == {t.hero, t.friend}
    assert event.payload["difficulty"] == "DIFFICILE" and event.payload["note"] == "Le mur est glissant"
    assert [a["id"] for a in event.payload["asked"]] == [r.pk for r in rows]
    assert event.payload["asked"][0]["trait_name"] == "Médecine"


@pytest.mark.parametrize("case", ["foreign", "npc", "no trait", "power domain", "player asks", "nobody", "impossible"])
def test_a_bad_ask_is_refused_with_a_reason_and_writes_nothing(case: str) -> None:
    t = Table()
    other_campaign, other_narrator, (stranger,) = table(players=1)
    before = _state()
    characters, trait, actor, difficulty = [t.hero], "medecine", t.narrator, None
    if case == "foreign":
        characters = [pc(other_campaign, stranger, name="Étranger")]
        before = _state()
    elif case == "npc":
        characters = [npc(t.campaign, t.narrator, "Sentinelle")]
        before = _state()
    elif case == "no trait":
        trait = "no_such_trait"
    elif case == "power domain":
        trait = "telepathie"
    elif case == "player asks":
        actor = t.player
    elif case == "nobody":
        characters = []
    elif case == "impossible":
        difficulty = int(Difficulty.IMPOSSIBLE)
    with pytest.raises(ServiceError) as refused:
        asked_test_create(campaign=t.campaign, actor=actor, character_ids=[c.pk for c in characters],
                          trait_code=trait, difficulty=difficulty)  # fmt: skip
    assert refused.value.message
    assert _state() == before


def test_asking_again_before_the_roll_is_refused_and_names_who_waits() -> None:
    t = Table()
    t.ask(t.hero)
    before = _state()
    with pytest.raises(StaleState, match="Harvey"):
        t.ask(t.friend, t.hero)  # the whole ask: Janey is not asked alone behind the narrator's back
    assert _state() == before
    t.ask(t.hero, trait="esprit")  # another trait is another Test


def test_two_asks_that_both_passed_the_check_leave_one_row_and_one_event(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The unique constraint is the last word: an ask that read « nobody waits » before the other committed."""
    t = Table()
    t.ask(t.hero)
    monkeypatch.setattr(service, "_pending", lambda character, trait: AskedTest.objects.none())
    before = _state()
    with pytest.raises(StaleState):
        t.ask(t.hero)
    assert _state() == before
    with pytest.raises(IntegrityError), transaction.atomic():
        AskedTest.objects.create(campaign=t.campaign, character=t.hero, ask="x", trait_code="medecine")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_asks_of_the_same_test_leave_one(on_postgres: bool) -> None:
    if not on_postgres:
        pytest.skip("row locks are only meaningful on PostgreSQL")
    t = Table()
    barrier, errors = threading.Barrier(4), []

    def ask() -> None:
        try:
            barrier.wait(timeout=60)
            t.ask(t.hero, t.friend)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(errors) == 3 and all(isinstance(e, StaleState) for e in errors), errors
    assert AskedTest.objects.count() == 2 and Event.objects.filter(kind="test.asked").count() == 1


def test_the_roll_answers_the_ask_with_one_event_and_a_second_tap_is_refused() -> None:
    t = Table()
    [asked] = t.ask(t.hero, difficulty=int(Difficulty.DIFFICILE))
    before = Event.objects.count()
    answered, result = asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk,
                                       rng=random.Random(4))  # fmt: skip
    assert Event.objects.count() == before + 1
    event = Event.objects.latest("pk")
    assert event.kind == "test.rolled" and event.payload["asked"] == asked.pk
    assert event.payload["difficulty"] == "DIFFICILE" and event.payload["trait"] == "medecine"
    asked.refresh_from_db()
    assert asked.status == AskStatus.ANSWERED and asked.roll == result["roll"]
    state = _state()
    with pytest.raises(StaleState, match="already rolled"):
        asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    assert _state() == state


def test_a_test_asked_without_a_difficulty_is_rolled_at_moyenne() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    _answered, result = asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    assert result["difficulty"] == "MOYENNE"


def test_only_the_player_of_the_character_or_a_narrator_rolls_it() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    before = _state()
    with pytest.raises(PermissionRefused):
        asked_test_roll(campaign_id=t.campaign.pk, actor=t.other, asked_id=asked.pk)
    assert _state() == before


def test_a_withdrawn_ask_is_logged_and_can_no_longer_be_rolled() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    asked_test_withdraw(campaign_id=t.campaign.pk, actor=t.narrator, asked_id=asked.pk)
    event = Event.objects.latest("pk")
    assert event.kind == "test.ask_withdrawn" and list(event.characters.all()) == [t.hero]
    state = _state()
    with pytest.raises(StaleState, match="withdrawn"):
        asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    with pytest.raises(PermissionRefused):
        asked_test_withdraw(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    assert _state() == state
    t.ask(t.hero)  # withdrawn: the same Test may be asked again


# Views


def test_the_narrator_asks_from_the_dashboard_and_the_answer_carries_the_region() -> None:
    t = Table()
    html = t.home(t.narrator)
    assert 'id="ask-test"' in html and "Ask for a Test" in html and 'name="trait_code"' not in html  # folded
    url = reverse("conflicts:asked_test_create", args=[t.campaign.pk])
    form = t.client(t.narrator).get(url, HTTP_HX_REQUEST="true").content.decode()
    assert form.count('name="characters"') == 2 and 'value="medecine"' in form and "telepathie" not in form
    assert 'name="trait_code"' in t.client(t.narrator).get(url).content.decode()  # without script: a page
    response = t.client(t.narrator).post(
        reverse("conflicts:asked_test_create", args=[t.campaign.pk]),
        {"characters": [t.hero.pk, t.friend.pk], "trait_code": "medecine", "difficulty": "5", "note": "Vite"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and "Tests asked of Harvey, Janey." in body
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true">' in body and "Still to roll" in body
    assert AskedTest.objects.filter(status=AskStatus.PENDING).count() == 2


@pytest.mark.parametrize("case", ["foreign character", "trait", "repeat", "player"])
def test_a_bad_ask_by_post_is_refused_with_its_reason_never_a_500(case: str) -> None:
    t = Table()
    other_campaign, _narrator, (stranger,) = table(players=1)
    foreign = pc(other_campaign, stranger, name="Étranger")
    data = {"characters": [t.hero.pk], "trait_code": "medecine"}
    user = t.narrator
    if case == "foreign character":
        data["characters"] = [foreign.pk]
    elif case == "trait":
        data["trait_code"] = "telepathie"
    elif case == "repeat":
        t.ask(t.hero)
    else:
        user = t.player
    before = _state()
    response = t.client(user).post(reverse("conflicts:asked_test_create", args=[t.campaign.pk]), data,
                                   HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == {"repeat": 409, "player": 403}.get(case, 400)
    if case != "player":
        assert 'role="alert"' in response.content.decode()
    assert _state() == before


def test_the_player_rolls_in_one_tap_and_sees_the_result_card_with_the_region_emptied() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    client = t.client(t.player)
    url = reverse("conflicts:asked_test_roll", args=[t.campaign.pk, asked.pk])
    response = client.post(url, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and 'class="card roll-card"' in body and 'data-followup="reroll"' in body
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true"></div>' in body
    again = client.post(url, HTTP_HX_REQUEST="true")
    assert again.status_code == 409 and "already rolled" in again.content.decode()
    assert Event.objects.filter(kind="test.rolled").count() == 1


def test_the_answer_shows_the_region_after_the_roll_even_when_a_push_kept_it_before() -> None:
    """The member was read before the roll's write: the answer's region is keyed at the stream head after it, not
    served as the push of the ask kept it (a phone where the ask stayed after its roll)."""
    t = Table()
    [asked] = t.ask(t.hero)
    assert "data-asked-roll" in _pushed(Event.objects.latest("pk"), t.player, t)  # kept, oob, at the ask's head
    url = reverse("conflicts:asked_test_roll", args=[t.campaign.pk, asked.pk])
    body = t.client(t.player).post(url, HTTP_HX_REQUEST="true").content.decode()
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true"></div>' in body


def test_foreign_ids_answer_404_and_another_players_ask_too() -> None:
    t = Table()
    other_campaign, other_narrator, (stranger,) = table(players=1)
    foreign = pc(other_campaign, stranger, name="Étranger")
    [theirs] = asked_test_create(campaign=other_campaign, actor=other_narrator, character_ids=[foreign.pk],
                                 trait_code="medecine")  # fmt: skip
    [janeys] = t.ask(t.friend)
    before = _state()
    roll = "conflicts:asked_test_roll"
    assert t.client(t.player).post(reverse(roll, args=[t.campaign.pk, theirs.pk])).status_code == 404
    assert t.client(t.player).post(reverse(roll, args=[t.campaign.pk, janeys.pk])).status_code == 404
    withdraw = reverse("conflicts:asked_test_withdraw", args=[t.campaign.pk, theirs.pk])
    assert t.client(t.narrator).post(withdraw).status_code == 404
    assert (
        t.client(t.player).post(reverse("conflicts:asked_test_withdraw", args=[t.campaign.pk, janeys.pk])).status_code
        == 403
    )
    assert t.client(t.player).get(reverse(roll, args=[t.campaign.pk, janeys.pk])).status_code in (404, 405)
    assert _state() == before


def test_the_narrator_withdraws_from_the_dashboard() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    url = reverse("conflicts:asked_test_withdraw", args=[t.campaign.pk, asked.pk])
    response = t.client(t.narrator).post(url, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "Test withdrawn: Harvey." in body
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true"></div>' in body
    assert t.client(t.narrator).post(url, HTTP_HX_REQUEST="true").status_code == 409


# The "now" block


def test_the_players_page_opens_on_the_test_asked_with_its_chance_and_roll_button() -> None:
    t = Table()
    t.ask(t.hero, difficulty=int(Difficulty.DIFFICILE), note="Le mur")
    html = t.home(t.player)
    now, first_part = html.index('id="now"'), html.index('class="now-part"')
    assert now < first_part and html.index('<div id="now-ask" class="now-part">') + 18 == first_part  # first
    assert html.index('id="now-ask"') < html.index('id="live-feed"')
    region = html[html.index('id="now-ask"') : html.index('id="now-mine"')]
    # Médecine Moyen (4) against Difficile (Bon, 5): 4dF ≥ +1, 31 of 81 outcomes.
    assert "Harvey: Medicine (Fair) against Hard" in region and "38% chance" in region
    assert 'data-asked-roll="' in region and "Le mur" in region
    assert "The narrator asks for a Test" in region


def test_a_player_sees_only_the_tests_asked_of_their_own_characters() -> None:
    t = Table()
    t.ask(t.hero)
    region = t.home(t.other)
    region = region[region.index('id="now-ask"') : region.index('id="now-mine"')]
    assert "Harvey" not in region and "data-asked-roll" not in region


def test_the_narrators_now_block_shows_who_still_has_to_roll() -> None:
    t = Table()
    [asked, _janeys] = t.ask(t.hero, t.friend, trait="medecine")
    asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    html = t.home(t.narrator)
    region = html[html.index('id="now-ask"') : html.index('id="now-draw"')]
    assert "Still to roll" in region and "Janey: Medicine, Average" in region and "Harvey" not in region
    assert 'data-withdraw="' in region and "data-asked-roll" not in region


def test_plurals_and_french() -> None:
    t = Table()
    t.ask(t.hero)
    t.ask(t.hero, trait="esprit")
    client = t.client(t.player, language="fr")
    html = client.get(reverse("campaigns:home", args=[t.campaign.pk])).content.decode()
    region = html[html.index('id="now-ask"') : html.index('id="now-mine"')]
    assert "Le Narrateur demande 2 Tests" in region and "Lancer Médecine" in region


# Live


def _pushed(event: Event, user, t: Table) -> str:  # type: ignore[no-untyped-def]
    home = frozenset({home_subject(t.campaign.pk), feed_subject(t.campaign.pk)})
    return "".join(changed_regions(event, Viewer(membership(t.campaign, user), watching=home, csrf_token="x" * 32)))


def test_the_ask_appears_live_on_the_players_phone_and_goes_when_rolled() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    event = Event.objects.latest("pk")
    seen = _pushed(event, t.player, t)
    assert 'id="now-ask"' in seen and 'hx-swap-oob="true"' in seen and f'data-asked-roll="{asked.pk}"' in seen
    assert "Harvey" not in _pushed(event, t.other, t)  # another player's phone learns nothing of it
    assert "Harvey" in _pushed(event, t.narrator, t)
    asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    rolled = Event.objects.latest("pk")
    assert rolled.kind == "test.rolled"
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true"></div>' in _pushed(rolled, t.player, t)
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true"></div>' in _pushed(rolled, t.narrator, t)


def test_a_withdrawal_removes_it_live_and_an_unrelated_event_pushes_nothing() -> None:
    t = Table()
    [asked] = t.ask(t.hero)
    asked_test_withdraw(campaign_id=t.campaign.pk, actor=t.narrator, asked_id=asked.pk)
    withdrawn = Event.objects.latest("pk")
    assert '<div id="now-ask" class="now-part" hx-swap-oob="true"></div>' in _pushed(withdrawn, t.player, t)
    from campaigns.services import event_append

    note = event_append(campaign=t.campaign, kind="note", actor=t.player, payload={"text": "Bonsoir"})
    assert "now-ask" not in _pushed(note, t.player, t)  # a note changes no Test asked


def test_the_log_tells_the_ask_the_answer_and_the_withdrawal() -> None:
    from campaigns.chronicle import describe

    t = Table()
    [asked] = t.ask(t.hero, difficulty=int(Difficulty.DIFFICILE), note="Le mur")
    asked_test_roll(campaign_id=t.campaign.pk, actor=t.player, asked_id=asked.pk)
    [again] = t.ask(t.hero)
    asked_test_withdraw(campaign_id=t.campaign.pk, actor=t.narrator, asked_id=again.pk)
    texts = [describe(e) for e in Event.objects.order_by("pk") if e.kind.startswith("test.")]
    assert texts[0] == "A Test is asked of Harvey: Medicine, Hard. “Le mur”"
    assert "(as the narrator asked)" in texts[1]
    assert texts[2] == "A Test is asked of Harvey: Medicine."
    assert texts[3] == "The Test asked of Harvey is withdrawn."


def test_the_block_costs_two_queries_cold_and_none_once_kept(django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    """The asks waiting are read once for the declaration and the context; at the same stream head the kept region
    is served with no read at all (core.kept_regions)."""
    from campaigns.models import Membership
    from campaigns.now import section_html, sections

    t = Table()
    t.ask(t.hero, t.friend)
    [section] = [s for s in sections() if s.key == "ask"]
    for user in (t.narrator, t.player):
        member = Membership.objects.select_related("campaign__stream").get(campaign=t.campaign, user=user)
        with django_assert_max_num_queries(2 + 10):  # and each line's trait and standing, read on a miss
            first = section_html(section, member)
        with django_assert_max_num_queries(0):
            assert section_html(section, member) == first


def test_a_shaken_character_is_answered_with_the_jeton_card_and_nothing_is_rolled() -> None:
    """« Secoué … ne peut faire que des actions gratuites »: the tap answers with the card that offers the Jeton."""
    from states.services.shaken import savage_shaken_set

    t = Table()
    t.campaign.savage_states = True
    t.campaign.save(update_fields=["savage_states"])
    [asked] = t.ask(t.hero)
    savage_shaken_set(character=t.hero, actor=t.narrator, shaken=True, expected_version=None)
    before = _state()
    url = reverse("conflicts:asked_test_roll", args=[t.campaign.pk, asked.pk])
    response = t.client(t.player).post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Jeton" in response.content.decode()
    assert _state() == before


def test_without_script_the_forms_post_and_come_back_to_the_page() -> None:
    t = Table()
    narrator = t.client(t.narrator)
    answer = narrator.post(reverse("conflicts:asked_test_create", args=[t.campaign.pk]),
                           {"characters": [t.hero.pk], "trait_code": "medecine"})  # fmt: skip
    assert answer.status_code == 302 and answer["Location"] == reverse("campaigns:home", args=[t.campaign.pk])
    asked = AskedTest.objects.get()
    rolled = t.client(t.player).post(reverse("conflicts:asked_test_roll", args=[t.campaign.pk, asked.pk]))
    assert rolled.status_code == 302 and rolled["Location"] == t.hero.get_absolute_url()
    again = narrator.post(reverse("conflicts:asked_test_withdraw", args=[t.campaign.pk, asked.pk]), follow=True)
    assert "This Test was already rolled." in again.content.decode()


def test_a_phone_that_missed_the_ask_gets_it_when_it_catches_up() -> None:
    """A phone offline while the narrator asked: the catch-up renders its watched regions anew, the ask among them."""
    from campaigns.live_catch_up import regions_now

    t = Table()
    [asked] = t.ask(t.hero)
    player = membership(t.campaign, t.player)
    home = frozenset({home_subject(t.campaign.pk), feed_subject(t.campaign.pk)})
    head = Event.objects.filter(campaign=t.campaign).latest("position").position
    html = regions_now(player, watching=home, csrf_token="x" * 32, language="en", after=0, head=head) or ""
    assert f'data-asked-roll="{asked.pk}"' in html and 'id="now-ask"' in html
