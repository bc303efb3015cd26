"""Demo data for a fresh machine: one school, a teacher, an administrator and a class of 24."""

import datetime

from django.db import transaction
from django.utils import timezone

from classroom.models import Classroom, GameKind, Role, School, Session, Student, User, Variant

DEMO_PASSWORD = "botbench-demo-2026"
DEMO_TEACHER = "demo@botbench.local"
DEMO_ADMIN = "admin@botbench.local"
DEMO_STUDENTS = [
    "Ava",
    "Ben",
    "Chloe",
    "Diego",
    "Emma",
    "Finn",
    "Grace",
    "Hugo",
    "Isla",
    "Jonah",
    "Kai",
    "Lena",
    "Mateo",
    "Nora",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sam",
    "Tara",
    "Uma",
    "Victor",
    "Wren",
    "Yusuf",
]


@transaction.atomic
def load_demo() -> dict[str, object]:
    """Create the demo school once; running it again changes nothing."""
    school, _ = School.objects.get_or_create(name="Maple Street Elementary")
    teacher = _account(DEMO_TEACHER, "Ms. Rivera", school, Role.TEACHER)
    admin = _account(DEMO_ADMIN, "Mr. Okafor", school, Role.ADMINISTRATOR)
    classroom, _ = Classroom.objects.get_or_create(
        school=school,
        teacher=teacher,
        name="Room 12 Robotics",
        defaults={"grade": "Grade 4", "school_year": "2026-27"},
    )
    for index, name in enumerate(DEMO_STUDENTS):
        # A few birth months, as a teacher might add for the Bot-Builders tie-break.
        month = f"2016-{index % 12 + 1:02d}" if index % 3 == 0 else ""
        Student.objects.get_or_create(
            classroom=classroom, name=name, defaults={"birth_month": month}
        )
    # An upcoming lesson to open straight away; created once, whatever its state since.
    Session.objects.get_or_create(
        classroom=classroom,
        title="Demo lesson: Bot-Builders",
        defaults={
            "date": timezone.localdate() + datetime.timedelta(days=1),
            "game": GameKind.BOT_BUILDERS,
            "variant": Variant.CLASSROOM,
        },
    )
    return {"school": school, "teacher": teacher, "admin": admin, "classroom": classroom}


def _account(email: str, name: str, school: School, role: str) -> User:
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User.objects.create_user(
            email, DEMO_PASSWORD, display_name=name, school=school, role=role
        )
    return user
