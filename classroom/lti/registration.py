"""Registering an LMS: by hand (an administrator copies the platform's values in and BotBench's
URLs out) or by LTI Dynamic Registration (the LMS opens a one-time BotBench link, BotBench reads
the platform's OpenID configuration and registers itself)."""

from datetime import timedelta
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from classroom.models import LtiDeployment, LtiPlatform, LtiRegistrationLink, School, User
from classroom.services.errors import ServiceError

REGISTRATION_LINK_DAYS = 7
FETCH_TIMEOUT = 10
AGS_SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
]
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


def tool_urls(request: HttpRequest) -> dict[str, str]:
    """BotBench's URLs an administrator copies into the LMS."""
    absolute = request.build_absolute_uri
    return {
        "jwks": absolute(reverse("lti:jwks")),
        "login": absolute(reverse("lti:login")),
        "launch": absolute(reverse("lti:launch")),
        "deep_linking": absolute(reverse("lti:launch")),
        "domain": urlsplit(absolute("/")).netloc,
    }


def _message(exc: ValidationError) -> str:
    return " ".join(m for messages in exc.message_dict.values() for m in messages)


def _deployment_ids(raw: list[str]) -> list[str]:
    ids = []
    for value in raw:
        value = value.strip()
        if value and value not in ids:
            if len(value) > 255:
                raise ServiceError(gettext("A deployment ID is at most 255 characters."))
            ids.append(value)
    return ids


def platform_register(
    *,
    school: School,
    by: User | None,
    name: str,
    issuer: str,
    client_id: str,
    auth_url: str,
    token_url: str,
    keyset_url: str,
    deployment_ids: list[str],
    audience: str = "",
) -> LtiPlatform:
    platform = LtiPlatform(
        school=school,
        created_by=by,
        name=name.strip(),
        issuer=issuer.strip(),
        client_id=client_id.strip(),
        auth_url=auth_url.strip(),
        token_url=token_url.strip(),
        keyset_url=keyset_url.strip(),
        audience=audience.strip(),
    )
    ids = _deployment_ids(deployment_ids)
    try:
        platform.full_clean()
    except ValidationError as exc:
        raise ServiceError(_message(exc)) from None
    try:
        with transaction.atomic():
            platform.save()
            LtiDeployment.objects.bulk_create(
                [LtiDeployment(platform=platform, deployment_id=i) for i in ids]
            )
    except IntegrityError:
        raise ServiceError(
            gettext("This LMS (issuer and client ID) is already registered.")
        ) from None
    return platform


def platform_update(*, platform: LtiPlatform, **fields) -> LtiPlatform:
    for name in ("name", "issuer", "client_id", "auth_url", "token_url", "keyset_url", "audience"):
        if name in fields:
            setattr(platform, name, str(fields[name]).strip())
    if "is_active" in fields:
        platform.is_active = bool(fields["is_active"])
    try:
        platform.full_clean()
        with transaction.atomic():
            platform.save()
    except ValidationError as exc:
        raise ServiceError(_message(exc)) from None
    except IntegrityError:
        raise ServiceError(
            gettext("This LMS (issuer and client ID) is already registered.")
        ) from None
    return platform


def deployment_add(*, platform: LtiPlatform, deployment_id: str) -> LtiDeployment:
    ids = _deployment_ids([deployment_id])
    if not ids:
        raise ServiceError(gettext("Type the deployment ID the LMS shows."))
    deployment, _created = LtiDeployment.objects.get_or_create(
        platform=platform, deployment_id=ids[0]
    )
    return deployment


def deployment_remove(*, platform: LtiPlatform, pk: int) -> None:
    deployment = platform.deployments.filter(pk=pk).first()
    if deployment is None:
        raise ServiceError(gettext("No such deployment."))
    if deployment.courses.exists():
        raise ServiceError(
            gettext(
                "Courses were launched through this deployment; removing it would orphan their "
                "classes. Deactivate the platform instead."
            )
        )
    deployment.delete()


def registration_link_create(*, school: School, by: User) -> LtiRegistrationLink:
    return LtiRegistrationLink.objects.create(
        school=school,
        created_by=by,
        expires_at=timezone.now() + timedelta(days=REGISTRATION_LINK_DAYS),
    )


# --- LTI Dynamic Registration ---------------------------------------------------------------


def _https_or_local(url: str) -> bool:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return False
    return parts.scheme == "https" or (
        settings.LTI_ALLOW_LOOPBACK_HTTP
        and parts.scheme == "http"
        and parts.hostname in ("localhost", "127.0.0.1")
    )


def fetch_openid_configuration(url: str) -> dict:
    """The platform's OpenID configuration, checked: its issuer is the configuration URL's own
    origin (so a configuration cannot claim another platform's issuer)."""
    if not _https_or_local(url):
        raise ServiceError(gettext("The LMS's configuration address is not a web address."))
    try:
        response = requests.get(url, timeout=FETCH_TIMEOUT)
        response.raise_for_status()
        config = response.json()
    except (requests.RequestException, ValueError):
        raise ServiceError(gettext("BotBench could not read the LMS's configuration.")) from None
    if not isinstance(config, dict):
        raise ServiceError(gettext("BotBench could not read the LMS's configuration."))
    issuer = str(config.get("issuer") or "")
    needed = ("authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint")
    if not issuer or any(not _https_or_local(str(config.get(key) or "")) for key in needed):
        raise ServiceError(gettext("The LMS's configuration lacks an endpoint BotBench needs."))
    config_origin = urlsplit(url)._replace(path="", query="", fragment="").geturl()
    issuer_origin = urlsplit(issuer)._replace(path="", query="", fragment="").geturl()
    if config_origin.lower() != issuer_origin.lower():
        raise ServiceError(
            gettext("The LMS's configuration names an issuer on another site: refused.")
        )
    return config


def _client_metadata(urls: dict[str, str], config: dict) -> dict:
    platform_config = config.get("https://purl.imsglobal.org/spec/lti-platform-configuration") or {}
    supported = set(config.get("scopes_supported") or [])
    scopes = [s for s in [*AGS_SCOPES, NRPS_SCOPE] if not supported or s in supported]
    messages = [{"type": "LtiResourceLinkRequest", "target_link_uri": urls["launch"]}]
    offered = {m.get("type") for m in platform_config.get("messages_supported") or []}
    for message_type in ("LtiDeepLinkingRequest", "DataPrivacyLaunchRequest"):
        if not offered or message_type in offered:
            messages.append({"type": message_type, "target_link_uri": urls["launch"]})
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": urls["login"],
        "redirect_uris": [urls["launch"]],
        "client_name": "BotBench",
        "jwks_uri": urls["jwks"],
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": " ".join(scopes),
        "https://purl.imsglobal.org/spec/lti-tool-configuration": {
            "domain": urls["domain"],
            "target_link_uri": urls["launch"],
            # Only what a roster of minors may hold: given name and family name (for its initial).
            "claims": ["iss", "sub", "given_name", "family_name"],
            "messages": messages,
        },
    }


def dynamic_register(
    *,
    link: LtiRegistrationLink,
    openid_configuration: str,
    registration_token: str,
    urls: dict[str, str],
) -> LtiPlatform:
    """Register BotBench with the platform and record the platform, once per link."""
    config = fetch_openid_configuration(openid_configuration)
    with transaction.atomic():
        locked = LtiRegistrationLink.objects.select_for_update().get(pk=link.pk)
        if not locked.is_usable:
            raise ServiceError(gettext("This registration link was already used or has expired."))
        headers = {"Content-Type": "application/json"}
        if registration_token:
            headers["Authorization"] = f"Bearer {registration_token}"
        try:
            response = requests.post(
                config["registration_endpoint"],
                json=_client_metadata(urls, config),
                headers=headers,
                timeout=FETCH_TIMEOUT,
            )
            response.raise_for_status()
            answer = response.json()
        except (requests.RequestException, ValueError):
            raise ServiceError(gettext("The LMS refused BotBench's registration.")) from None
        client_id = str(answer.get("client_id") or "")
        tool_config = answer.get("https://purl.imsglobal.org/spec/lti-tool-configuration") or {}
        deployment_id = str(tool_config.get("deployment_id") or "")
        if not client_id:
            raise ServiceError(gettext("The LMS refused BotBench's registration."))
        platform_config = (
            config.get("https://purl.imsglobal.org/spec/lti-platform-configuration") or {}
        )
        name = str(platform_config.get("product_family_code") or config["issuer"])[:120]
        platform = platform_register(
            school=locked.school,
            by=locked.created_by,
            name=name,
            issuer=config["issuer"],
            client_id=client_id,
            auth_url=config["authorization_endpoint"],
            token_url=config["token_endpoint"],
            keyset_url=config["jwks_uri"],
            audience=str(config.get("authorization_server") or ""),
            deployment_ids=[deployment_id] if deployment_id else [],
        )
        locked.used_at = timezone.now()
        locked.platform = platform
        locked.save(update_fields=["used_at", "platform"])
    return platform
