"""Server push: the one stream URL every live screen holds (permissions checked in the view,
against the signed token it carries; tested in tests/games/live/test_streams.py)."""

from django.urls import path

from games.views import stream

urlpatterns = [
    path("stream/", stream.stream, name="stream"),
]
