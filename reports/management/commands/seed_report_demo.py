"""Give the demo class a term of finished sessions so the reports have something to show."""

from django.core.management.base import BaseCommand, CommandError

from classroom.demo import load_demo
from reports.demo import seed_class


class Command(BaseCommand):
    help = "Add finished sessions (robot-played games, teach-backs, assessments) to the demo class."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--students", type=int, default=30)
        parser.add_argument("--sessions", type=int, default=20)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, students: int, sessions: int, seed: int, **options) -> None:
        demo = load_demo()
        classroom = demo["classroom"]
        if classroom.sessions.exists():
            raise CommandError(f"{classroom} already has sessions: nothing added.")
        seed_class(classroom, students=students, sessions=sessions, seed=seed)
        self.stdout.write(
            self.style.SUCCESS(f"{classroom}: {sessions} sessions for {students} students added.")
        )
