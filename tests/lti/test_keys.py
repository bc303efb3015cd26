"""BotBench's keys: every active key is published; rotating adds a key without dropping the
previous one until it is retired."""

import io

from django.core.management import call_command
from django.test import Client
from lti_tool.models import Key

from classroom.lti.keys import signing_key


def _kids(client: Client) -> set[str]:
    return {key["kid"] for key in client.get("/lti/jwks.json").json()["keys"]}


def test_first_request_makes_a_key(db):
    client = Client()
    response = client.get("/lti/jwks.json")
    assert response["Cache-Control"] == "public, max-age=300"
    kids = _kids(client)
    assert len(kids) == 1
    assert all(k["alg"] == "RS256" for k in client.get("/lti/jwks.json").json()["keys"])
    assert "d" not in client.get("/lti/jwks.json").json()["keys"][0]  # never the private part


def test_rotation_keeps_the_previous_key_published_until_retired(db):
    client = Client()
    old = _kids(client)
    call_command("rotate_keys", "--deactivate-after", "30", stdout=io.StringIO())
    both = _kids(client)
    assert old < both and len(both) == 2
    newest = signing_key()
    assert newest.pk == Key.objects.order_by("-datetime_created", "-pk").first().pk
    Key.objects.exclude(pk=newest.pk).update(is_active=False)
    assert len(_kids(client)) == 1 and not (old & _kids(client))
