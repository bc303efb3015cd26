import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from games.streams import serve_stream, stream_path  # noqa: E402  -- needs Django set up


async def application(scope, receive, send):
    """Django, with event streams served without a thread each (games/streams.py says why)."""
    if scope["type"] == "http" and scope.get("path") == stream_path():
        await serve_stream(django_application, scope, receive, send)
    else:
        await django_application(scope, receive, send)
