"""The `lti1p3platform` library's abstract classes filled in with the test platform's store.

Everything that makes or checks an LTI message is the library's: the OIDC login initiation
redirect, the launch and deep-linking id_tokens (claims and RS256 signing), the auto-posting
launch form (its own template), the client-credentials access token, the deep-linking response
check, and the AGS and NRPS request handling (token check, scopes, media types, paging). This
module only answers the library's questions (which registration, which members, which line
items) from the store.

The library's FastAPI launch adapter imports `pkg_resources` (gone from current setuptools) for
nothing, so the launch class below renders the library's own `launch.html` with Jinja2 itself."""

from __future__ import annotations

import typing as t
from pathlib import Path

import jinja2
import lti1p3platform
from lti1p3platform.exceptions import LineItemNotFoundException, LtiServiceException
from lti1p3platform.framework.fastapi.oidc_login import FastAPIOIDCLogin
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import RequestBase, TRequest
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import (
    AssignmentsGradesService,
    NamesRoleProvisioningService,
    TPage,
)

from .store import Issued, Kind, Launch, LineItem, Store, Tamper

_TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(
        Path(lti1p3platform.__file__).parent / "framework" / "templates"
    ),
    autoescape=True,
)
LAUNCH_FORM = _TEMPLATES.get_template("launch.html")

AGS_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"


class PlatformRequest(RequestBase):
    """The library's request shape, built from a request whose body the route already read."""

    def __init__(self, request: TRequest) -> None:
        self.request = request


class _KeyIdOf(Registration):
    """Signs with another key under the real key's id: a forged token a tool must refuse
    because the signature does not verify, not merely because the key id is unknown."""

    def __init__(self, kid: str | None) -> None:
        self._forged_kid = kid

    def get_kid(self) -> str | None:
        return self._forged_kid


class PlatformConfig(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, **kwargs: t.Any) -> None:
        self.store: Store = kwargs["store"]
        self.forge: bool = kwargs.get("forge", False)

    def get_registration_by_params(self, **kwargs: t.Any) -> Registration:
        store = self.store
        if self.forge:
            real_kid = Registration.get_jwk(store.private_key)["kid"]
            registration = _KeyIdOf(real_kid)
            registration.set_platform_private_key(store.other_private_key)
        else:
            registration = Registration()
            registration.set_platform_private_key(store.private_key)
        registration.set_platform_public_key(store.public_key)
        registration.set_iss(store.issuer)
        registration.set_client_id(store.client_id)
        registration.set_deployment_id(store.deployment_id)
        registration.set_oidc_login_url(store.tool.login_url)
        registration.set_launch_url(store.tool.launch_url)
        registration.set_deeplink_launch_url(store.tool.deep_link_url or store.tool.launch_url)
        # Read on every request, so a tool's rotated key is found at once.
        if store.tool.jwks is not None:
            registration.set_tool_key_set(store.tool.jwks)
        elif store.tool.jwks_url:
            registration.set_tool_key_set_url(store.tool.jwks_url)
        return registration


def config_for(store: Store, forge: bool = False) -> PlatformConfig:
    config = PlatformConfig(store=store, forge=forge)
    config.get_registration()
    return config


class PlatformOIDCLogin(FastAPIOIDCLogin):
    def set_lti_message_hint(self, **kwargs: t.Any) -> None:
        self._lti_message_hint = kwargs["hint"]


class PlatformMessageLaunch(LTIAdvantageMessageLaunchAbstract):
    """One launch: the library builds and signs the message; `tamper` then spoils one claim
    (or the key) for a refusal test, after the library has checked the tool's request."""

    def __init__(
        self, request: PlatformRequest, config: PlatformConfig, store: Store, launch: Launch
    ) -> None:
        super().__init__(request, config)
        self.store = store
        self.launch = launch

    def get_launch_message(self, include_extra_claims: bool = True) -> dict[str, t.Any]:
        message = super().get_launch_message(include_extra_claims)
        tamper = self.launch.tamper
        if tamper is Tamper.AUDIENCE:
            message["aud"] = message["azp"] = "another-tool"
        elif tamper is Tamper.ISSUER:
            message["iss"] = "https://lms.elsewhere.test"
        elif tamper is Tamper.DEPLOYMENT:
            message["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "unknown-9"
        return message

    def render_launch_form(self, launch_data: dict[str, t.Any], **kwargs: t.Any) -> str:
        self.store.record_issued(
            Issued(
                hint=self.launch.hint,
                launch_url=launch_data["launch_url"],
                id_token=launch_data["id_token"],
                state=launch_data["state"],
            )
        )
        return LAUNCH_FORM.render(launch_data)


class PlatformAgs(AssignmentsGradesService):
    """Line items and scores of one course, kept in the store."""

    def __init__(self, request: PlatformRequest, config: PlatformConfig, course_id: str) -> None:
        store = config.store
        base = f"{store.base_url}/courses/{course_id}/lineitems"
        super().__init__(request, config, lineitems_url=base)
        self.store = store
        self.course_id = course_id

    def _item(self, line_item_id: str) -> LineItem:
        item = self.store.line_items.get(line_item_id)
        if item is None or item.course_id != self.course_id:
            raise LineItemNotFoundException(line_item_id)
        return item

    def find_lineitems(
        self,
        page: int = 1,
        limit: int | None = None,
        line_item_id: str | None = None,
        resource_link_id: str | None = None,
        resource_id: str | None = None,
        tag: str | None = None,
        **_ignored: t.Any,
    ) -> TPage:
        items = [
            item.as_json(self.store.base_url)
            for item in self.store.line_items.values()
            if item.course_id == self.course_id
            and (not resource_link_id or item.resource_link_id == resource_link_id)
            and (not resource_id or item.resource_id == resource_id)
            and (not tag or item.tag == tag)
        ]
        return {"content": items, "has_next": False, "next": None}

    def find_lineitem(self, line_item_id: str) -> t.Any:
        return self._item(line_item_id).as_json(self.store.base_url)

    def create_lineitem(self, creation_data: t.Any) -> t.Any:
        if not creation_data or "scoreMaximum" not in creation_data:
            raise LtiServiceException("scoreMaximum is required", 400)
        item = self.store.add_line_item(self.course_id, creation_data)
        return item.as_json(self.store.base_url)

    def update_lineitem(self, update_data: t.Any) -> t.Any:
        item = self._item(update_data["id"])
        with self.store.lock:
            item.label = str(update_data.get("label", item.label))
            item.score_maximum = float(update_data.get("scoreMaximum", item.score_maximum))
        return item.as_json(self.store.base_url)

    def delete_lineitem(self, line_item_id: str) -> None:
        self._item(line_item_id)
        with self.store.lock:
            del self.store.line_items[line_item_id]

    def update_score(self, line_item_id: str, score: t.Any) -> UpdateScoreStatus:
        self._item(line_item_id)
        if not isinstance(score, dict):
            raise LtiServiceException("a score is a JSON object", 400)
        missing = {"userId", "timestamp", "activityProgress", "gradingProgress"} - set(score)
        if missing:
            raise LtiServiceException(f"missing: {', '.join(sorted(missing))}", 400)
        given, maximum = score.get("scoreGiven"), score.get("scoreMaximum")
        if given is not None and (maximum is None or not 0 <= float(given) <= float(maximum)):
            raise LtiServiceException("scoreGiven must lie between 0 and scoreMaximum", 400)
        with self.store.lock:
            kept = self.store.results(line_item_id).get(str(score["userId"]))
            if kept and str(kept["timestamp"]) > str(score["timestamp"]):
                return UpdateScoreStatus.OLD_TIMESTAMP
            self.store.add_score(line_item_id, score)
        return UpdateScoreStatus.SUCCESS

    def get_results(
        self,
        line_item_id: str,
        page: int = 1,
        limit: int | None = None,
        user_id: str | None = None,
        **_ignored: t.Any,
    ) -> TPage:
        item = self._item(line_item_id)
        url = f"{self.store.base_url}/courses/{self.course_id}/lineitems/{line_item_id}"
        results = [
            {
                "id": f"{url}/results/{user}",
                "scoreOf": url,
                "userId": user,
                "resultScore": self.store.grade(line_item_id, user),
                "resultMaximum": item.score_maximum,
                "comment": score.get("comment", ""),
            }
            for user, score in self.store.results(line_item_id).items()
            if not user_id or user == user_id
        ]
        return {"content": results, "has_next": False, "next": None}


class PlatformNrps(NamesRoleProvisioningService):
    """A course's memberships, as the test set them."""

    def __init__(self, request: PlatformRequest, config: PlatformConfig, course_id: str) -> None:
        store = config.store
        super().__init__(request, config, f"{store.base_url}/courses/{course_id}/memberships")
        self.store = store
        self.course_id = course_id

    def get_member_data_page(
        self,
        page: int = 1,
        limit: int | None = None,
        role: str | None = None,
        since: str | None = None,
        **_ignored: t.Any,
    ) -> TPage:
        members = self.store.members_of(self.course_id)
        if role:
            members = [m for m in members if any(r.endswith(role) for r in m["roles"])]
        return {"content": members, "has_next": False, "next": None}

    def get_context_by_id(self) -> Context:
        course = self.store.courses[self.course_id]
        return Context(id=course.id, label=course.label, title=course.title)

    def is_resource_link_valid(self, context_id: str, resource_link_id: str) -> bool:
        link = self.store.links.get(resource_link_id)
        return link is not None and link.course_id == context_id


def prepare_launch(message: PlatformMessageLaunch) -> None:
    """Fill in the claims of `message.launch` (who, which course, which activity, which
    services) through the library's setters."""
    store, launch = message.store, message.launch
    person = store.people[launch.person_id]
    course = store.courses[launch.course_id]
    course_url = f"{store.base_url}/courses/{course.id}"
    message.set_user_data(
        person.id, person.roles, full_name=person.name, email_address=person.email
    )
    message.lti_claim_user_data.update(
        {"given_name": person.given_name, "family_name": person.family_name}
    )
    message.set_launch_context_claim(
        course.id,
        context_types=["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"],
        context_title=course.title,
        context_label=course.label,
    )
    message.set_launch_presentation_claim(
        document_target=launch.target, return_url=f"{course_url}?as={person.id}"
    )
    message.set_nrps(f"{course_url}/memberships")
    if launch.tamper is Tamper.EXPIRED:
        message.set_id_token_expiration(-3600)
    if launch.kind is Kind.DEEP_LINKING:
        message.set_ags(f"{course_url}/lineitems", allow_creating_lineitems=True)
        message.set_dl(
            f"{store.base_url}/deep-link/{launch.hint}/return",
            title=course.title,
            accept_types={"ltiResourceLink"},
        )
        return
    if launch.kind is Kind.DATA_PRIVACY:
        message.set_extra_claims(
            {"https://purl.imsglobal.org/spec/lti/claim/message_type": Kind.DATA_PRIVACY.value}
        )
        return
    link = store.links[launch.link_id]
    message.set_launch_url(link.url)
    message.set_resource_link_claim(link.id, title=link.title)
    if link.custom:
        message.set_custom_parameters_claim(link.custom)
    line_item_url = f"{course_url}/lineitems/{link.line_item_id}" if link.line_item_id else None
    message.set_ags(f"{course_url}/lineitems", line_item_url, allow_creating_lineitems=True)
