"""The test platform's web side (FastAPI): the pages a teacher or student of the LMS visits
(a course, an activity in an iframe or a new window, "add activity", the gradebook) and the
LTI endpoints (OIDC authorization, token, keyset, deep-linking return, NRPS, AGS).

People are chosen with `?as=<person id>`: the platform's own sign-in is not what is tested."""

from __future__ import annotations

import asyncio
import html
import secrets
import typing as t
from urllib.parse import urlencode

import jwt
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from lti1p3platform.constants import LTI_1P3_ACCESS_TOKEN_SCOPES
from lti1p3platform.exceptions import (
    LtiDeepLinkingResponseException,
    LtiException,
    LtiServiceException,
    MissingRequiredClaim,
    PreflightRequestValidationException,
    UnsupportedGrantType,
)
from lti1p3platform.response import Response as LtiResponse
from lti1p3platform.response import generate_next_link
from starlette.concurrency import run_in_threadpool

from .library import (
    PlatformAgs,
    PlatformMessageLaunch,
    PlatformNrps,
    PlatformOIDCLogin,
    PlatformRequest,
    config_for,
    prepare_launch,
)
from .store import INSTRUCTOR, Kind, Launch, ScoreFault, Store

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fff; }
header { background: #0b3d63; color: #fff; padding: .75rem 1.25rem; }
header a { color: #fff; }
main { padding: 1rem 1.25rem; }
iframe { width: 100%; height: 82vh; border: 1px solid #555; }
a { color: #0b4f8a; }
table { border-collapse: collapse; }
th, td { border: 1px solid #777; padding: .3rem .6rem; text-align: left; }
.actions a { display: inline-block; margin-right: 1rem; padding: .3rem 0; }
"""


def page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)} - Test LMS</title><style>{STYLE}</style></head>"
        "<body><header><p>Test LMS (an LTI 1.3 platform)</p></header>"
        f"<main><h1>{html.escape(title)}</h1>{body}</main></body></html>",
        status_code=status,
    )


def refusal(message: str, status: int = 400) -> HTMLResponse:
    return page("Launch refused", f"<p>{html.escape(message)}</p>", status)


def lti_json(resp: LtiResponse) -> Response:
    """The library's service answer as HTTP (as its Django adapter does it)."""
    if 200 <= resp.code < 300:
        data = resp.result
        if isinstance(data, dict) and "content" in data:
            data = data["content"]
        if resp.code == 204 or data is None:
            return Response(status_code=resp.code, media_type=resp.media_type)
        response = JSONResponse(data, status_code=resp.code, media_type=resp.media_type)
        if isinstance(resp.result, dict) and resp.result.get("next"):
            response.headers["Link"] = generate_next_link(resp.result["next"])
        return response
    return JSONResponse({"error": resp.message}, status_code=resp.code)


async def lti_request(request: Request) -> PlatformRequest:
    form: dict[str, t.Any] = {}
    body: t.Any = None
    content_type = request.headers.get("content-type", "")
    if "form" in content_type:
        form = dict(await request.form())
    elif "json" in content_type:
        try:
            body = await request.json()
        except ValueError:
            body = None
    return PlatformRequest(
        {
            "method": request.method,
            "form_data": form,
            "get_data": dict(request.query_params),
            "headers": request.headers,
            "content_type": content_type,
            "path": request.url.path,
            "json": body,
        }
    )


def create_app(store: Store) -> FastAPI:
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)

    def person_of(request: Request):
        person = store.people.get(request.query_params.get("as", ""))
        if person is None:
            raise LookupError
        return person

    # Pages ----------------------------------------------------------------------------------

    @app.get("/favicon.ico")
    def favicon():
        return Response(status_code=204)

    @app.get("/courses/{course_id}")
    def course_home(course_id: str, request: Request):
        course = store.courses.get(course_id)
        try:
            person = person_of(request)
        except LookupError:
            return refusal("Unknown person.", 404)
        if course is None or person.id not in course.members:
            return refusal("This course is not yours.", 404)
        teacher = INSTRUCTOR in person.roles
        items = []
        for link in store.links_of(course.id):
            here = f"/courses/{course.id}/activities/{link.id}?as={person.id}"
            items.append(
                f"<li><span>{html.escape(link.title)}</span> <span class='actions'>"
                f"<a href='{here}&amp;target=iframe'>Open {html.escape(link.title)}</a>"
                f"<a href='{here}&amp;target=window'>Open {html.escape(link.title)} "
                "in a new window</a></span></li>"
            )
        body = f"<p>Signed in as {html.escape(person.name)}.</p><h2>Activities</h2>"
        body += f"<ul>{''.join(items)}</ul>" if items else "<p>No activities yet.</p>"
        if teacher:
            body += (
                "<p class='actions'>"
                f"<a href='/courses/{course.id}/add-activity?as={person.id}'>Add an activity</a>"
                f"<a href='/courses/{course.id}/gradebook'>Gradebook</a></p>"
            )
        return page(course.title, body)

    @app.get("/courses/{course_id}/activities/{link_id}")
    def activity(course_id: str, link_id: str, request: Request, target: str = "iframe"):
        link = store.links.get(link_id)
        course = store.courses.get(course_id)
        try:
            person = person_of(request)
        except LookupError:
            return refusal("Unknown person.", 404)
        if link is None or course is None or link.course_id != course.id:
            return refusal("No such activity.", 404)
        if target not in ("iframe", "window"):
            target = "iframe"
        launch = store.new_launch(person, course, Kind.RESOURCE_LINK, link, target=target)
        return launch_page(launch, link.title)

    @app.get("/courses/{course_id}/add-activity")
    def add_activity(course_id: str, request: Request):
        course = store.courses.get(course_id)
        try:
            person = person_of(request)
        except LookupError:
            return refusal("Unknown person.", 404)
        if course is None or INSTRUCTOR not in person.roles:
            return refusal("Only the course's instructor adds activities.", 403)
        launch = store.new_launch(person, course, Kind.DEEP_LINKING)
        return launch_page(launch, "Add an activity")

    @app.get("/frame/{hint}")
    def frame(hint: str):
        launch = store.launches.get(hint)
        if launch is None:
            return refusal("No such launch.", 404)
        return launch_page(launch, "Activity")

    def launch_page(launch: Launch, title: str) -> HTMLResponse:
        back = f"/courses/{launch.course_id}?as={launch.person_id}"
        if launch.target == "window":
            body = (
                f"<p><a href='/launch/{launch.hint}' target='_blank' id='open-tool'>"
                f"Open {html.escape(title)} in a new window</a></p>"
            )
        else:
            body = (
                f"<iframe src='/launch/{launch.hint}' title='{html.escape(title)} (BotBench)' "
                "allow='fullscreen; clipboard-write'></iframe>"
            )
        body += f"<p><a href='{back}'>Back to the course</a></p>"
        return page(title, body)

    @app.get("/courses/{course_id}/gradebook")
    def gradebook(course_id: str):
        course = store.courses.get(course_id)
        if course is None:
            return refusal("No such course.", 404)
        items = [i for i in store.line_items.values() if i.course_id == course.id]
        head = "".join(
            f"<th scope='col'>{html.escape(i.label)} (of {i.score_maximum:g})</th>" for i in items
        )
        rows = []
        for person_id in course.members:
            person = store.people[person_id]
            if INSTRUCTOR in person.roles:
                continue
            cells = []
            for item in items:
                grade = store.grade(item.id, person.id)
                cells.append(f"<td>{'' if grade is None else f'{grade:g}'}</td>")
            rows.append(f"<tr><th scope='row'>{html.escape(person.name)}</th>{''.join(cells)}</tr>")
        table = (
            f"<table><caption>Scores received</caption><thead><tr><th scope='col'>Student</th>"
            f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
        return page(f"{course.title}: gradebook", table)

    @app.get("/courses/{course_id}/gradebook.json")
    def gradebook_json(course_id: str):
        if course_id not in store.courses:
            return JSONResponse({"error": "no such course"}, status_code=404)
        return {
            item.id: {
                "label": item.label,
                "scoreMaximum": item.score_maximum,
                "resourceLinkId": item.resource_link_id,
                "results": store.results(item.id),
                "grades": {user: store.grade(item.id, user) for user in store.results(item.id)},
                "received": list(store.scores.get(item.id, [])),
            }
            for item in list(store.line_items.values())
            if item.course_id == course_id
        }

    # LTI Dynamic Registration (the platform's side; the library has none, so it is written
    # here from the 1EdTech LTI Dynamic Registration spec) ---------------------------------------

    @app.get("/.well-known/openid-configuration")
    def openid_configuration():
        return {
            "issuer": store.issuer,
            "authorization_endpoint": f"{store.base_url}/auth",
            "token_endpoint": f"{store.base_url}/token",
            "jwks_uri": f"{store.base_url}/.well-known/jwks.json",
            "registration_endpoint": f"{store.base_url}/register",
            "scopes_supported": ["openid", *LTI_1P3_ACCESS_TOKEN_SCOPES],
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            "claims_supported": ["iss", "sub", "name", "given_name", "family_name", "email"],
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "botbench-test-lms",
                "version": "1.0",
                "messages_supported": [
                    {"type": Kind.RESOURCE_LINK.value},
                    {"type": Kind.DEEP_LINKING.value},
                ],
            },
        }

    @app.post("/register")
    async def register(request: Request):
        if request.headers.get("authorization") != f"Bearer {store.registration_token}":
            return JSONResponse({"error": "invalid_token"}, status_code=401)
        try:
            client = await request.json()
            tool = client["https://purl.imsglobal.org/spec/lti-tool-configuration"]
            login, redirects, jwks_uri = (
                client["initiate_login_uri"],
                client["redirect_uris"],
                client["jwks_uri"],
            )
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "invalid_client_metadata"}, status_code=400)
        deep_link = next(
            (
                m.get("target_link_uri")
                for m in tool.get("messages", [])
                if m.get("type") == Kind.DEEP_LINKING.value
            ),
            None,
        )
        with store.lock:
            store.registration_token = secrets.token_urlsafe(24)  # used once
            store.client_id = "botbench-" + secrets.token_hex(4)
            store.tool.login_url = login
            store.tool.launch_url = tool.get("target_link_uri") or redirects[0]
            store.tool.deep_link_url = deep_link or store.tool.launch_url
            store.tool.jwks_url, store.tool.jwks = jwks_uri, None
            store.registrations.append(client)
        return {
            **client,
            "client_id": store.client_id,
            "https://purl.imsglobal.org/spec/lti-tool-configuration": {
                **tool,
                "deployment_id": store.deployment_id,
            },
        }

    @app.get("/admin/tools")
    def add_tool(url: str = ""):
        """The administrator pastes a tool's registration URL; the platform opens it in a frame
        with its configuration address and a one-time registration token."""
        form = (
            "<form method='get'><p><label for='url'>Tool registration URL</label> "
            "<input id='url' name='url' type='url' size='60' required></p>"
            "<p><button type='submit'>Register the tool</button></p></form>"
        )
        if not url:
            return page("Add an LTI Advantage tool", form)
        query = urlencode(
            {
                "openid_configuration": f"{store.base_url}/.well-known/openid-configuration",
                "registration_token": store.registration_token,
            }
        )
        joiner = "&" if "?" in url else "?"
        src = html.escape(f"{url}{joiner}{query}")
        return page(
            "Add an LTI Advantage tool",
            f"<iframe src='{src}' title='Tool registration'></iframe>",
        )

    # LTI: launch ----------------------------------------------------------------------------

    @app.get("/.well-known/jwks.json")
    def jwks():
        return config_for(store).get_jwks()

    @app.get("/launch/{hint}")
    def login_initiation(hint: str):
        """Third-party login initiation: the library redirects the browser to the tool's login
        URL with iss, login_hint, target_link_uri, lti_message_hint, client_id and deployment."""
        launch = store.launches.get(hint)
        if launch is None:
            return refusal("No such launch.", 404)
        login = PlatformOIDCLogin(None, config_for(store))
        login.set_lti_message_hint(hint=hint)
        if launch.kind is Kind.DEEP_LINKING:
            login.set_deeplinking_launch_url()
        elif launch.kind is Kind.RESOURCE_LINK:
            login.set_launch_url(store.links[launch.link_id].url)
        return login.initiate_login(launch.person_id)

    @app.api_route("/auth", methods=["GET", "POST"])
    async def authorize(request: Request):
        """The OIDC authorization endpoint: checks the tool's request for the person it names
        and answers with the library's auto-posting form holding the signed id_token."""
        lti = await lti_request(request)
        params = lti.get_data or lti.form_data
        launch = store.launches.get(params.get("lti_message_hint", ""))
        if launch is None:
            return refusal("Unknown lti_message_hint.")
        if params.get("login_hint") != launch.person_id:
            return refusal("login_hint is not the person who launched.")
        allowed = {store.tool.launch_url, store.tool.deep_link_url}
        if launch.link_id:
            allowed.add(store.links[launch.link_id].url)
        if params.get("redirect_uri") not in allowed:
            return refusal("redirect_uri is not one registered for the tool.")
        if params.get("response_type") != "id_token" or "openid" not in params.get("scope", ""):
            return refusal("Not an OpenID Connect implicit-flow request.")
        config = config_for(store, forge=launch.tamper == "other_key")
        message = PlatformMessageLaunch(lti, config, store, launch)
        prepare_launch(message)
        try:
            form = message.lti_launch()
        except PreflightRequestValidationException:
            return refusal("The tool's authentication request is incomplete.")
        return HTMLResponse(form)

    @app.get("/issued/{number}")
    def post_again(number: int):
        """Posts an id_token the platform already issued once more (a replayed launch)."""
        from .library import LAUNCH_FORM

        if not 0 <= number < len(store.issued):
            return refusal("No such issued launch.", 404)
        issued = store.issued[number]
        return HTMLResponse(
            LAUNCH_FORM.render(
                launch_url=issued.launch_url, id_token=issued.id_token, state=issued.state
            )
        )

    @app.post("/token")
    async def token(request: Request):
        lti = await lti_request(request)
        try:
            answer = await run_in_threadpool(config_for(store).get_access_token, lti.form_data)
        except (MissingRequiredClaim, UnsupportedGrantType) as error:
            return JSONResponse({"error": "invalid_request", "detail": str(error)}, 400)
        except (jwt.PyJWTError, LtiException, AssertionError) as error:
            return JSONResponse({"error": "invalid_client", "detail": str(error)}, 401)
        return answer

    # LTI: deep linking ----------------------------------------------------------------------

    @app.post("/deep-link/{hint}/return")
    async def deep_link_return(hint: str, request: Request):
        launch = store.launches.get(hint)
        if launch is None or launch.kind is not Kind.DEEP_LINKING:
            return refusal("No such deep-linking request.", 404)
        lti = await lti_request(request)
        config = config_for(store)
        try:
            items = await run_in_threadpool(config.validate_deeplinking_resp, lti.form_data)
            claims = jwt.decode(lti.form_data["JWT"], options={"verify_signature": False})
        except (KeyError, jwt.PyJWTError, LtiException, LtiDeepLinkingResponseException) as e:
            return refusal(f"The tool's deep-linking response was refused: {e}")
        deployment = claims.get("https://purl.imsglobal.org/spec/lti/claim/deployment_id")
        if claims.get("iss") != store.client_id or deployment != store.deployment_id:
            return refusal("The deep-linking response names another tool or deployment.")
        store.deep_link_returns.append(items)
        added = []
        for item in items:
            link = store.add_link(
                launch.course_id,
                item.get("title") or "BotBench activity",
                item.get("url") or store.tool.launch_url,
                item.get("custom"),
                item.get("lineItem"),
            )
            added.append(f"<li>{html.escape(link.title)}</li>")
        back = f"/courses/{launch.course_id}?as={launch.person_id}"
        return page(
            "Activity added",
            f"<ul>{''.join(added)}</ul>"
            f"<p><a href='{back}' target='_top'>Back to the course</a></p>",
        )

    # LTI Advantage services -----------------------------------------------------------------

    def serve(service_call: t.Callable[[], LtiResponse]) -> Response:
        try:
            return lti_json(service_call())
        except (jwt.PyJWTError, LtiException, AssertionError):
            return JSONResponse({"error": "invalid token"}, status_code=401)
        except LtiServiceException as error:
            return JSONResponse({"error": error.message}, status_code=error.status_code)

    def known(course_id: str) -> bool:
        return course_id in store.courses

    @app.get("/courses/{course_id}/memberships")
    async def memberships(course_id: str, request: Request):
        if not known(course_id):
            return JSONResponse({"error": "no such course"}, status_code=404)
        service = PlatformNrps(await lti_request(request), config_for(store), course_id)
        return serve(lambda: service.handle_resp(service.handle_get_members))

    @app.api_route("/courses/{course_id}/lineitems", methods=["GET", "POST"])
    async def line_items(course_id: str, request: Request):
        if not known(course_id):
            return JSONResponse({"error": "no such course"}, status_code=404)
        service = PlatformAgs(await lti_request(request), config_for(store), course_id)
        handler = service.handle_get_lineitems
        if request.method == "POST":
            handler = service.handle_create_lineitem
        return serve(lambda: service.handle_resp(handler))

    @app.api_route("/courses/{course_id}/lineitems/{item_id}", methods=["GET", "PUT", "DELETE"])
    async def line_item(course_id: str, item_id: str, request: Request):
        if not known(course_id):
            return JSONResponse({"error": "no such course"}, status_code=404)
        service = PlatformAgs(await lti_request(request), config_for(store), course_id)
        handler = {
            "GET": service.handle_get_lineitem,
            "PUT": service.handle_update_lineitem,
            "DELETE": service.handle_delete_lineitem,
        }[request.method]
        return serve(lambda: service.handle_resp(handler, line_item_id=item_id))

    @app.get("/courses/{course_id}/lineitems/{item_id}/results")
    async def results(course_id: str, item_id: str, request: Request):
        if not known(course_id):
            return JSONResponse({"error": "no such course"}, status_code=404)
        service = PlatformAgs(await lti_request(request), config_for(store), course_id)
        return serve(lambda: service.handle_resp(service.handle_get_results, line_item_id=item_id))

    @app.post("/courses/{course_id}/lineitems/{item_id}/scores")
    async def scores(course_id: str, item_id: str, request: Request):
        with store.lock:
            store.score_attempts += 1
            fault, hang = store.score_fault, store.hang_seconds
        if fault is ScoreFault.ERROR:
            return JSONResponse({"error": "the gradebook is down"}, status_code=500)
        if fault is ScoreFault.HANG:
            await run_in_threadpool(store.release_hang.wait, hang)
            await asyncio.sleep(0)
            return JSONResponse({"error": "the gradebook timed out"}, status_code=504)
        if not known(course_id):
            return JSONResponse({"error": "no such course"}, status_code=404)
        service = PlatformAgs(await lti_request(request), config_for(store), course_id)
        return serve(lambda: service.handle_resp(service.handle_update_score, line_item_id=item_id))

    return app
