"""Who a launch is, kept to the least: a keyed hash of the LMS user id and, for a student, the
roster's usual given name and initial."""

from django.utils.crypto import salted_hmac

from classroom.models import LtiPlatform

_SALT = "botbench.lti.subject"


def hash_subject(platform: LtiPlatform, sub: str) -> str:
    """A stable, keyed hash of the LMS user id (`sub`): LMS ids are often small numbers, so a
    plain hash could be reversed by trying them all; the site's secret key prevents that."""
    return salted_hmac(_SALT, f"{platform.issuer}\n{sub}", algorithm="sha256").hexdigest()


def roster_name(given_name: str | None, family_name: str | None, *, fallback: str) -> str:
    """ "Ana G.": the given name and the family name's initial, what a roster already holds.
    Without a given name, `fallback` (a translated "Student 3")."""
    given = " ".join((given_name or "").split())[:40]
    family = " ".join((family_name or "").split())
    if not given:
        return fallback
    return f"{given} {family[0].upper()}." if family else given
