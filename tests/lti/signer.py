"""Signed LTI messages for the tool's unit tests: a platform key pair whose public keyset is served
over real HTTP on 127.0.0.1 (pylti1p3 fetches it as it would from an LMS), and id_tokens signed
with PyJWT. The full LMS (a platform site in a browser) is tests/lti/platform/, on another
branch; these tests only need messages the tool must accept or refuse."""

import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from html import escape as html_escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from django.test import Client
from jwcrypto.jwk import JWK

from classroom.lti import registration
from classroom.models import LtiPlatform, School

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DEPLOYMENT = "deployment-1"
CLIENT_ID = "botbench-client"


def new_key() -> JWK:
    return JWK.generate(kty="RSA", size=2048, kid=uuid.uuid4().hex)


class _Routes(BaseHTTPRequestHandler):
    routes: dict = {}
    posted: list = []

    def log_message(self, *args):
        pass

    def _answer(self, route):
        status, body = route(self) if callable(route) else (200, route)
        html = isinstance(body, str)
        data = body.encode() if html else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8" if html else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        route = self.routes.get(("GET", urlsplit(self.path).path))
        if route is None:
            self.send_error(404)
        else:
            self._answer(route)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self.posted.append((self.path, dict(self.headers), body))
        route = self.routes.get(("POST", urlsplit(self.path).path))
        if route is None:
            self.send_error(404)
        else:
            self._answer(route)


class JsonServer:
    """A tiny JSON web server on 127.0.0.1 with the routes a test gives it."""

    def __init__(self):
        handler = type("Handler", (_Routes,), {"routes": {}, "posted": []})
        self.handler = handler
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def route(self, method: str, path: str, answer) -> str:
        self.handler.routes[(method, path)] = answer
        return self.origin + path

    @property
    def posted(self) -> list:
        return self.handler.posted

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@dataclass
class Platform:
    """A registered LMS: its key, its served keyset, and a way to launch."""

    server: JsonServer
    record: LtiPlatform
    key: JWK = field(default_factory=new_key)
    # The claims `/auth` signs next (see serve_browser_pages).
    next_launch: dict = field(default_factory=dict)

    @property
    def issuer(self) -> str:
        return self.record.issuer

    def publish(self, *keys: JWK) -> None:
        self.server.route(
            "GET", "/jwks", {"keys": [json.loads(k.export_public()) for k in keys or [self.key]]}
        )

    def login(self, client: Client, **extra) -> tuple[str, str]:
        """OIDC login initiation past the cookie check: the state and nonce BotBench sent to the
        platform's auth endpoint."""
        params = {
            "iss": self.issuer,
            "login_hint": "hint",
            "target_link_uri": "http://testserver/lti/launch/",
            "client_id": self.record.client_id,
            "lti_deployment_id": DEPLOYMENT,
            "cookies_checked": "1",
            **extra,
        }
        response = client.get("/lti/login/", params)
        assert response.status_code == 302, response.content[:500]
        query = parse_qs(urlsplit(response["Location"]).query)
        return query["state"][0], query["nonce"][0]

    def claims(
        self,
        nonce: str,
        *,
        sub: str = "lms-user-1",
        roles: tuple[str, ...] = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",),
        context_id: str = "course-1",
        link_id: str = "link-1",
        message_type: str = "LtiResourceLinkRequest",
        **overrides,
    ) -> dict:
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": self.record.client_id,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "given_name": "Ana",
            "family_name": "García",
            "name": "Ana García",
            "email": "ana@example.org",
            CLAIM + "deployment_id": DEPLOYMENT,
            CLAIM + "message_type": message_type,
            CLAIM + "version": "1.3.0",
            CLAIM + "roles": list(roles),
            CLAIM + "target_link_uri": "http://testserver/lti/launch/",
            CLAIM + "context": {"id": context_id, "title": "Robotics 4B", "label": "ROB4B"},
            CLAIM + "launch_presentation": {"return_url": self.issuer + "/course/return"},
        }
        if message_type == "LtiResourceLinkRequest":
            claims[CLAIM + "resource_link"] = {"id": link_id, "title": "Robot lesson"}
        if message_type == "LtiDeepLinkingRequest":
            claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = {
                "deep_link_return_url": self.issuer + "/deep-link-return",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
            }
        if message_type == "DataPrivacyLaunchRequest":
            claims[CLAIM + "for_user"] = {"user_id": sub}
            del claims[CLAIM + "context"]
        claims.update(overrides)
        return claims

    def sign(self, claims: dict, key: JWK | None = None) -> str:
        key = key or self.key
        return jwt.encode(
            claims,
            key.export_to_pem(private_key=True, password=None),
            algorithm="RS256",
            headers={"kid": key.kid},
        )

    def launch(self, client: Client, *, key: JWK | None = None, **claim_args):
        state, nonce = self.login(client)
        token = self.sign(self.claims(nonce, **claim_args), key)
        response = client.post(
            "/lti/launch/", {"id_token": token, "state": state}, HTTP_ORIGIN=self.issuer
        )
        response.sent = {"id_token": token, "state": state}
        return response


def serve_browser_pages(platform: Platform, tool_url: str) -> None:
    """Two HTML pages of the platform for a browser: `/course` frames BotBench's login (a real
    cross-site iframe: the platform is 127.0.0.1, the tool localhost), and `/auth`, the OIDC
    authorization endpoint, answers with an id_token for `platform.next_launch` auto-posted to
    the tool's redirect URI."""

    def course(handler):
        top = "top" in urlsplit(handler.path).query
        query = urlencode(
            {
                "iss": platform.issuer,
                "login_hint": "hint",
                "target_link_uri": tool_url + "/lti/launch/",
                "client_id": platform.record.client_id,
                "lti_deployment_id": DEPLOYMENT,
            }
        )
        if top:  # the LMS opens BotBench in its own window
            return 200, (
                '<!doctype html><html lang="en"><title>Course</title>'
                f'<meta http-equiv="refresh" content="0;url={tool_url}/lti/login/?{query}"></html>'
            )
        return 200, (
            '<!doctype html><html lang="en"><title>Course</title><h1>Course</h1>'
            f'<iframe title="BotBench" src="{tool_url}/lti/login/?{query}" '
            'style="width:100%;height:700px"></iframe></html>'
        )

    def auth(handler):
        query = parse_qs(urlsplit(handler.path).query)
        claims = platform.claims(query["nonce"][0], **platform.next_launch)
        token = platform.sign(claims)
        return 200, (
            '<!doctype html><html lang="en"><title>Signing in</title>'
            f'<form method="post" action="{html_escape(query["redirect_uri"][0])}">'
            f'<input type="hidden" name="id_token" value="{token}">'
            f'<input type="hidden" name="state" value="{html_escape(query["state"][0])}">'
            "</form><script>document.forms[0].submit()</script></html>"
        )

    platform.server.route("GET", "/favicon.ico", lambda handler: (200, ""))
    platform.server.route(
        "POST",
        "/deep-link-return",
        lambda handler: (200, '<!doctype html><html lang="en"><title>Added</title><h1>Added</h1>'),
    )
    platform.server.route("GET", "/course", course)
    platform.server.route("GET", "/auth", auth)


def register_platform(server: JsonServer, school: School) -> Platform:
    issuer = server.origin
    record = registration.platform_register(
        school=school,
        by=None,
        name="Test LMS",
        issuer=issuer,
        client_id=CLIENT_ID,
        auth_url=issuer + "/auth",
        token_url=issuer + "/token",
        keyset_url=issuer + "/jwks",
        deployment_ids=[DEPLOYMENT],
    )
    platform = Platform(server=server, record=record)
    platform.publish()
    return platform
