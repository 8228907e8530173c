"""The store of kept fragments (the ``fragments`` cache): Django's in-process memory cache, minus two costs that
buy nothing for what it holds.

- **Key checks.** Django warns about keys memcached could not take, walking every character of every key on
  every read and write. The keys here are made by ``core.kept_regions`` and ``core.fragment_cache`` alone: a
  name and a hex digest, ASCII without spaces and far below memcached's 250 characters. On a log page after a
  note the walk cost about 0.6 ms of a 15 ms request (100 keys).
- **Pickling strings.** The memory cache pickles each value so that a cached list cannot be changed through the
  caller's copy. A ``str`` cannot be changed at all, and rendered HTML is what the store mostly holds: it is kept
  as plain text (a ``SafeString`` too: its callers mark what they take out safe, ``core.fragment_cache``). Anything
  else is pickled as before.

A ``SafeString`` is a ``str`` with a ``__dict__``, which the garbage collector tracks: thousands of them kept here were
walked by every full collection, a pause a live draw waited through. Plain text is not tracked.

Everything else (the bound on the number of entries, culling, timeouts, the lock) is Django's.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from threading import Lock
from typing import TYPE_CHECKING, Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.utils.safestring import SafeString


class FragmentStore(LocMemCache):
    if TYPE_CHECKING:  # LocMemCache's own, which its stubs leave out
        _cache: OrderedDict[str, Any]
        _lock: Lock

        def _has_expired(self, key: str) -> bool: ...
        def _delete(self, key: str) -> bool: ...
        def _set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT) -> None: ...

    def validate_key(self, key: str) -> None:
        """Keys are ours (see the module's docstring): nothing to warn about."""

    def _pack(self, value: Any) -> Any:
        # Strings cannot be changed through a copy: kept as they are, a SafeString as plain text (its pickling went
        # through copyreg and cost more than plain text's; ``SafeString.__str__`` is itself: ``str.__str__`` copies).
        if type(value) is SafeString:
            return str.__str__(value)
        return value if type(value) is str else pickle.dumps(value, self.pickle_protocol)

    @staticmethod
    def _unpack(stored: Any) -> Any:
        return stored if type(stored) is str else pickle.loads(stored)  # noqa: S301 - only what we stored

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                return default
            stored = self._cache[key]
            self._cache.move_to_end(key, last=False)
        return self._unpack(stored)

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        """All of ``keys`` under one taking of the lock."""
        found: dict[str, Any] = {}
        with self._lock:
            for key in keys:
                made = self.make_key(key, version=version)
                if self._has_expired(made):
                    self._delete(made)
                    continue
                found[key] = self._cache[made]
                self._cache.move_to_end(made, last=False)
        return {key: self._unpack(stored) for key, stored in found.items()}

    def set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        key = self.make_key(key, version=version)
        packed = self._pack(value)
        with self._lock:
            self._set(key, packed, timeout)

    def add(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_key(key, version=version)
        packed = self._pack(value)
        with self._lock:
            if self._has_expired(key):
                self._set(key, packed, timeout)
                return True
            return False
