"""The site's URLs without the games app: the classroom must keep working on its own."""

from django.urls import include, path

from classroom.urls import auth_urlpatterns

urlpatterns = [
    path("", include(auth_urlpatterns)),
    path("", include("classroom.urls")),
]
