from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from classroom.urls import auth_urlpatterns

urlpatterns = [
    # First: live play's polls, redraws and moves are most of a lesson's requests, and Django
    # tries the patterns in order (play/ matched last, a poll went past some fifty of them).
    path("play/", include("games.urls")),
    path("admin/", admin.site.urls),
    path("", include(auth_urlpatterns)),
    path("", include("classroom.urls")),
    path("reports/", include("reports.urls")),
    # BotBench as an LTI 1.3 tool in a school's LMS (issue 37).
    path("lti/", include("classroom.lti.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
