"""BotBench's signing keys, published as a JWKS. django-lti's `Key` holds them: every active key
is published, the newest signs. `manage.py rotate_keys --deactivate-after N` adds a new key and
retires those older than N days, so the previous key stays published while platforms still
hold tokens or cached keysets made with it (rotation without downtime)."""

from lti_tool.models import Key
from pylti1p3.registration import Registration

from classroom.models import LtiPlatform


def signing_key() -> Key:
    """The newest active key; the first call on a new site makes one."""
    key = Key.objects.active().order_by("-datetime_created", "-pk").first()
    if key is None:
        key = Key.objects.generate()
    return key


def jwks() -> dict:
    if not Key.objects.active().exists():
        signing_key()
    return Key.objects.as_jwks()


def tool_registration(platform: LtiPlatform) -> Registration:
    """A pylti1p3 Registration of `platform`, with BotBench's current key: what pylti1p3 needs to
    check a launch and to sign deep-linking responses and service token requests."""
    key = signing_key()
    registration = (
        Registration()
        .set_issuer(platform.issuer)
        .set_client_id(platform.client_id)
        .set_auth_login_url(platform.auth_url)
        .set_auth_token_url(platform.token_url)
        .set_key_set_url(platform.keyset_url)
        .set_tool_private_key(key.private_key)
        .set_tool_public_key(key.public_key)
    )
    if platform.audience:
        registration.set_auth_audience(platform.audience)
    return registration
