"""The games app's URLs, one module a feature so each can grow on its own."""

from games.urlconf import play, printables, stream, teachback, three_laws

app_name = "games"

urlpatterns = [
    *play.urlpatterns,
    *three_laws.urlpatterns,
    *teachback.urlpatterns,
    *printables.urlpatterns,
    *stream.urlpatterns,
]
