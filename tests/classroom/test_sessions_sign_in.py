"""Adults sign in and out through Django's own sessions (cached_db) and ModelBackend (the account
read by one written-out statement, classroom.authentication): what the site relies on, from the
login page to a reset password."""

from asgiref.sync import sync_to_async
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from classroom.authentication import AccountBackend
from classroom.models import User
from tests.conftest import PASSWORD
from tests.support.streams import run_alone


def _user(client: Client):
    return client.get(reverse("classroom:dashboard")).wsgi_request.user


def test_signing_in_saves_a_session_that_keeps_the_teacher_signed_in(teacher):
    client = Client()
    response = client.post(reverse("login"), {"username": teacher.email, "password": PASSWORD})
    assert response.status_code == 302
    cookie = client.cookies["sessionid"]
    assert cookie["httponly"]
    row = Session.objects.get(pk=cookie.value)
    assert row.get_decoded()[SESSION_KEY] == str(teacher.pk)
    assert _user(client) == teacher


def test_signing_out_deletes_the_session_row(teacher_client, teacher):
    assert _user(teacher_client) == teacher
    key = teacher_client.cookies["sessionid"].value
    teacher_client.post(reverse("logout"))
    assert not Session.objects.filter(pk=key).exists()
    assert not _user(teacher_client).is_authenticated


def test_an_account_made_inactive_is_signed_out(teacher_client, teacher):
    User.objects.filter(pk=teacher.pk).update(is_active=False)
    assert not _user(teacher_client).is_authenticated


def test_a_password_reset_signs_the_other_computers_out(teacher_client, teacher):
    assert _user(teacher_client) == teacher
    uid = urlsafe_base64_encode(force_bytes(teacher.pk))
    token = default_token_generator.make_token(teacher)
    phone = Client()
    form = phone.get(reverse("password_reset_confirm", args=[uid, token]), follow=True)
    new = "a-brand-new-passphrase-42"
    done = phone.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert not _user(teacher_client).is_authenticated
    assert Client().login(username=teacher.email, password=new)


def test_the_backend_reads_the_account_as_model_backend_does(teacher):
    teacher.last_login = timezone.now()  # a datetime the database stores and gives back
    teacher.save()
    ours, django = AccountBackend().get_user(teacher.pk), ModelBackend().get_user(teacher.pk)
    fields = [field.attname for field in User._meta.concrete_fields]
    assert [getattr(ours, name) for name in fields] == [getattr(django, name) for name in fields]
    assert timezone.is_aware(ours.last_login) and timezone.is_aware(ours.date_joined)
    assert not ours._state.adding and ours._state.db == "default"
    assert AccountBackend().get_user(teacher.pk + 1000) is None
    assert AccountBackend().get_user(2**70) is None  # more than the column holds: no row


async def _read_under_asgi(user_id: int):
    try:
        return await AccountBackend().aget_user(user_id)
    finally:  # the read's connection belongs to asgiref's thread: closed there
        await sync_to_async(connections.close_all)()


def test_the_backend_reads_the_account_the_same_way_under_asgi(transactional_db, teacher):
    # transactional_db: the async read runs on a connection of another thread.
    assert run_alone(_read_under_asgi(teacher.pk)) == teacher
    assert run_alone(_read_under_asgi(teacher.pk + 1000)) is None
