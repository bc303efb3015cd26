"""Self-tests of the test platform, with the test itself playing a minimal tool over HTTP (its
own key pair, PyJWT to read and sign): the launch, deep linking, token, NRPS and AGS answer as
LTI 1.3 says, scores are stored and read back, and the fault and tamper switches work."""

import re
import time
import uuid
from html import unescape
from urllib.parse import parse_qs, urlparse

import jwt
import pytest
import requests

from tests.lti.platform.keys import new_private_key
from tests.lti.platform.server import PlatformServer
from tests.lti.platform.store import INSTRUCTOR, LEARNER, Kind, ScoreFault, Tamper

TOOL = "http://tool.test"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DL_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


class StandInTool:
    """Just enough of a tool to drive the platform: a key, its JWKS, signed assertions."""

    def __init__(self, platform: PlatformServer):
        self.platform = platform
        self.key = new_private_key()
        jwk = jwt.PyJWK.from_json(
            jwt.algorithms.RSAAlgorithm.to_jwk(
                jwt.algorithms.RSAAlgorithm(jwt.algorithms.RSAAlgorithm.SHA256)
                .prepare_key(self.key)
                .public_key()
            )
        )
        self.kid = "tool-key-1"
        public = {**jwk._jwk_data, "kid": self.kid, "alg": "RS256", "use": "sig"}
        store = platform.store
        store.tool.login_url = f"{TOOL}/lti/login/"
        store.tool.launch_url = f"{TOOL}/lti/launch/"
        store.tool.jwks = {"keys": [public]}

    def sign(self, claims: dict) -> str:
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": self.kid})

    def launch(self, launch, nonce: str = "n-1") -> dict:
        """Initiation, authentication request, and the id_token posted back: its claims."""
        platform = self.platform
        start = requests.get(
            f"{platform.url}/launch/{launch.hint}", allow_redirects=False, timeout=10
        )
        assert start.status_code in (302, 303, 307), start.text
        login = urlparse(start.headers["location"])
        assert f"{login.scheme}://{login.netloc}{login.path}" == f"{TOOL}/lti/login/"
        params = {k: v[0] for k, v in parse_qs(login.query).items()}
        assert params["iss"] == platform.issuer
        assert params["client_id"] == platform.store.client_id
        assert params["lti_deployment_id"] == platform.store.deployment_id
        answer = requests.get(
            platform.auth_url,
            params={
                "scope": "openid",
                "response_type": "id_token",
                "response_mode": "form_post",
                "prompt": "none",
                "client_id": params["client_id"],
                "redirect_uri": params["target_link_uri"],
                "login_hint": params["login_hint"],
                "lti_message_hint": params["lti_message_hint"],
                "state": "s-1",
                "nonce": nonce,
            },
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        form = dict(re.findall(r'name="(\w+)" value="([^"]*)"', answer.text))
        action = unescape(re.search(r'action="([^"]*)"', answer.text).group(1))
        assert action == params["target_link_uri"]
        assert form["state"] == "s-1"
        return {"token": form["id_token"], "params": params}

    def verify(self, token: str, **options) -> dict:
        keys = jwt.PyJWKClient(self.platform.jwks_url)
        key = keys.get_signing_key_from_jwt(token)
        return jwt.decode(
            token,
            key.key,
            algorithms=["RS256"],
            audience=self.platform.store.client_id,
            issuer=self.platform.issuer,
            **options,
        )

    def access_token(self, *scopes: str) -> str:
        now = int(time.time())
        assertion = self.sign(
            {
                "iss": self.platform.store.client_id,
                "sub": self.platform.store.client_id,
                "aud": self.platform.token_url,
                "iat": now,
                "exp": now + 300,
                "jti": uuid.uuid4().hex,
            }
        )
        answer = requests.post(
            self.platform.token_url,
            data={
                "grant_type": "client_credentials",
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                "client_assertion": assertion,
                "scope": " ".join(scopes),
            },
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        return answer.json()["access_token"]


@pytest.fixture
def platform():
    server = PlatformServer().start()
    yield server
    server.stop()


@pytest.fixture
def cast(platform):
    store = platform.store
    course = store.add_course("Robotics 4B", "ROB-4B")
    teacher = store.add_person("Alice", "Rivera", INSTRUCTOR)
    ava = store.add_person("Ava", "Moreno", LEARNER)
    ben = store.add_person("Ben", "Okafor", LEARNER)
    store.enrol(course, teacher, ava, ben)
    link = store.add_link(
        course.id,
        "Bot-Builders lesson",
        f"{TOOL}/lti/launch/",
        {"game": "bot_builders"},
        {"label": "Teach-back", "scoreMaximum": 12},
    )
    return {"course": course, "teacher": teacher, "ava": ava, "ben": ben, "link": link}


def test_resource_link_launch_is_a_signed_lti_message(platform, cast):
    tool = StandInTool(platform)
    launch = platform.store.new_launch(cast["ava"], cast["course"], link=cast["link"])
    claims = tool.verify(tool.launch(launch, nonce="abc")["token"])
    assert claims["nonce"] == "abc"
    assert claims["sub"] == cast["ava"].id
    assert claims[LTI + "message_type"] == "LtiResourceLinkRequest"
    assert claims[LTI + "version"] == "1.3.0"
    assert claims[LTI + "deployment_id"] == platform.store.deployment_id
    assert claims[LTI + "resource_link"]["id"] == cast["link"].id
    assert claims[LTI + "context"]["id"] == cast["course"].id
    assert claims[LTI + "roles"] == [LEARNER]
    assert claims[LTI + "custom"] == {"game": "bot_builders"}
    assert claims[LTI + "launch_presentation"]["document_target"] == "iframe"
    assert claims[AGS_CLAIM]["lineitem"].endswith(f"/lineitems/{cast['link'].line_item_id}")
    assert SCORE_SCOPE in claims[AGS_CLAIM]["scope"]
    nrps = claims["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"]
    assert nrps["context_memberships_url"].endswith(f"/courses/{cast['course'].id}/memberships")
    assert claims["exp"] > time.time()


def test_authentication_request_for_another_person_or_address_is_refused(platform, cast):
    tool = StandInTool(platform)
    launch = platform.store.new_launch(cast["ava"], cast["course"], link=cast["link"])
    base = {
        "scope": "openid",
        "response_type": "id_token",
        "client_id": platform.store.client_id,
        "redirect_uri": tool.platform.store.tool.launch_url,
        "login_hint": cast["ava"].id,
        "lti_message_hint": launch.hint,
        "state": "s",
        "nonce": "n",
    }
    for change in (
        {"login_hint": cast["ben"].id},
        {"redirect_uri": "http://evil.test/launch"},
        {"lti_message_hint": "made-up"},
        {"client_id": "another-tool"},
    ):
        answer = requests.get(platform.auth_url, params={**base, **change}, timeout=10)
        assert answer.status_code == 400, change
        assert "id_token" not in answer.text
    assert platform.store.issued == []


def test_deep_linking_round_trip_stores_the_link_and_its_line_item(platform, cast):
    tool = StandInTool(platform)
    store = platform.store
    launch = store.new_launch(cast["teacher"], cast["course"], Kind.DEEP_LINKING)
    claims = tool.verify(tool.launch(launch)["token"])
    assert claims[LTI + "message_type"] == "LtiDeepLinkingRequest"
    settings = claims[DL_SETTINGS]
    assert settings["accept_types"] == ["ltiResourceLink"]
    now = int(time.time())
    response = tool.sign(
        {
            "iss": store.client_id,
            "aud": [store.issuer],
            "iat": now,
            "exp": now + 300,
            "nonce": uuid.uuid4().hex,
            LTI + "deployment_id": store.deployment_id,
            LTI + "message_type": "LtiDeepLinkingResponse",
            LTI + "version": "1.3.0",
            "https://purl.imsglobal.org/spec/lti-dl/claim/content_items": [
                {
                    "type": "ltiResourceLink",
                    "title": "3 Laws lesson",
                    "url": f"{TOOL}/lti/launch/",
                    "custom": {"game": "three_laws"},
                    "lineItem": {"label": "3 Laws teach-back", "scoreMaximum": 9},
                }
            ],
        }
    )
    answer = requests.post(settings["deep_link_return_url"], data={"JWT": response}, timeout=10)
    assert answer.status_code == 200, answer.text
    added = [link for link in store.links_of(cast["course"].id) if link.title == "3 Laws lesson"]
    assert len(added) == 1 and added[0].custom == {"game": "three_laws"}
    item = store.line_items[added[0].line_item_id]
    assert (item.label, item.score_maximum, item.resource_link_id) == (
        "3 Laws teach-back",
        9,
        added[0].id,
    )


def test_deep_linking_response_signed_by_a_stranger_is_refused(platform, cast):
    tool = StandInTool(platform)
    store = platform.store
    launch = store.new_launch(cast["teacher"], cast["course"], Kind.DEEP_LINKING)
    settings = tool.verify(tool.launch(launch)["token"])[DL_SETTINGS]
    stranger = jwt.encode(
        {
            "iss": store.client_id,
            LTI + "message_type": "LtiDeepLinkingResponse",
            LTI + "deployment_id": store.deployment_id,
            "https://purl.imsglobal.org/spec/lti-dl/claim/content_items": [
                {"type": "ltiResourceLink", "title": "Forged", "url": "http://evil.test/"}
            ],
        },
        new_private_key(),
        algorithm="RS256",
        headers={"kid": tool.kid},
    )
    links_before = len(store.links)
    answer = requests.post(settings["deep_link_return_url"], data={"JWT": stranger}, timeout=10)
    assert answer.status_code == 400
    assert len(store.links) == links_before


def test_names_and_roles_returns_the_roster_the_test_set(platform, cast):
    tool = StandInTool(platform)
    url = f"{platform.url}/courses/{cast['course'].id}/memberships"
    assert requests.get(url, timeout=10).status_code == 401
    token = tool.access_token(NRPS_SCOPE)
    platform.store.unenrol(cast["course"], cast["ben"])
    answer = requests.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith(
        "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
    )
    body = answer.json()
    assert body["context"]["id"] == cast["course"].id
    assert {m["user_id"] for m in body["members"]} == {cast["teacher"].id, cast["ava"].id}


def test_a_score_is_stored_and_read_back_from_the_gradebook(platform, cast):
    tool = StandInTool(platform)
    token = tool.access_token(SCORE_SCOPE)
    item = cast["link"].line_item_id
    url = f"{platform.url}/courses/{cast['course'].id}/lineitems/{item}/scores"
    score = {
        "userId": cast["ava"].id,
        "scoreGiven": 10,
        "scoreMaximum": 12,
        "comment": "Senses 3/3",
        "timestamp": "2026-12-06T10:00:00+00:00",
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
    }
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/vnd.ims.lis.v1.score+json",
    }
    assert requests.post(url, json=score, headers=headers, timeout=10).status_code == 200
    older = {**score, "scoreGiven": 1, "timestamp": "2026-12-06T09:00:00+00:00"}
    assert requests.post(url, json=older, headers=headers, timeout=10).status_code == 409
    unsigned = requests.post(url, json=score, timeout=10)
    assert unsigned.status_code == 401
    book = platform.gradebook(cast["course"])
    assert book[item]["results"][cast["ava"].id]["scoreGiven"] == 10
    assert len(book[item]["received"]) == 1
    results = requests.get(
        url.replace("/scores", "/results"), headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert results.status_code == 200, results.text
    # Results are scaled to the column: 10 out of 12 on a column out of 12.
    assert [(r["userId"], r["resultScore"]) for r in results.json()] == [(cast["ava"].id, 10)]
    assert book[item]["grades"] == {cast["ava"].id: 10}


def test_score_fault_switches_answer_500_or_hang_and_store_nothing(platform, cast):
    tool = StandInTool(platform)
    store = platform.store
    token = tool.access_token(SCORE_SCOPE)
    item = cast["link"].line_item_id
    url = f"{platform.url}/courses/{cast['course'].id}/lineitems/{item}/scores"
    score = {
        "userId": cast["ben"].id,
        "scoreGiven": 7,
        "scoreMaximum": 12,
        "timestamp": "2026-12-06T10:00:00+00:00",
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
    }
    headers = {"Authorization": f"Bearer {token}"}
    store.set_score_fault(ScoreFault.ERROR)
    assert requests.post(url, json=score, headers=headers, timeout=10).status_code == 500
    store.set_score_fault(ScoreFault.HANG, hang_seconds=20)
    started = time.monotonic()
    with pytest.raises(requests.Timeout):
        requests.post(url, json=score, headers=headers, timeout=1)
    assert time.monotonic() - started < 10
    store.set_score_fault(ScoreFault.NONE)
    assert store.score_attempts == 2
    assert store.scores[item] == []
    assert requests.post(url, json=score, headers=headers, timeout=10).status_code == 200
    assert len(store.scores[item]) == 1


@pytest.mark.parametrize(
    ("tamper", "error"),
    [
        (Tamper.AUDIENCE, jwt.InvalidAudienceError),
        (Tamper.ISSUER, jwt.InvalidIssuerError),
        (Tamper.EXPIRED, jwt.ExpiredSignatureError),
        (Tamper.OTHER_KEY, jwt.InvalidSignatureError),
    ],
)
def test_tampered_launches_fail_the_check_they_are_meant_to(platform, cast, tamper, error):
    tool = StandInTool(platform)
    launch = platform.store.new_launch(
        cast["ava"], cast["course"], link=cast["link"], tamper=tamper
    )
    token = tool.launch(launch)["token"]
    with pytest.raises(error):
        tool.verify(token)


def test_unknown_deployment_launch_names_another_deployment(platform, cast):
    tool = StandInTool(platform)
    launch = platform.store.new_launch(
        cast["ava"], cast["course"], link=cast["link"], tamper=Tamper.DEPLOYMENT
    )
    claims = tool.verify(tool.launch(launch)["token"])
    assert claims[LTI + "deployment_id"] != platform.store.deployment_id


def test_an_issued_launch_can_be_posted_again(platform, cast):
    tool = StandInTool(platform)
    launch = platform.store.new_launch(cast["ava"], cast["course"], link=cast["link"])
    first = tool.launch(launch)["token"]
    again = requests.get(f"{platform.url}/issued/0", timeout=10)
    assert f'value="{first}"' in again.text


def test_course_pages_embed_the_tool_in_an_iframe_or_a_new_window(platform, cast):
    StandInTool(platform)
    course, teacher, link = cast["course"], cast["teacher"], cast["link"]
    home = requests.get(platform.course_url(course, teacher), timeout=10)
    assert "Add an activity" in home.text and "Gradebook" in home.text
    learner_home = requests.get(platform.course_url(course, cast["ava"]), timeout=10)
    assert "Add an activity" not in learner_home.text
    base = f"{platform.url}/courses/{course.id}/activities/{link.id}?as={cast['ava'].id}"
    framed = requests.get(base + "&target=iframe", timeout=10).text
    assert re.search(r"<iframe src='/launch/[\w-]+' title=", framed)
    window = requests.get(base + "&target=window", timeout=10).text
    assert "target='_blank'" in window
    gradebook = requests.get(f"{platform.url}/courses/{course.id}/gradebook", timeout=10)
    assert "Ava Moreno" in gradebook.text and "Alice Rivera" not in gradebook.text


def test_dynamic_registration_records_the_tool_and_gives_it_a_client_id(platform):
    config = requests.get(f"{platform.url}/.well-known/openid-configuration", timeout=10).json()
    assert config["issuer"] == platform.issuer
    metadata = {
        "initiate_login_uri": f"{TOOL}/lti/login/",
        "redirect_uris": [f"{TOOL}/lti/launch/"],
        "jwks_uri": f"{TOOL}/lti/jwks.json",
        "https://purl.imsglobal.org/spec/lti-tool-configuration": {
            "target_link_uri": f"{TOOL}/lti/launch/",
            "messages": [{"type": "LtiDeepLinkingRequest", "target_link_uri": f"{TOOL}/dl/"}],
        },
    }
    url = config["registration_endpoint"]
    assert requests.post(url, json=metadata, timeout=10).status_code == 401
    token = platform.store.registration_token
    answer = requests.post(
        url, json=metadata, headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["client_id"] == platform.store.client_id
    tool_config = body["https://purl.imsglobal.org/spec/lti-tool-configuration"]
    assert tool_config["deployment_id"] == platform.store.deployment_id
    tool = platform.store.tool
    assert (tool.login_url, tool.deep_link_url, tool.jwks_url) == (
        f"{TOOL}/lti/login/",
        f"{TOOL}/dl/",
        f"{TOOL}/lti/jwks.json",
    )
    # The token works once.
    again = requests.post(
        url, json=metadata, headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert again.status_code == 401
