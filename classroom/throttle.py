"""Budgets for wrong passwords and wrong room codes, counted in the shared cache (Redis in
production) so every web process sees the same counts.

A budget allows `limit` misses per fixed window (aligned on the clock). A party that has spent it
is refused until the window ends, before anything expensive runs: a throttled login never reaches
the password hasher. The numbers live in settings (BOTBENCH_LOGIN_*, BOTBENCH_JOIN_*);
docs/throttles.md explains them.

- Logins: a small budget per account and a larger one per address.
- Room codes: a small budget per browser and a much larger one per address, so one class's typos
  behind a school's single address lock out nobody but the browser that made them.
"""

import hashlib
import logging
import math
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, ngettext

logger = logging.getLogger(__name__)

BROWSER_COOKIE = "botbench_browser"
_BROWSER_SALT = "botbench.browser"
_BROWSER_MAX_AGE = 60 * 60 * 16


def _now() -> float:
    return time.time()


def client_address(request: HttpRequest) -> str:
    """The client's address. Behind BOTBENCH_PROXY_HOPS trusted proxies it is that many entries
    from the right of X-Forwarded-For (entries further left are the client's to forge);
    otherwise every client would share the proxy's address and one class's typos would lock
    out the whole school."""
    hops = settings.BOTBENCH_PROXY_HOPS
    if hops:
        forwarded = [
            part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        ]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "unknown")


@dataclass(frozen=True)
class Budget:
    name: str
    limit: int
    window: int  # seconds

    def _key(self, who: str) -> tuple[str, float]:
        """This window's counter for `who`, and when the window ends. `who` is hashed so that
        no e-mail address or cookie value is stored in the cache."""
        start = math.floor(_now() / self.window) * self.window
        digest = hashlib.sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"throttle:{self.name}:{digest}:{int(start)}", start + self.window

    def wait(self, who: str) -> int:
        """Seconds until `who` may try again: 0 while the budget lasts."""
        key, ends = self._key(who)
        try:
            spent = cache.get(key) or 0
        except Exception:  # noqa: BLE001 - any cache backend's "unreachable"
            # With the cache down (Redis restarting) the throttle steps aside: refusing every
            # login and join would turn a cache fault into an outage for the whole school.
            logger.warning("Throttle %s: cache unreachable, not counting", self.name)
            return 0
        if spent < self.limit:
            return 0
        return max(1, math.ceil(ends - _now()))

    def spend(self, who: str) -> int:
        """Count one miss; returns the misses in this window (0 if the cache is down)."""
        key, ends = self._key(who)
        timeout = max(1, math.ceil(ends - _now()))
        try:
            cache.add(key, 0, timeout=timeout)  # atomic: only the first miss creates it
            try:
                count = cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=timeout)
                return 1
            # Redis keeps the expiry through INCR; the file cache's incr rewrites the entry
            # with the default timeout, so set the window's end again.
            cache.touch(key, timeout=timeout)
        except Exception:  # noqa: BLE001 - as in wait()
            logger.warning("Throttle %s: cache unreachable, not counting", self.name)
            return 0
        return count

    def reset(self, who: str) -> bool:
        """Forget this window's misses; False if the cache could not be reached."""
        try:
            cache.delete(self._key(who)[0])
        except Exception:  # noqa: BLE001 - as in wait()
            logger.warning("Throttle %s: cache unreachable, nothing reset", self.name)
            return False
        return True


@dataclass(frozen=True)
class Refusal:
    message: str
    wait_seconds: int


def _minutes(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def _first_refusal(checks: list[tuple[Budget, str, str]]) -> Refusal | None:
    """The first spent budget among (budget, who, message with a %(wait)s placeholder)."""
    for budget, who, message in checks:
        wait = budget.wait(who)
        if wait:
            return Refusal(message % {"wait": _minutes(wait)}, wait)
    return None


# Logins ------------------------------------------------------------------------------------


def _login_budgets() -> tuple[Budget, Budget]:
    window = settings.BOTBENCH_LOGIN_WINDOW_MINUTES * 60
    return (
        Budget("login-account", settings.BOTBENCH_LOGIN_ACCOUNT_LIMIT, window),
        Budget("login-address", settings.BOTBENCH_LOGIN_ADDRESS_LIMIT, window),
    )


def _account(email: str) -> str:
    return email.strip().lower()


def login_refusal(request: HttpRequest, email: str | None) -> Refusal | None:
    """Why this login may not even be checked, or None. Unknown e-mail addresses are counted
    like real ones, so the answer tells nothing about which accounts exist."""
    account, address = _login_budgets()
    checks = [
        (
            address,
            client_address(request),
            gettext("Too many wrong logins from this network. Wait %(wait)s and try again."),
        )
    ]
    if email:
        checks.insert(
            0,
            (
                account,
                _account(email),
                gettext(
                    "Too many wrong passwords for this account. Wait %(wait)s and try again, "
                    "or reset your password to unlock it now."
                ),
            ),
        )
    return _first_refusal(checks)


def login_locked(email: str) -> bool:
    """Whether this account has spent its budget (the school page offers to unlock it)."""
    return _login_budgets()[0].wait(_account(email)) > 0


def login_miss(request: HttpRequest, email: str | None) -> None:
    account, address = _login_budgets()
    address.spend(client_address(request))
    if email:
        account.spend(_account(email))


def login_unlock(*, email: str | None = None, address: str | None = None) -> bool:
    """The way back: a password reset, an administrator or `manage.py login_unlock`. False if
    the cache could not be reached."""
    account_budget, address_budget = _login_budgets()
    done = True
    if email:
        done = account_budget.reset(_account(email)) and done
    if address:
        done = address_budget.reset(address) and done
    return done


# Room codes ----------------------------------------------------------------------------------


def _join_budgets() -> tuple[Budget, Budget]:
    window = settings.BOTBENCH_JOIN_WINDOW_MINUTES * 60
    return (
        Budget("join-browser", settings.BOTBENCH_JOIN_BROWSER_LIMIT, window),
        Budget("join-address", settings.BOTBENCH_JOIN_ADDRESS_LIMIT, window),
    )


def read_browser_token(request: HttpRequest) -> str | None:
    return request.get_signed_cookie(
        BROWSER_COOKIE, default=None, salt=_BROWSER_SALT, max_age=_BROWSER_MAX_AGE
    )


def ensure_browser_cookie(request: HttpRequest, response: HttpResponse) -> None:
    """Give a browser that has none a random token: it counts the browser's wrong codes and
    says nothing about the student."""
    if read_browser_token(request) is None:
        response.set_signed_cookie(
            BROWSER_COOKIE,
            secrets.token_urlsafe(16),
            salt=_BROWSER_SALT,
            max_age=_BROWSER_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )


def _browser(request: HttpRequest, address: str) -> str:
    # A client that sends no token (a script dropping cookies) shares one browser budget with
    # every other such client at its address, rather than getting a fresh one per request.
    return read_browser_token(request) or f"no-cookie@{address}"


def join_refusal(request: HttpRequest) -> Refusal | None:
    browser, address_budget = _join_budgets()
    address = client_address(request)
    return _first_refusal(
        [
            (
                browser,
                _browser(request, address),
                gettext("Too many wrong codes from this device. Wait %(wait)s and try again."),
            ),
            (
                address_budget,
                address,
                gettext("Too many wrong codes from this network. Wait %(wait)s and try again."),
            ),
        ]
    )


def join_miss(request: HttpRequest) -> None:
    browser, address_budget = _join_budgets()
    address = client_address(request)
    browser.spend(_browser(request, address))
    address_budget.spend(address)
