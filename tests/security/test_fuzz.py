"""Hostile input on every endpoint, as every role: never a 500, never a write followed by an error (issue 14).

The URLs come from the resolver, so a new endpoint is fuzzed without anyone listing it (and the suite fails
while it has no entry in ``test_inventory.URLS`` to build its address from). Each endpoint is posted the
forms its pages draw, harvested from the HTML as each member sees it, then mutated by hypothesis: fields
swapped for hostile values (non-numbers, numbers past every column, NUL bytes, long strings, a ``next`` that
is no path, JSON nested thousands deep, forged game moves), dropped, duplicated, or joined by fields other
forms use; ids in the path pushed out of range. GET pages get the same values in their query.

An error answer (a 4xx, or a redirect carrying an error message) must leave every table as it was: the
fingerprint (row counts, latest ids, sums of versions) is one query taken around each request.

Cost: a fixed number of examples per endpoint and role, derandomized, no deadline, one campaign built per
module and each test rolled back to it. ``FUZZ_SCALE`` multiplies the examples for a longer local run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.messages import ERROR
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from campaigns.models import Membership, Role
from tests.campaigns.factories import campaign_with
from tests.sampling import spread
from tests.security import fuzzing
from tests.security.conftest import World, build_world
from tests.security.test_inventory import URLS, url_names

NAMES = sorted(set(url_names()))
ROLES = ("narrator", "player", "outsider", "anonymous")
SCALE = float(os.environ.get("FUZZ_SCALE", "1"))
# Examples per form a member is drawn (per endpoint for the others, turned away before any parsing).
EXAMPLES = {"narrator": 4, "player": 3, "outsider": 3, "anonymous": 2}
POST_ENDPOINTS = sorted(name for name in NAMES if name in URLS and URLS[name].post_only)
# Pages that also take a POST (their own form): fuzzed with both methods.
FORM_PAGES = ("accounts:signup", "accounts:profile", "login", "password_change", "campaigns:list",
              "campaigns:members", "campaigns:sessions", "campaigns:log",
              "campaigns:invitation", "characters:create",
              "conflicts:scenes", "conflicts:scene", "conflicts:sequence", "conflicts:panel",
              "tragic:home", "tragic:invitation", "tragic:deck", "frag:home", "campaigns:public_log")  # fmt: skip
# POST endpoints no page of the seeded world draws a form for (a dialog opened by script, a state the world is
# not in): why, and the fields their callers post, with plausible values for hypothesis to spoil.
Fields = Callable[[World], tuple[tuple[str, str], ...]]
UNHARVESTED: dict[str, tuple[str, Fields]] = {
    "campaigns:invitation_revoke": ("no invitation is pending", lambda w: ()),
    "conflicts:cut": (
        "a Sequence's end, offered once drawn",
        lambda w: (("side", "PJ"), ("choice", "cut"), ("version", str(w.sequence.version))),
    ),
    "conflicts:settle": ("offered once every card is down", lambda w: (("version", str(w.sequence.version)),)),
    "conflicts:test": (
        "the Test dialog, posted by script",
        lambda w: (
            ("character", str(w.alice_pc.pk)),
            ("difficulty", "4"),
            ("relatedness", "close"),
            ("scale", "0"),
            ("other", "0"),
            ("equipment", "0"),
        ),
    ),
    "conflicts:sheet_roll_atout": (
        "the card shown after a roll",
        lambda w: (("roll", "x"), ("use", "change"), ("index", "0"), ("face", "1")),
    ),
    "frag:act": (
        "posted by the board's script",
        lambda w: (("action", '{"type": "end_turn", "player": 0}'), ("version", str(w.frag.version)), ("choice", "0")),
    ),
    "frag:reveal": ("the hot-seat screen only", lambda w: (("seat", "0"),)),
    "tragic:game_timeout": ("offered when a clock runs out", lambda w: (("version", str(w.tragic.version)),)),
    "tragic:game_cancel": ("offered before the game starts", lambda w: ()),
    # A Jeton ends Shaken: offered only while the character is Shaken, which the fuzz world's characters are not.
    "conflicts:sheet_unshake": ("offered only to a Shaken character", lambda w: ()),
    # A Test asked: its roll and withdraw buttons show only while one waits, which the fuzz world's tables do not.
    "conflicts:asked_test_roll": ("offered only while a Test is asked", lambda w: ()),
    "conflicts:asked_test_withdraw": ("offered only while a Test is asked", lambda w: ()),
    "conflicts:unshake": ("offered only to a Shaken participant", lambda w: (("version", str(w.sequence.version)),)),
}


_settings = settings(
    derandomize=True,
    deadline=None,
    database=None,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)


@pytest.fixture(scope="module")
def fuzz(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """One seeded world and the forms its pages draw, for the whole module; every test rolls back to it."""
    # The suite's autouse settings are per test; the module's world is built before them.
    quick = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"], AXES_ENABLED=False)
    with django_db_blocker.unblock(), quick:
        outer = transaction.atomic()
        outer.__enter__()
        try:
            world = build_world()
            _give_the_sheet_every_line(world)
            other = campaign_with(narrator=world.stranger)  # the outsider belongs to a campaign of their own
            assert other.pk != world.campaign.pk
            yield world, _harvest(world), fuzzing.fingerprint_sql(), sorted(fuzzing.form_field_names())
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _give_the_sheet_every_line(world: World) -> None:
    """A line of each kind the sheet can remove or heal, and a state, so their forms are drawn and fuzzed."""
    from characters.services.atouts import atout_gain
    from characters.services.equipment import equipment_add
    from characters.services.revers import revers_inflict
    from states.services.wounds import savage_wounds_set

    pc, narrator = world.alice_pc, world.narrator
    equipment_add(character=pc, actor=narrator, data={"category": "weapon", "name": "Pied-de-biche", "bonus": 1,
                                                      "era": 2, "firearm": False, "bulletproof": False})  # fmt: skip
    revers_inflict(character=pc, actor=narrator, domain="physical", domain_name="", severity=1, nature="blunt",
                   source="Une chute")  # fmt: skip
    atout_gain(character=pc, actor=narrator, amount=1, note="Bien joué")
    savage_wounds_set(character=pc, actor=narrator, count=1, expected_version=None)


def _harvest(world: World) -> dict[str, list[fuzzing.HarvestedForm]]:
    """Every page each member can open, read as a browser would: the forms and their untouched values."""
    found: list[fuzzing.HarvestedForm] = []
    client = Client()
    for user in (world.narrator, world.alice, world.bob):
        _login(client, user)
        for name, spec in URLS.items():
            if spec.post_only:
                continue
            try:
                path = reverse(name, kwargs=spec.kwargs(world))
            except Exception:  # noqa: BLE001 - a page without an address of its own is fuzzed by its POST
                continue
            response = client.get(path)
            if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                found += fuzzing.harvest(response.content.decode(), path)
    return fuzzing.by_url_name(found)


def _login(client: Client, user: Any) -> None:
    client.logout()
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = "en"


def _client(world: World, role: str) -> Client:
    client = Client()
    users = {"narrator": world.narrator, "player": world.alice, "outsider": world.stranger, "anonymous": None}
    _login(client, users[role])
    return client


def _values() -> st.SearchStrategy[str]:
    leaves = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.sampled_from(fuzzing.ACTION_KINDS)
    tree = st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(fuzzing.ACTION_KEYS), inner, max_size=4)
        ),  # fmt: skip
        max_leaves=8,
    )
    return st.sampled_from(fuzzing.HOSTILE) | tree.map(fuzzing.forged_action) | st.text(max_size=12)


def _mutated(data: Any, fields: tuple[tuple[str, str], ...], vocabulary: list[str]) -> dict[str, list[str]]:
    """The form's fields, each kept, replaced by a hostile value, dropped or duplicated; and a few strangers."""
    posted: dict[str, list[str]] = {}
    for name, value in fields:
        how = data.draw(st.sampled_from(("keep", "keep", "hostile", "hostile", "drop", "twice")), label=name)
        if how == "drop":
            continue
        new = data.draw(_values(), label=f"{name}=") if how == "hostile" else value
        posted.setdefault(name, []).append(new)
        if how == "twice":
            posted[name].append(data.draw(_values(), label=f"{name}+="))
    for name in data.draw(st.lists(st.sampled_from(vocabulary), max_size=2), label="extra fields"):
        posted.setdefault(name, []).append(data.draw(_values(), label=f"{name}=="))
    return posted


def _path(data: Any, path: str) -> str:
    """Sometimes an id of the path pushed out of every column's range (the converters take any digits)."""
    if re.search(r"/\d+/", path) and data.draw(st.integers(0, 4), label="path") == 0:
        big = data.draw(st.sampled_from(("0", "2147483648", "9223372036854775808", "9" * 30)), label="id")
        return re.sub(r"/\d+/", f"/{big}/", path, count=1)
    return path


def _errored(response: Any) -> bool:
    if response.status_code >= 400:
        return True
    queued = getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", [])
    return any(message.level >= ERROR for message in queued)


def _check(response: Any, before: tuple[Any, ...], after: tuple[Any, ...], what: str) -> None:
    assert response.status_code < 500, f"{what}: {response.status_code}"
    if _errored(response):
        assert after == before, f"{what}: answered {response.status_code} after writing"


def _candidates(world: World, name: str, harvested: dict[str, list[fuzzing.HarvestedForm]], method: str) -> list[Any]:
    spec = URLS.get(name)
    assert spec is not None, f"{name} has no entry in tests/security/test_inventory.URLS to build its address from"
    own = [(f.path, f.fields) for f in harvested.get(name, []) if f.method == method]
    if own:
        return own
    fields = UNHARVESTED[name][1](world) if method == "post" and name in UNHARVESTED else ()
    return [(reverse(name, kwargs=spec.kwargs(world)), fields)]


# An endpoint with many forms (each sheet action is its own path) is fuzzed on a spread of them in the fast
# suite and on every one under `make test-slow` (test_hostile_posts_on_every_form).
FAST_PATHS = 5


def _run(fuzz: Any, name: str, role: str, method: str, every_form: bool = False) -> None:
    """Members fuzz each form the pages draw for this endpoint (one per path: each sheet action is its own);
    outsiders and anonymous visitors, turned away before any parsing, fuzz the endpoint as a whole."""
    world, harvested, sql, vocabulary = fuzz
    candidates = _candidates(world, name, harvested, method)
    user_id = {"narrator": world.narrator.pk, "player": world.alice.pk}.get(role)
    client = _client(world, role)
    groups: dict[str, list[Any]] = {}
    for path, fields in candidates:
        groups.setdefault(path if user_id else "", []).append((path, fields))

    def attempt(data: Any, forms_of_path: list[Any]) -> None:
        if user_id is not None and str(client.session.get("_auth_user_id")) != str(user_id):
            _login(client, world.narrator if role == "narrator" else world.alice)  # after a fuzzed logout
        path, fields = data.draw(st.sampled_from(forms_of_path), label="form")
        path = _path(data, path)
        posted = _mutated(data, fields, vocabulary)
        headers = {"HTTP_HX_REQUEST": "true"} if data.draw(st.booleans(), label="htmx") else {}
        before = fuzzing.fingerprint(sql)
        response = getattr(client, method)(path, posted, **headers)
        _check(response, before, fuzzing.fingerprint(sql), f"{method.upper()} {path} {posted!r:.400}")

    examples = max(1, round(EXAMPLES[role] * SCALE))
    paths = sorted(groups)
    for path in paths if every_form else spread(paths, FAST_PATHS):
        forms_of_path = groups[path]
        _fuzzer(attempt, forms_of_path, examples)()


def _fuzzer(attempt: Callable[[Any, list[Any]], None], forms_of_path: list[Any], examples: int) -> Any:
    @settings(_settings, max_examples=examples)
    @given(data=st.data())
    def run(data: Any) -> None:
        attempt(data, forms_of_path)

    return run


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", POST_ENDPOINTS + sorted(set(FORM_PAGES) & set(NAMES)))
def test_hostile_posts(fuzz: Any, db: Any, name: str, role: str) -> None:
    _run(fuzz, name, role, "post")


@pytest.mark.slow
@pytest.mark.parametrize("role", ["narrator", "player"])
@pytest.mark.parametrize("name", POST_ENDPOINTS + sorted(set(FORM_PAGES) & set(NAMES)))
def test_hostile_posts_on_every_form(fuzz: Any, db: Any, name: str, role: str) -> None:
    _run(fuzz, name, role, "post", every_form=True)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", [n for n in NAMES if not (n in URLS and URLS[n].post_only)])
def test_hostile_queries(fuzz: Any, db: Any, name: str, role: str) -> None:
    _run(fuzz, name, role, "get")


def test_every_endpoint_is_fuzzed(fuzz: Any, db: Any) -> None:
    """Each URL the resolver knows is fuzzed; each POST endpoint with a form a page draws, or a reason why not."""
    _world, harvested, _sql, _vocabulary = fuzz
    unknown = [name for name in NAMES if name not in URLS]
    assert not unknown, f"add these to tests/security/test_inventory.URLS: {unknown}"
    bare = sorted(n for n in POST_ENDPOINTS if not any(f.method == "post" for f in harvested.get(n, [])))
    assert bare == sorted(UNHARVESTED), f"POST endpoints no page draws a form for: {bare}"
    for name in FORM_PAGES:
        assert name in NAMES, f"{name} is no longer a URL"


def test_the_outsider_is_a_member_elsewhere(fuzz: Any, db: Any) -> None:
    world = fuzz[0]
    assert Membership.objects.filter(user=world.stranger, role=Role.NARRATOR).exclude(campaign=world.campaign)
