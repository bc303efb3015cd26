"""The LTI Data Privacy Launch: what BotBench stores about a course's people, and where a teacher
deletes it. Answering it stores nothing about anyone (the course's teacher is signed in, so
the delete links open)."""

from classroom.models import LtiCourse, LtiPerson


def privacy_context(launch) -> dict:
    """What the privacy page shows for this launch: the course's class when BotBench has one,
    and whether the person launching teaches it (then the delete links are theirs)."""
    context_id = str((launch.context or {}).get("id") or "")
    course = (
        LtiCourse.objects.select_related("classroom", "platform__school")
        .filter(platform=launch.platform, context_id=context_id)
        .first()
        if context_id
        else None
    )
    teaches = (
        course is not None
        and LtiPerson.objects.filter(
            course=course, sub_hash=launch.sub_hash, user=course.classroom.teacher
        ).exists()
    )
    return {
        "course": course,
        "classroom": course.classroom if course else None,
        "teaches": teaches,
        "school": launch.platform.school,
    }
