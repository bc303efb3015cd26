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
            throttle.login_unlock(email=email)
            self.stdout.write(f"Unlocked the account {email}.")
        for each in address:
            throttle.login_unlock(address=each)
            self.stdout.write(f"Unlocked logins from {each}.")
