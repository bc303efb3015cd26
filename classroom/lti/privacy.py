"""The LTI Data Privacy Launch (message type DataPrivacyLaunchRequest, no course in it): what
BotBench stores about people of this LMS, and where a teacher deletes it. It stores nothing about
anyone; a teacher of this LMS's courses is signed in, so the delete links open."""

from classroom.models import Classroom, LtiPerson, User


def privacy_screen(launch) -> dict:
    person = (
        LtiPerson.objects.select_related("user")
        .filter(platform=launch.platform, sub_hash=launch.sub_hash, user__isnull=False)
        .first()
    )
    teacher: User | None = person.user if person is not None else None
    classes = (
        Classroom.objects.filter(teacher=teacher, lti_course__platform=launch.platform)
        if teacher is not None
        else Classroom.objects.none()
    )
    return {"teacher": teacher, "classes": list(classes), "school": launch.platform.school}
