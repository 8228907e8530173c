"""Every URL is classified: who may GET or POST it. Refusals are checked against a seeded campaign.

- anonymous visitors are sent to the login page (public pages and unknown public tokens excepted);
- someone outside the campaign (or not seated at the game, or not owning the deck) gets 404, whatever the method;
- a player asking for a narrator's action gets 403 (404 where the page hides that the action exists);
- a refusal changes nothing in the database;
- a view that changes state answers 405 to GET and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.security.conftest import World, fingerprint

pytestmark = pytest.mark.django_db

Kwargs = Callable[[World], dict[str, Any]]

# scope: "public" (anyone), "login" (any signed-in person), "campaign" (members), "game" (seated people),
# "deck" (its owner). post_only: GET answers 405. narrator: a player is refused with one of these codes.


@dataclass(frozen=True)
class Spec:
    scope: str
    kwargs: Kwargs = field(default=lambda w: {})
    post_only: bool = False
    narrator: tuple[int, ...] = ()  # statuses a player gets (GET and POST); empty: players may use it
    player_post: tuple[int, ...] = ()  # statuses a player gets on POST only (GET allowed)


def c(w: World) -> dict[str, Any]:
    return {"campaign_id": w.campaign.pk}


def ch(w: World) -> dict[str, Any]:
    return {"character_id": w.alice_pc.pk}


NARR = (403,)

URLS: dict[str, Spec] = {
    "home": Spec("public"),
    "healthz": Spec("public"),
    "favicon": Spec("public"),
    "accounts:signup": Spec("public"),
    "accounts:language": Spec("public", post_only=True),
    "accounts:profile": Spec("login"),
    "login": Spec("public"),
    "logout": Spec("public", post_only=True),
    "password_change": Spec("login"),
    "password_change_done": Spec("login"),
    "campaigns:list": Spec("login"),
    "campaigns:home": Spec("campaign", c),
    "campaigns:dashboard": Spec("campaign", c, narrator=NARR),
    "campaigns:settings": Spec("campaign", c, narrator=NARR),
    "campaigns:settings_section": Spec(
        "campaign", lambda w: {**c(w), "key": "campaign"}, post_only=True, narrator=NARR
    ),
    "campaigns:members": Spec("campaign", c, narrator=NARR),
    "campaigns:member_role": Spec(
        "campaign", lambda w: {**c(w), "membership_id": w.bob_membership().pk}, post_only=True, narrator=NARR
    ),
    "campaigns:invitation_revoke": Spec(
        "campaign", lambda w: {**c(w), "invitation_id": 999999}, post_only=True, narrator=NARR
    ),
    "campaigns:sessions": Spec("campaign", c, narrator=NARR),
    "campaigns:session_transition": Spec(
        "campaign",
        lambda w: {**c(w), "session_id": w.game_session.pk, "action": "close"},
        post_only=True,
        narrator=NARR,
    ),
    "campaigns:clock_advance": Spec("campaign", c, post_only=True, narrator=NARR),
    "campaigns:log": Spec("campaign", c),
    "campaigns:log_export": Spec("campaign", lambda w: {**c(w), "fmt": "json"}),
    # The whole campaign, secrets included: narrators only. Importing makes a new campaign: anyone signed in.
    "campaigns:archive_download": Spec("campaign", c, narrator=NARR),
    "campaigns:archive_upload": Spec("login", post_only=True),
    "campaigns:note_create": Spec("campaign", c, post_only=True),
    "campaigns:event_correct": Spec("campaign", lambda w: {**c(w), "event_id": w.public_event.pk}, post_only=True),
    "campaigns:public_log_toggle": Spec("campaign", c, post_only=True, narrator=NARR),
    # Public to read (it names the campaign to someone without an account yet); joining needs to log in.
    "campaigns:invitation": Spec("public", lambda w: {"token": "no-such-token"}),
    "campaigns:public_log": Spec("public", lambda w: {"token": "no-such-token"}),
    "characters:detail": Spec("campaign", ch),
    "characters:print": Spec("campaign", ch),
    "characters:act": Spec("campaign", lambda w: {**ch(w), "name": "gain"}, post_only=True, narrator=NARR),
    "characters:campaign": Spec("campaign", c),
    "characters:create": Spec("campaign", c),
    "characters:npc_create": Spec("campaign", c, post_only=True, narrator=NARR),
    # The old settings pages (characters:rules, states:savage_settings, conflicts:table) redirect to their section.
    "characters:rules": Spec("campaign", c, narrator=NARR),
    "states:savage_state": Spec("campaign", ch),
    "states:savage_roll": Spec("campaign", ch, post_only=True),
    "states:savage_trick": Spec("campaign", ch, post_only=True),
    "states:savage_sheet": Spec("campaign", ch, post_only=True),
    "states:savage_action": Spec(
        "campaign", lambda w: {**ch(w), "action": "token_award"}, post_only=True, narrator=NARR
    ),
    "states:savage_round": Spec("campaign", c),
    "states:savage_round_action": Spec("campaign", lambda w: {**c(w), "action": "deal"}, post_only=True, narrator=NARR),
    "states:savage_settings": Spec("campaign", c, narrator=NARR),
    "conflicts:home": Spec("login"),
    # A player posting a new scene gets 404: the form does not exist for them.
    "conflicts:scenes": Spec("campaign", c, player_post=(403, 404)),
    "conflicts:table": Spec("campaign", c, narrator=NARR),
    "conflicts:reshuffle": Spec("campaign", lambda w: {**c(w), "deck_id": w.deck.pk}, post_only=True),
    "conflicts:test": Spec("campaign", c, post_only=True),
    "conflicts:test_chance": Spec("campaign", c, post_only=True),
    "conflicts:sheet_roll": Spec("campaign", lambda w: {**c(w), "character_id": w.alice_pc.pk}, post_only=True),
    "conflicts:sheet_roll_dialog": Spec("campaign", lambda w: {**c(w), "character_id": w.alice_pc.pk}),
    "conflicts:sheet_roll_atout": Spec("campaign", lambda w: {**c(w), "character_id": w.alice_pc.pk}, post_only=True),
    "conflicts:other_tests": Spec("campaign", lambda w: {**c(w), "character_id": w.alice_pc.pk}),
    "conflicts:simple": Spec("campaign", c, post_only=True, narrator=NARR),
    # A Test the narrator asks for: asked and withdrawn by the narrator, rolled by its character's player.
    # GET: its form, loaded when the narrator opens the fold on the dashboard.
    "conflicts:asked_test_create": Spec("campaign", c, narrator=NARR),
    "conflicts:asked_test_withdraw": Spec(
        "campaign", lambda w: {**c(w), "asked_id": 999999}, post_only=True, narrator=NARR
    ),
    "conflicts:asked_test_roll": Spec("campaign", lambda w: {**c(w), "asked_id": 999999}, post_only=True),
    "conflicts:scene": Spec("campaign", lambda w: {**c(w), "scene_id": w.scene.pk}, player_post=(403, 404)),
    "conflicts:sequence": Spec("campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}),
    "conflicts:story": Spec("campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}),
    # GET: its form, loaded when the narrator opens the fold on the Sequence page.
    "conflicts:participant_add": Spec("campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}, narrator=NARR),
    "conflicts:draw_npcs": Spec(
        "campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}, post_only=True, narrator=NARR
    ),
    "conflicts:settle": Spec(
        "campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}, post_only=True, narrator=NARR
    ),
    "conflicts:cut": Spec("campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}, post_only=True),
    # The narrator takes a participant out or ends the Sequence, with a reason for the log.
    "conflicts:take_out": Spec(
        "campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}, post_only=True, narrator=NARR
    ),
    "conflicts:end": Spec("campaign", lambda w: {**c(w), "sequence_id": w.sequence.pk}, post_only=True, narrator=NARR),
    # A Jeton ends Shaken, from the draw panel or the sheet: the participant's or the character's runner.
    "conflicts:unshake": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}, post_only=True),
    "conflicts:sheet_unshake": Spec("campaign", lambda w: {**c(w), "character_id": w.alice_pc.pk}, post_only=True),
    "conflicts:panel": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}),
    # A read (the odds of a split), answered to GET.
    "conflicts:odds": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}),
    "conflicts:split": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}, post_only=True),
    "conflicts:declare": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}, post_only=True),
    "conflicts:modifiers": Spec(
        "campaign", lambda w: {**c(w), "participant_id": w.participant.pk}, post_only=True, narrator=NARR
    ),
    "conflicts:modifiers_form": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}, narrator=NARR),
    "conflicts:atout": Spec("campaign", lambda w: {**c(w), "participant_id": w.participant.pk}, post_only=True),
    "tragic:home": Spec("login"),
    "tragic:game_create": Spec("login", post_only=True),
    "tragic:game": Spec("game", lambda w: {"pk": w.tragic.pk}),
    "tragic:game_act": Spec("game", lambda w: {"pk": w.tragic.pk}, post_only=True),
    "tragic:game_timeout": Spec("game", lambda w: {"pk": w.tragic.pk}, post_only=True),
    "tragic:game_cancel": Spec("game", lambda w: {"pk": w.tragic.pk}, post_only=True),
    "tragic:replay": Spec("game", lambda w: {"pk": w.tragic.pk}),
    "tragic:invitation": Spec("login", lambda w: {"token": "no-such-token"}),
    "tragic:deck_create": Spec("login", post_only=True),
    "tragic:deck": Spec("deck", lambda w: {"pk": w.tragic_deck.pk}),
    "tragic:deck_change": Spec("deck", lambda w: {"pk": w.tragic_deck.pk}, post_only=True),
    "frag:home": Spec("login"),
    "frag:game": Spec("game", lambda w: {"game_id": w.frag.pk}),
    "frag:act": Spec("game", lambda w: {"game_id": w.frag.pk}, post_only=True),
    "frag:reveal": Spec("game", lambda w: {"game_id": w.frag.pk}, post_only=True),
    "frag:replay": Spec("game", lambda w: {"game_id": w.frag.pk}),
}


def url_names(resolver: Any = None, namespace: str | None = None) -> Iterator[str]:
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            ns = pattern.namespace or namespace
            if ns == "admin":  # Django's admin checks staff status itself.
                continue
            yield from url_names(pattern, ns)
        elif isinstance(pattern, URLPattern):
            yield f"{namespace}:{pattern.name}" if namespace else str(pattern.name)


def test_every_url_is_classified():
    """A new view cannot skip this audit: add it to URLS with who may use it."""
    names = list(url_names())
    assert len(names) == len(set(names)), "every URL pattern needs its own name"
    missing = sorted(set(names) - set(URLS))
    stale = sorted(set(URLS) - set(names))
    assert not missing, f"unclassified URLs (add them to tests/security/test_inventory.py): {missing}"
    assert not stale, f"URLS lists patterns that no longer exist: {stale}"


def _url(world: World, name: str) -> str:
    return reverse(name, kwargs=URLS[name].kwargs(world))


def _login_redirect(response: Any) -> bool:
    return response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    problems = []
    for name, spec in URLS.items():
        if spec.scope == "public":
            continue
        url = _url(world, name)
        before = fingerprint()
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            if not _login_redirect(response):
                problems.append(f"{method.upper()} {name}: {response.status_code}")
        assert fingerprint() == before, name
    assert not problems


def test_unknown_public_tokens_are_404(client, world):
    assert client.get(_url(world, "campaigns:public_log")).status_code == 404
    world.login(client, world.stranger)
    assert client.get(_url(world, "campaigns:invitation")).status_code == 410  # says the link is dead
    assert client.get(_url(world, "tragic:invitation")).status_code == 404


def test_outsiders_get_404_on_everything_of_a_campaign_a_game_or_a_deck(client, world):
    world.login(client, world.stranger)
    problems = []
    before = fingerprint()
    for name, spec in URLS.items():
        if spec.scope not in ("campaign", "game", "deck"):
            continue
        url = _url(world, name)
        codes = {method: getattr(client, method)(url).status_code for method in ("get", "post")}
        # Membership comes before the method: a 405 would tell an outsider the object exists (issue 30).
        if set(codes.values()) != {404}:
            problems.append(f"{name}: {codes}")
    assert not problems
    assert fingerprint() == before


def test_a_player_asking_for_a_narrators_action_is_refused_and_nothing_changes(client, world):
    world.login(client, world.alice)
    problems = []
    before = fingerprint()
    for name, spec in URLS.items():
        if not spec.narrator and not spec.player_post:
            continue
        url = _url(world, name)
        checks = [("post", spec.narrator or spec.player_post)]
        if spec.narrator and not spec.post_only:
            checks.append(("get", spec.narrator))
        for method, allowed in checks:
            response = getattr(client, method)(url)
            if response.status_code not in allowed:
                problems.append(f"{method.upper()} {name}: {response.status_code}")
    assert not problems
    assert fingerprint() == before


def _privileged(world: World, spec: Spec) -> Any:
    return world.alice if spec.scope in ("game", "deck") else world.narrator


def test_state_changing_views_refuse_get_and_change_nothing(client, world):
    problems = []
    before = fingerprint()
    for name, spec in URLS.items():
        if not spec.post_only:
            continue
        world.login(client, _privileged(world, spec) if spec.scope != "public" else None)
        response = client.get(_url(world, name))
        if response.status_code != 405:
            problems.append(f"GET {name}: {response.status_code}")
    assert not problems
    assert fingerprint() == before


def test_pages_open_for_those_allowed(client, world):
    """The table above is true: each GET page opens for the person it is meant for."""
    problems = []
    for name, spec in URLS.items():
        # Tokens are tested apart; a TRAGIC replay exists once the game is over; the roll dialog's body is a
        # row's (?trait_code=…: tests/conflicts/test_sheet_roll_dialog.py), 400 without one.
        if spec.post_only or name in (
            "conflicts:sheet_roll_dialog",
            "campaigns:invitation",
            "campaigns:public_log",
            "tragic:invitation",
            "tragic:replay",
        ):
            continue
        user = None if spec.scope == "public" else _privileged(world, spec)
        world.login(client, user)
        response = client.get(_url(world, name))
        if response.status_code not in (200, 302):
            problems.append(f"GET {name}: {response.status_code}")
    assert not problems


def test_a_narrator_of_another_campaign_cannot_reach_this_ones_objects_through_their_own(client, world):
    """IDOR: the narrator of campaign B puts B's id in the URL and A's objects after it: 404, nothing changes."""
    from tests.campaigns.factories import campaign_with

    other = campaign_with(narrator=world.stranger)
    world.login(client, world.stranger)
    problems = []
    before = fingerprint()
    for name, spec in URLS.items():
        kwargs = spec.kwargs(world)
        # An action or a settings section names no object of the campaign: the other campaign's own is theirs.
        if (
            "campaign_id" not in kwargs
            or len(kwargs) == 1
            or set(kwargs) in ({"campaign_id", "action"}, {"campaign_id", "key"})
        ):
            continue
        if set(kwargs) == {"campaign_id", "fmt"}:
            continue
        url = reverse(name, kwargs={**kwargs, "campaign_id": other.pk})
        codes = {method: getattr(client, method)(url).status_code for method in ("get", "post")}
        if set(codes.values()) - {404, 405} or 404 not in codes.values():
            problems.append(f"{name}: {codes}")
    assert not problems
    assert fingerprint() == before
