"""Deep linking: the teacher picks a lesson; BotBench answers with a resource link signed by its
own key (checked here against its published JWKS) carrying the activity and a teach-back line
item; the link then launches that lesson, also after a restart (state in the database)."""

import re

import jwt
from django.test import Client
from jwcrypto.jwk import JWK

from classroom.models import LtiActivity, LtiLaunchState, LtiResourceLink
from tests.lti.conftest import INSTRUCTOR, LEARNER

DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"


def _pick(lms, choice: str, title: str = "Robot lesson 1"):
    client = Client()
    response = lms.launch(
        client, sub="teacher-1", roles=INSTRUCTOR, message_type="LtiDeepLinkingRequest"
    )
    assert response["Location"] == "/lti/deep-link/"
    picker = client.get("/lti/deep-link/")
    assert picker.status_code == 200
    answer = client.post("/lti/deep-link/", {"choice": choice, "title": title})
    return client, answer


def _returned_jwt(answer) -> tuple[str, str]:
    body = answer.content.decode()
    action = re.search(r'action="([^"]+)"', body.split('id="lti-auto-submit"')[0][-300:] + body)
    token = re.search(r'name="JWT" value="([^"]+)"', body).group(1)
    return action.group(1), token


def _verify(token: str, client: Client) -> dict:
    keys = client.get("/lti/jwks.json").json()["keys"]
    header = jwt.get_unverified_header(token)
    key = next(k for k in keys if k["kid"] == header["kid"])
    pem = JWK(**key).export_to_pem()
    return jwt.decode(
        token, pem, algorithms=["RS256"], audience=None, options={"verify_aud": False}
    )


def test_teachback_lesson_returns_a_signed_link_with_a_line_item(lms):
    client, answer = _pick(lms, "bot_builders_teachback")
    assert answer.status_code == 200
    action, token = _returned_jwt(answer)
    assert action == lms.issuer + "/deep-link-return"
    assert lms.issuer in answer["Content-Security-Policy"].split("form-action")[1]
    message = _verify(token, client)
    assert message["iss"] == lms.record.client_id
    assert message["aud"] == [lms.issuer]
    assert message[CLAIM + "message_type"] == "LtiDeepLinkingResponse"
    (item,) = message[DL + "content_items"]
    activity = LtiActivity.objects.get()
    assert item["custom"] == {"botbench_activity": str(activity.key)}
    assert item["url"] == "http://testserver/lti/launch/"
    assert item["lineItem"]["scoreMaximum"] == 100
    assert item["lineItem"]["tag"] == "botbench-teachback"
    assert (activity.game, activity.variant) == ("bot_builders", "classroom")


def test_three_laws_lesson_has_no_grade_line(lms):
    client, answer = _pick(lms, "three_laws", "Laws")
    _action, token = _returned_jwt(answer)
    (item,) = _verify(token, client)[DL + "content_items"]
    assert "lineItem" not in item


def test_the_deep_link_answer_is_given_once(lms):
    client, answer = _pick(lms, "three_laws")
    again = client.post("/lti/deep-link/", {"choice": "three_laws", "title": "Again"})
    assert again.status_code == 400
    assert LtiActivity.objects.count() == 1


def test_learner_cannot_deep_link(lms):
    lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR)
    response = lms.launch(
        Client(), sub="student-1", roles=LEARNER, message_type="LtiDeepLinkingRequest"
    )
    assert response.status_code == 403
    assert not LtiActivity.objects.exists()


def test_the_created_link_launches_the_picked_lesson_after_a_restart(lms):
    _pick(lms, "three_laws", "Laws lesson")
    activity = LtiActivity.objects.get()
    # Nothing in memory is needed: a new client, only the database and the custom parameter.
    LtiLaunchState.objects.all().delete()
    response = lms.launch(
        Client(),
        sub="teacher-1",
        roles=INSTRUCTOR,
        link_id="platform-link-7",
        **{CLAIM + "custom": {"botbench_activity": str(activity.key)}},
    )
    assert response.status_code == 302
    link = LtiResourceLink.objects.get(resource_link_id="platform-link-7")
    assert (link.game, link.activity) == ("three_laws", activity)
    learner = lms.launch(
        Client(),
        sub="student-1",
        roles=LEARNER,
        link_id="platform-link-7",
        **{CLAIM + "custom": {"botbench_activity": str(activity.key)}},
    )
    assert learner["Location"] == "/lti/learner/"


def test_privacy_launch_shows_what_is_stored_and_writes_nothing(lms):
    lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR)
    client = Client()
    response = lms.launch(
        client, sub="teacher-1", roles=INSTRUCTOR, message_type="DataPrivacyLaunchRequest"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "What BotBench stores" in body and "keyed hash" in body
    assert "/delete/" in body
    learner = lms.launch(
        Client(), sub="student-5", roles=LEARNER, message_type="DataPrivacyLaunchRequest"
    )
    assert learner.status_code == 200
    assert "/delete/" not in learner.content.decode()
