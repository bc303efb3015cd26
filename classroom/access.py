"""Who may do what, in one place. Every classroom view starts by calling one of these; each
returns the object or raises Http404 (the object is not yours to know about) or
PermissionDenied (you may see it but not do this)."""

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from classroom.devices import current_binding
from classroom.models import (
    Classroom,
    DeviceBinding,
    LtiCourse,
    LtiPlatform,
    LtiResourceLink,
    Role,
    School,
    Session,
    Student,
    Table,
    Team,
    User,
)


def _adult(request: HttpRequest) -> User:
    user = request.user
    if not user.is_authenticated or not user.is_active or user.school_id is None:
        raise Http404("Not found.")
    return user


def require_adult(request: HttpRequest) -> User:
    """Any signed-in adult of a school (a teacher or an administrator): their own account."""
    return _adult(request)


def require_teacher(request: HttpRequest) -> User:
    user = _adult(request)
    if user.role != Role.TEACHER:
        raise PermissionDenied("Only teachers can do this.")
    return user


def require_school_admin(request: HttpRequest) -> School:
    user = _adult(request)
    if user.role != Role.ADMINISTRATOR:
        raise PermissionDenied("Only the school's administrators can see this.")
    return user.school


def _class_scope(user: User) -> tuple[int, int | None] | None:
    """Whose classes a signed-in adult may read: their school's, and of those only their own
    unless they administer the school (then the teacher is None). None: no class at all."""
    if not user.is_authenticated or user.school_id is None:
        return None
    return user.school_id, None if user.role == Role.ADMINISTRATOR else user.pk


def classes_visible_to(user: User):
    """Classes a signed-in adult may read: a teacher's own, an administrator's whole school."""
    scope = _class_scope(user)
    if scope is None:
        return Classroom.objects.none()
    school_id, teacher_id = scope
    if teacher_id is None:
        return Classroom.objects.filter(school_id=school_id)
    return Classroom.objects.filter(school_id=school_id, teacher_id=teacher_id)


# classes_visible_to as a WHERE over a class aliased `c`, for a statement that asks it
# (games.statements), with its parameters from `visible_class_params`.
VISIBLE_CLASS_WHERE = "c.school_id = %s AND (c.teacher_id = %s OR %s)"


def visible_class_params(user: User) -> list | None:
    """VISIBLE_CLASS_WHERE's parameters for `user`; None when they may read no class."""
    scope = _class_scope(user)
    if scope is None:
        return None
    school_id, teacher_id = scope
    return [school_id, teacher_id, teacher_id is None]


def is_school_admin(user: User | None, school: School) -> bool:
    """The one answer to "may this person act for the whole school?"."""
    return (
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.role == Role.ADMINISTRATOR
        and user.school_id == school.pk
    )


def get_class_for_viewer(request: HttpRequest, pk: int) -> Classroom:
    """Read access: the class's teacher or the school's administrator."""
    user = _adult(request)
    try:
        return classes_visible_to(user).select_related("school", "teacher").get(pk=pk)
    except Classroom.DoesNotExist:
        raise Http404("No such class.") from None


def get_class_for_teacher(request: HttpRequest, pk: int) -> Classroom:
    """Write access: only the class's own teacher. An administrator may read, never edit."""
    classroom = get_class_for_viewer(request, pk)
    if not is_class_teacher(request.user, classroom):
        raise PermissionDenied("Only the class's teacher can change it.")
    return classroom


def get_session_for_viewer(request: HttpRequest, pk: int) -> Session:
    """Read access: the class's teacher or the school's administrator; the session comes with
    its class, school and teacher."""
    user = _adult(request)
    try:
        return (
            Session.objects.select_related("classroom__school", "classroom__teacher")
            .filter(classroom__in=classes_visible_to(user))
            .get(pk=pk)
        )
    except Session.DoesNotExist:
        raise Http404("No such session.") from None


def get_session_for_teacher(request: HttpRequest, pk: int) -> Session:
    session = get_session_for_viewer(request, pk)
    if not is_class_teacher(request.user, session.classroom):
        raise PermissionDenied("Only the class's teacher can run this session.")
    return session


def get_device(request: HttpRequest) -> DeviceBinding:
    """The joined device making this request, or 404 (the join page is the way in)."""
    binding = current_binding(request)
    if binding is None:
        raise Http404("This device has not joined a session.")
    return binding


def get_device_team(request: HttpRequest, session_pk: int | None = None) -> Team:
    """The team this device plays for (in `session_pk` when given), or 404/403."""
    binding = get_device(request)
    if session_pk is not None and binding.session_id != session_pk:
        raise PermissionDenied("This device is joined to another session.")
    try:  # one team a student a session: a constraint
        return Team.objects.select_related("table", "session").get(
            session_id=binding.session_id, memberships__student_id=binding.student_id
        )
    except Team.DoesNotExist:
        raise Http404("You are not on a team yet: wait for your teacher.") from None


def is_class_teacher(user: User | None, classroom: Classroom) -> bool:
    """The one answer to "is this the class's own teacher?". Views use it to decide which
    controls to show, services to refuse a write; an administrator may read a class, never
    change it, so this is never true for one."""
    return (
        user is not None
        and user.is_authenticated
        and user.is_active
        and classroom.teacher_id == user.pk
    )


def get_student_for_viewer(request: HttpRequest, pk: int) -> Student:
    user = _adult(request)
    try:
        return (
            Student.objects.select_related("classroom__school", "classroom__teacher")
            .filter(classroom__in=classes_visible_to(user))
            .get(pk=pk)
        )
    except Student.DoesNotExist:
        raise Http404("No such student.") from None


def get_student_for_teacher(request: HttpRequest, pk: int) -> Student:
    student = get_student_for_viewer(request, pk)
    if not is_class_teacher(request.user, student.classroom):
        raise PermissionDenied("Only the class's teacher can change its roster.")
    return student


def get_student_for_admin(request: HttpRequest, pk: int) -> Student:
    """Exporting a student's data is the school administrator's job."""
    student = get_student_for_viewer(request, pk)
    if request.user.role != Role.ADMINISTRATOR:
        raise PermissionDenied("Only the school's administrators can export a student's data.")
    return student


def get_teacher_for_admin(request: HttpRequest, pk: int) -> User:
    school = require_school_admin(request)
    try:
        return User.objects.get(pk=pk, school=school, role=Role.TEACHER)
    except User.DoesNotExist:
        raise Http404("No such teacher.") from None


def get_session_team(session: Session, pk: int) -> Team:
    """A team of a session the caller has already been allowed into."""
    try:
        return session.teams.get(pk=pk)
    except Team.DoesNotExist:
        raise Http404("No such team in this session.") from None


def get_session_table(session: Session, pk: int) -> Table:
    try:
        return session.tables.get(pk=pk)
    except Table.DoesNotExist:
        raise Http404("No such table in this session.") from None


def get_session_student(session: Session, pk: int) -> Student:
    try:
        return session.classroom.students.get(pk=pk)
    except Student.DoesNotExist:
        raise Http404("No such student in this class.") from None


def get_session_device(session: Session, pk: int) -> DeviceBinding:
    try:
        return session.devices.select_related("session__classroom").get(pk=pk)
    except DeviceBinding.DoesNotExist:
        raise Http404("No such device in this session.") from None


# --- LTI (classroom/lti) ----------------------------------------------------------------------


def get_lti_link_for_teacher(request: HttpRequest, pk: int) -> LtiResourceLink:
    """An LMS link of a course whose class the signed-in teacher teaches."""
    user = require_teacher(request)
    try:
        return LtiResourceLink.objects.select_related("course__classroom").get(
            pk=pk, course__classroom__teacher=user
        )
    except LtiResourceLink.DoesNotExist:
        raise Http404("No such link.") from None


def get_lti_course_for_teacher(request: HttpRequest, pk: int) -> LtiCourse:
    user = require_teacher(request)
    try:
        return LtiCourse.objects.select_related("classroom", "platform").get(
            pk=pk, classroom__teacher=user
        )
    except LtiCourse.DoesNotExist:
        raise Http404("No such course.") from None


def lti_platforms_for_admin(request: HttpRequest):
    """The LMS platforms a school's administrator manages: their school's. The site operator
    (a superuser) registers platforms for any school in the Django admin."""
    school = require_school_admin(request)
    return LtiPlatform.objects.filter(school=school)


def get_lti_platform_for_admin(request: HttpRequest, pk: int) -> LtiPlatform:
    try:
        return lti_platforms_for_admin(request).get(pk=pk)
    except LtiPlatform.DoesNotExist:
        raise Http404("No such platform.") from None


def get_lti_learner(
    request: HttpRequest, student_pk: int, course_pk: int
) -> tuple[Student, LtiCourse]:
    """The learner a launch put in this browser's session (no account: the session holds the
    ids the launch checked), or 404."""
    try:
        course = LtiCourse.objects.select_related("classroom").get(pk=course_pk)
        student = course.classroom.students.get(pk=student_pk)
    except (LtiCourse.DoesNotExist, Student.DoesNotExist):
        raise Http404("No such learner.") from None
    return student, course


def get_lti_course_for_class_teacher(request: HttpRequest, class_pk: int) -> LtiCourse:
    """Sync the class's roster from its LMS course: only the class's own teacher (the preview
    reads the LMS on the teacher's behalf, so an administrator is refused it too); 404 for a
    class not linked to an LMS course."""
    classroom = get_class_for_teacher(request, class_pk)
    try:
        return LtiCourse.objects.select_related("platform", "classroom").get(classroom=classroom)
    except LtiCourse.DoesNotExist:
        raise Http404("This class is not linked to an LMS course.") from None


def get_session_for_grades(request: HttpRequest, session_pk: int) -> Session:
    """Read the LMS gradebook status of a session's scores: its teacher or the administrator."""
    return get_session_for_viewer(request, session_pk)


def get_session_for_grades_teacher(request: HttpRequest, session_pk: int) -> Session:
    """Send a session's scores again: only the class's teacher."""
    return get_session_for_teacher(request, session_pk)
