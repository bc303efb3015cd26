"""The signed cookie that binds a student's device to a session.

The cookie carries only an opaque token; everything else is looked up on the server, so a
forged or stale cookie simply finds nothing."""

from django.http import HttpRequest, HttpResponse

from classroom.models import DeviceBinding

DEVICE_COOKIE = "botbench_device"
_SALT = "botbench.device"
# A school day and then some: a device rejoins the next lesson by the join page anyway.
_MAX_AGE = 60 * 60 * 16


def read_device_token(request: HttpRequest) -> str | None:
    return request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=_SALT, max_age=_MAX_AGE)


def set_device_cookie(response: HttpResponse, binding: DeviceBinding, *, secure: bool) -> None:
    response.set_signed_cookie(
        DEVICE_COOKIE,
        binding.token,
        salt=_SALT,
        max_age=_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=secure,
    )


def clear_device_cookie(response: HttpResponse) -> None:
    response.delete_cookie(DEVICE_COOKIE, samesite="Lax")


def current_binding(request: HttpRequest) -> DeviceBinding | None:
    """The live binding of this device, or None (no cookie, bad signature, revoked, closed)."""
    if hasattr(request, "_device_binding"):
        return request._device_binding
    token = read_device_token(request)
    binding = None
    if token:
        binding = (
            DeviceBinding.objects.select_related("session", "student")
            .filter(token=token, revoked_at__isnull=True)  # the token is unique
            .first()
        )
        if binding is not None and not binding.session.is_joinable:
            binding = None
    remember_binding(request, binding)
    return binding


def remember_binding(request: HttpRequest, binding: DeviceBinding | None) -> None:
    """The request's live binding, for the rest of the request: read once, by current_binding
    or by a statement that checks the same (games.access)."""
    request._device_binding = binding


def forget_binding(request: HttpRequest) -> None:
    """Drop what this request read of its binding, so the next `current_binding` reads it
    again (a stream, open for hours, re-checks its device when the binding changes)."""
    request.__dict__.pop("_device_binding", None)
