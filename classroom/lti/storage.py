"""pylti1p3's login state, kept in the database (`LtiLaunchState`).

pylti1p3 keeps a nonce, the login parameters and the validated launch's claims between requests.
Its Django cache storage would lose them when Redis restarts or degrades to "empty"
(config/cache.py), and its nonce check only asks whether the nonce exists, so the same id_token
posted twice would pass twice. Here a nonce is consumed by the DELETE that finds it: used once,
even by two requests racing. Personal claims are dropped before a launch's claims are kept."""

from datetime import timedelta
from typing import Any

from django.utils import timezone
from pylti1p3.launch_data_storage.base import LaunchDataStorage

from classroom.models import LtiLaunchState

# Claims about the person that BotBench never keeps, even for the hour a launch is remembered.
PERSONAL_CLAIMS = (
    "name",
    "given_name",
    "family_name",
    "middle_name",
    "email",
    "picture",
    "locale",
    "https://purl.imsglobal.org/spec/lti/claim/lis",
    "https://purl.imsglobal.org/spec/lti/claim/lti1p1",
)
# pylti1p3 asks for a day; a launch's claims are needed only until the teacher has picked a
# deep-linking activity, and a login's nonce only for the seconds until the launch.
_MAX_LIFETIME = 60 * 60


def _nonce_key(key: str) -> bool:
    return "-nonce-" in key


def without_personal_claims(value: Any) -> Any:
    if isinstance(value, dict) and "iss" in value:
        return {k: v for k, v in value.items() if k not in PERSONAL_CLAIMS}
    return value


def sweep_expired() -> None:
    LtiLaunchState.objects.filter(expires_at__lt=timezone.now()).delete()


class DatabaseLaunchDataStorage(LaunchDataStorage[Any]):
    def get_session_cookie_name(self) -> str | None:
        # No session cookie of pylti1p3's own: the short-lived state cookie ties the launch to
        # the browser that logged in, and the nonce is single-use.
        return None

    def can_set_keys_expiration(self) -> bool:
        return True

    def get_value(self, key: str) -> Any:
        row = (
            LtiLaunchState.objects.filter(key=self._prepare_key(key), expires_at__gt=timezone.now())
            .only("value")
            .first()
        )
        return None if row is None else row.value

    def set_value(self, key: str, value: Any, exp: int | None = None) -> None:
        lifetime = min(exp or _MAX_LIFETIME, _MAX_LIFETIME)
        LtiLaunchState.objects.update_or_create(
            key=self._prepare_key(key),
            defaults={
                "value": without_personal_claims(value),
                "expires_at": timezone.now() + timedelta(seconds=lifetime),
            },
        )

    def check_value(self, key: str) -> bool:
        prepared = self._prepare_key(key)
        rows = LtiLaunchState.objects.filter(key=prepared, expires_at__gt=timezone.now())
        if _nonce_key(prepared):
            deleted, _ = rows.delete()
            return deleted > 0
        return rows.exists()
