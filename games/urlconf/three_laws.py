"""3 Laws of Robotics: a question with free words, Error calls and counters, and the
facilitator's moves (advance, void) made by the class's teacher."""

from django.urls import path

from games.views import three_laws

urlpatterns = [
    path("tables/<int:game_id>/ask/", three_laws.ask, name="three_laws_ask"),
    path("tables/<int:game_id>/call/", three_laws.call, name="three_laws_call"),
    path("tables/<int:game_id>/facilitate/", three_laws.facilitate, name="facilitate"),
]
