from __future__ import annotations

import os
import sys

import pytest
from django.conf import settings


@pytest.fixture(autouse=True)
def _in_memory_channels_and_plain_static(settings):  # type: ignore[no-untyped-def]
    """Tests talk to the channel layer configured by the environment (Redis in CI's second pass)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Real hashing costs ~0.3 s per password on these machines; tests only need it to be a hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Django's test client logs in without a request, which django-axes cannot count: the suite's own
    # logins are not throttled; tests/accounts/test_login_throttling.py turns it on.
    settings.AXES_ENABLED = False
    # A socket's handshake gives up on the database after a second (a PostgreSQL outage: 1013 at once). Two
    # workers on a loaded CI machine can take longer than that for a healthy read, so the suite waits longer;
    # tests/campaigns/test_live_database_down.py sets the production second back.
    settings.LIVE_HANDSHAKE_DB_SECONDS = 30
    layer = settings.CHANNEL_LAYERS["default"]
    if "prefix" in layer.get("CONFIG", {}):
        # On Redis (CI's second pass) the two workers share one server, while each has its own test database: a
        # campaign 1 in each would hear the other's groups. A prefix per worker keeps them apart, and the changed
        # setting gives every test a channel layer of its own (channels resets its layers when it changes).
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        config = {**layer["CONFIG"], "prefix": f"{layer['CONFIG']['prefix']}-{worker}"}
        settings.CHANNEL_LAYERS = {**settings.CHANNEL_LAYERS, "default": {**layer, "CONFIG": config}}
    yield


@pytest.fixture(autouse=True)
def _empty_caches():  # type: ignore[no-untyped-def]
    """Kept log figures, entries and live renderings are keyed by ids, and a rolled-back test hands its ids out again."""
    from django.core.cache import caches

    from campaigns.live_pages import forget_pages
    from campaigns.live_render import forget_renderings

    for alias in settings.CACHES:
        caches[alias].clear()
    forget_renderings()  # the live layer's shared renderings are kept by event id too
    forget_pages()  # and the pages a test left open would be rendered for by the next one
    yield


@pytest.fixture(autouse=True)
def _seeded_deals(monkeypatch):  # type: ignore[no-untyped-def]
    """The services shuffle and roll with ``random.SystemRandom()`` when no ``rng`` is passed; a test that seeds
    its draws but not every deal would otherwise vary from run to run. One seeded generator per test makes every
    run deal alike (``secrets`` keeps its own generator: tokens and passwords are untouched)."""
    import random

    shared = random.Random(20261125)
    monkeypatch.setattr(random, "SystemRandom", lambda *args, **kwargs: shared)
    yield


def _postgres() -> bool:
    """Whether the suite runs on PostgreSQL (CI's second pass), not SQLite."""
    return bool(settings.DATABASES["default"]["ENGINE"].endswith("postgresql"))


@pytest.fixture
def on_postgres() -> bool:
    return _postgres()


@pytest.fixture(autouse=True)
def _services_speak_english():  # type: ignore[no-untyped-def]
    """Service messages are asserted in English; pages pick their language per request."""
    from django.utils import translation

    with translation.override("en"):
        yield


# The fast suite's longest files (each 5-30 s on two quiet cores), started first: with `--dist worksteal` the
# short tests then fill both workers to the end, instead of one worker finishing a long test alone.
LONG_FIRST = (
    "tests/campaigns/test_one_truth.py",
    "tests/security/test_production_hygiene.py",
    "tests/tragic/test_bots.py",
    "tests/characters/test_fragments.py",
    "tests/campaigns/test_live_catch_up.py",
    "tests/tragic/test_rules_coverage.py",
    "tests/tragic/test_codes.py",
    "tests/security/test_malformed_moves.py",
    "tests/tragic/test_invariants.py",
)


# The process that imported this file: a forked copy of it (a mutation run's) has another pid.
_CONFTEST_PID = os.getpid()


def _long_first(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0]
    return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)


@pytest.hookimpl(tryfirst=True)  # before pytest-django's stable sort, which puts transactional tests last
def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """The longest files first (a stable sort: each file's own order is kept). Tests marked ``postgres`` need
    real row locks; on SQLite they are skipped, not faked.

    A mutant's session (a mutation run's fork, which stops at the first failure) takes them the other way round: the
    quick rules tests first and the database's last, so that a mutant they catch is not made to wait for a whole-game
    test or the test database first."""
    if "MUTANT_UNDER_TEST" in os.environ and os.getpid() != _CONFTEST_PID:
        items.sort(key=lambda item: (_needs_the_database(item), -_long_first(item)))
    else:
        items.sort(key=_long_first)
    if _postgres():
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (CI's second pass sets DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


# Tests split in parts that are meant to run at once, one part per worker (the consistency test's long hunt, in two
# halves). ``--dist worksteal`` first hands each worker one consecutive share of the collection, and a worker's next
# test is never stolen: two halves side by side land on one worker and run one after the other (150 s, then 120 s,
# while the other worker idled after its minute of short tests).
SPREAD = ("tests/campaigns/test_one_truth.py::test_every_open_sheet_with_its_live_messages_equals_a_fresh_one_long",)


class _SpreadOverWorkers:
    @pytest.hookimpl(trylast=True)  # after pytest-django's sort, which would move them again
    def pytest_collection_modifyitems(self, config, items):  # type: ignore[no-untyped-def]
        """Each part of a ``SPREAD`` test at the head of another worker's first share."""
        workers = getattr(config, "workerinput", {}).get("workercount", 1)
        for name in SPREAD:
            parts = [item for item in items if item.nodeid.split("[", 1)[0] == name]
            if len(parts) < 2 or workers < 2:
                continue
            starts = _first_shares(len(items), workers)
            rest = [item for item in items if item not in parts]
            for index, part in enumerate(parts):
                rest.insert(min(len(rest), starts[index % workers]), part)
            items[:] = rest


def _first_shares(count: int, workers: int) -> list[int]:
    """Where each worker's first share of ``count`` tests starts, as ``xdist.scheduler.worksteal`` hands them out:
    each worker in turn gets what is left divided by the workers left."""
    starts, given = [], 0
    for left in range(workers, 0, -1):
        starts.append(given)
        given += (count - given) // left
    return starts


def pytest_configure(config):  # type: ignore[no-untyped-def]
    config.pluginmanager.register(_SpreadOverWorkers(), "tablee-spread-over-workers")
    if _postgres():
        _flush_by_delete()


def _flush_by_delete() -> None:
    """On PostgreSQL, a transactional test's flush empties the tables with ``DELETE`` rather than ``TRUNCATE``: about
    250 tests flush, and a ``TRUNCATE`` of the project's 47 tables took 0.14-0.27 s where the ``DELETE``s of a test's
    few rows take about 0.01 s. The foreign keys Django makes are deferrable, and the flush runs in one transaction, so
    the order of the ``DELETE``s does not matter. A flush that resets the sequences keeps Django's own statement."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):  # type: ignore[no-untyped-def]
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;", *(f"DELETE FROM {self.quote_name(table)};" for table in tables)]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


def _needs_the_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or "django_db_setup" in getattr(item, "fixturenames", ())


@pytest.fixture(scope="session", autouse=True)
def _close_the_socket_thread_connection(request):  # type: ignore[no-untyped-def]
    """WebSocket tests run consumers' queries on asgiref's one sync thread, whose connection would
    otherwise outlive the tests and keep PostgreSQL from dropping the test database.

    A session of pure rules tests builds no test database. The mutation runs (docs/rules-coverage.md) fork one
    pytest session per mutant from a process whose sync thread does not come along: a fork closes its own
    connections, as waiting for that thread would never end. It builds the test database only when a test asks for
    it: a mutant's session stops at its first failure, most often in a pure test before any database test."""
    if not any(_needs_the_database(item) for item in request.session.items):
        yield
        return
    forked = os.getpid() != _CONFTEST_PID
    if not forked:
        request.getfixturevalue("django_db_setup")
    django_db_blocker = request.getfixturevalue("django_db_blocker")
    yield
    import asyncio

    from asgiref.sync import sync_to_async
    from django.db import connections

    with django_db_blocker.unblock():
        if forked:
            connections.close_all()
        else:
            asyncio.run(sync_to_async(connections.close_all, thread_sensitive=True)())


# The rules and engine packages a mutation run mutates (pyproject.toml, [tool.mutmut]) and the module-level memos
# among them that are plain dicts (the others are functools caches, found by their ``cache_clear``).
MUTATED_PACKAGES = ("states.rules", "conflicts.rules", "characters.rules", "tragic.engine", "frag.engine")
MEMO_DICTS = (
    ("tragic.engine.passives", "_PARTS"),
    ("tragic.engine.checks", "_AIMLESS"),
    ("tragic.engine.state", "_PAYMENTS"),
)


def empty_rules_caches(packages: tuple[str, ...] = MUTATED_PACKAGES) -> None:
    """Empty every process-level cache of the mutated ``packages``: the loaded maps, card pools, trait lists and
    powers, a card's passive part, the payments already worked out, the odds already counted."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(packages):
            continue
        for value in list(vars(module).values()):
            if getattr(value, "__module__", None) == name and callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    for name, attribute in MEMO_DICTS:
        if name in sys.modules and name.startswith(packages):
            getattr(sys.modules[name], attribute).clear()


def pytest_sessionstart(session):  # type: ignore[no-untyped-def]
    """A mutation run forks each mutant's session from a process that has run every selected test once (mutmut's
    stats): its caches already hold what the unmutated code built, so a mutant in a loader or behind a memo (parsing
    a map, a card's passive part) would never run and would « survive » untested. A forked session starts with them
    empty; an ordinary test run never has ``MUTANT_UNDER_TEST`` and changes nothing. Only the mutant's own package's:
    the five packages import nothing from one another, so another's caches hold nothing the mutant changed, and
    refilling them (the odds, the card pools) would cost every mutant seconds."""
    if "MUTANT_UNDER_TEST" in os.environ and os.getpid() != _CONFTEST_PID:
        mutant = os.environ["MUTANT_UNDER_TEST"]
        empty_rules_caches(tuple(p for p in MUTATED_PACKAGES if mutant.startswith(p + ".")) or MUTATED_PACKAGES)


@pytest.fixture(autouse=True)
def _rules_caches_empty_for_mutation_stats():  # type: ignore[no-untyped-def]
    """mutmut's stats run records which tests reach each function, and runs only those against its mutants: with a
    cache kept from one test to the next, a loader would be recorded for the first test that filled the cache only.
    Emptied before each test of that run, a cache is filled by every test that needs it."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        empty_rules_caches()
    yield


def pytest_unconfigure(config):  # type: ignore[no-untyped-def]
    """A mutation run (``make mutation``) collects the tests once in a server process, then forks one pytest session
    per mutant from it. Freezing what that process holds keeps each forked session's garbage collections (pytest
    runs two at its end) off the whole Django heap they inherit: half the CPU a mutant costs. mutmut sets
    ``MUTANT_UNDER_TEST``; an ordinary test run never has it and changes nothing."""
    if "MUTANT_UNDER_TEST" in os.environ:
        import gc

        gc.collect()
        gc.freeze()


def pytest_collection_finish(session):  # type: ignore[no-untyped-def]
    """Fewer garbage collections: CPython starts one every 700 new objects, and a test that renders pages makes
    millions, most freed by reference counting anyway; each collection of the older generations walks Django's
    whole heap. Freezing what collection built (modules, settings, the test items) and collecting the youngest
    generation every 20,000 objects took a tenth off the suite's CPU time (18.8-20.1 s → 17.1-17.7 s for the
    characters tests, runs interleaved). Cycles are still collected, later."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
