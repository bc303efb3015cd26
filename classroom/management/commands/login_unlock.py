from django.core.management.base import BaseCommand, CommandError

from classroom import throttle


class Command(BaseCommand):
    help = (
        "Lift a login lockout now instead of at the end of the window: for an account "
        "(its e-mail), for a client address, or both."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("emails", nargs="*", help="accounts to unlock, by e-mail")
        parser.add_argument(
            "--address", action="append", default=[], help="a client address to unlock"
        )

    def handle(self, *args, emails: list[str], address: list[str], **options) -> None:
        if not emails and not address:
            raise CommandError("Name at least one e-mail address or --address.")
        for email in emails:
            self._done(throttle.login_unlock(email=email), f"the account {email}")
        for each in address:
            self._done(throttle.login_unlock(address=each), f"logins from {each}")

    def _done(self, unlocked: bool, what: str) -> None:
        if not unlocked:
            raise CommandError(f"Could not unlock {what}: the cache (REDIS_URL) is unreachable.")
        self.stdout.write(f"Unlocked {what}.")
