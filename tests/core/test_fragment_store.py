"""The store of kept fragments (core/fragment_store.py): Django's memory cache without its key walk and without
pickling strings, and otherwise the same (copies of other values, the bound on entries)."""

from __future__ import annotations

import gc
import warnings
from unittest import mock

import pytest
from django.core.cache import caches
from django.core.cache.backends.base import CacheKeyWarning
from django.utils.safestring import mark_safe

from core.fragment_store import FragmentStore


@pytest.fixture
def store() -> FragmentStore:
    cache = caches["fragments"]
    assert isinstance(cache, FragmentStore)  # the settings name it as the fragments' store
    cache.clear()
    return cache


def test_a_string_is_kept_as_it_is_and_read_back(store: FragmentStore) -> None:
    html = "<li>Une note</li>" * 100
    with mock.patch("core.fragment_store.pickle.dumps", side_effect=AssertionError("pickled")):
        store.set("region:a", html)
        store.set_many({"region:b": "<p>b</p>"})
    assert store.get("region:a") == html
    assert store.get_many(["region:a", "region:b", "region:c"]) == {"region:a": html, "region:b": "<p>b</p>"}
    assert store.get("region:c", "absent") == "absent"
    safe = mark_safe("<p>rendu</p>")  # noqa: S308 - a literal
    with mock.patch("core.fragment_store.pickle.dumps", side_effect=AssertionError("pickled")):
        store.set("region:safe", safe)
    # Kept as plain text, which the garbage collector does not track (a SafeString has a ``__dict__``: thousands of them
    # were walked by every full collection); its callers mark what they take out safe.
    assert type(store.get("region:safe")) is str and store.get("region:safe") == safe
    assert not gc.is_tracked(store._cache[store.make_key("region:safe")])


def test_another_value_is_a_copy_as_django_makes_it(store: FragmentStore) -> None:
    lines = ["un", "deux"]
    store.set("story", lines)
    lines.append("trois")
    read = store.get("story")
    assert read == ["un", "deux"]
    read.append("quatre")
    assert store.get_many(["story"]) == {"story": ["un", "deux"]}
    assert store.add("story", ["autre"]) is False
    assert store.add("other", ("a", 1)) is True and store.get("other") == ("a", 1)


def test_keys_are_not_walked_for_memcached(store: FragmentStore) -> None:
    # Django's check walks every character of every key; the store's keys are ours (a name and a digest).
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        with mock.patch("django.core.cache.backends.base.memcache_key_warnings", side_effect=AssertionError):
            store.set("region:x", "<p>x</p>")
            assert store.get("region:x") == "<p>x</p>"
            assert store.get_many(["region:x"]) == {"region:x": "<p>x</p>"}


def test_the_bound_on_entries_still_holds(store: FragmentStore) -> None:
    small = FragmentStore("test-fragment-store", {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})
    small.clear()
    for n in range(50):
        small.set(f"k{n}", f"<p>{n}</p>")
    assert len(small._cache) <= 10
    assert small.get("k49") == "<p>49</p>"
    small.clear()
