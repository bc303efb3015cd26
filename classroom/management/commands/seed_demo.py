from django.core.management.base import BaseCommand

from classroom.demo import DEMO_ADMIN, DEMO_PASSWORD, DEMO_TEACHER, load_demo


class Command(BaseCommand):
    help = "Load the demo school, teacher, administrator and class (safe to run again)."

    def handle(self, *args, **options) -> None:
        demo = load_demo()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: {demo['school']} / {demo['classroom']}.\n"
                f"  teacher: {DEMO_TEACHER}  administrator: {DEMO_ADMIN}  password: {DEMO_PASSWORD}"
            )
        )
