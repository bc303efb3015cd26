from django.urls import path

from games.views import printables

urlpatterns = [
    path("printables/", printables.printables_index, name="printables"),
    path("printables/<slug:slug>.pdf", printables.printable_download, name="printable"),
]
