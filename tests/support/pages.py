"""Signing in a browser and checking a page fits its width, for the report pages' browser tests."""

from django.conf import settings as django_settings
from django.test import Client


def signed_in(new_context, live_server, user, viewport):
    """A browser context already logged in as `user` (the session cookie of a test client)."""
    client = Client()
    client.force_login(user)
    context = new_context(viewport)
    context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context


def no_horizontal_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, page.evaluate(WIDEST)


WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .filter(e => !e.parentElement.closest('.table-scroll'))
  .slice(0, 5)
  .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
