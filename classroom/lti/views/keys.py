from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from classroom.lti.keys import jwks as current_jwks


@require_GET
def jwks(request: HttpRequest) -> JsonResponse:
    """BotBench's public keys: every active one, so a rotation never breaks a platform holding
    a token or a cached keyset signed with the previous key."""
    response = JsonResponse(current_jwks())
    response["Cache-Control"] = "public, max-age=300"
    return response
