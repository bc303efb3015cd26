from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from classroom.urls import auth_urlpatterns

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include(auth_urlpatterns)),
    path("", include("classroom.urls")),
    path("play/", include("games.urls")),
    path("reports/", include("reports.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
