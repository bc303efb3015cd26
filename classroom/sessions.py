"""Django's cached_db sessions, with the cached copy kept for a short while only.

Every signed-in request reads its session, and a teacher's projector and dashboard redraw on
every move: from the cache that is one Redis round trip instead of a database query and its
ORM work (bench_live_serving.py, grid redraw: see benchmarks/README.md).

Django's cached_db keeps the copy as long as the session lives (two weeks). The database stays
the truth; the cache may briefly disagree with it when Redis did not answer a write: a sign-out
(the row deleted, the copy not) or a change made while Redis was unreachable
(config/cache.py degrades rather than fails). With the copy kept CACHE_SECONDS at most, such a
session cannot outlive its sign-out (or its expiry) by more than that.

Only the documented methods of a session engine are overridden (load, save, exists and their
async twins), on top of the database store's own; a cache that fails is passed over as cached_db
does.
"""

from __future__ import annotations

import logging

from django.contrib.sessions.backends import cached_db, db

logger = logging.getLogger("django.contrib.sessions")

CACHE_SECONDS = 60


class SessionStore(cached_db.SessionStore):
    # Whether a new key is taken: the database alone knows (and a failing cache cannot fail a
    # sign-in).
    exists = db.SessionStore.exists
    aexists = db.SessionStore.aexists

    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # as cached_db: a cache that fails is a cache that misses
            data = None
        if data is None:
            data = db.SessionStore.load(self)
            if self.session_key is not None:  # the database knew it (load forgets it if not)
                self._keep(lambda: self._cache.set(self.cache_key, data, CACHE_SECONDS))
        return data

    async def aload(self):
        try:
            data = await self._cache.aget(await self.acache_key())
        except Exception:
            data = None
        if data is None:
            data = await db.SessionStore.aload(self)
            if self.session_key is not None:
                key = await self.acache_key()
                try:
                    await self._cache.aset(key, data, CACHE_SECONDS)
                except Exception:
                    logger.exception("Error saving to cache (%s)", self._cache)
        return data

    def save(self, must_create=False):
        db.SessionStore.save(self, must_create)
        self._keep(lambda: self._cache.set(self.cache_key, self._session, CACHE_SECONDS))

    async def asave(self, must_create=False):
        await db.SessionStore.asave(self, must_create)
        try:
            await self._cache.aset(await self.acache_key(), self._session, CACHE_SECONDS)
        except Exception:
            logger.exception("Error saving to cache (%s)", self._cache)

    def _keep(self, write) -> None:
        try:
            write()
        except Exception:
            logger.exception("Error saving to cache (%s)", self._cache)
