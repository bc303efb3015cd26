"""Sessions: planning, the setup page (presence, teams, tables, devices), opening, the lobby
on the projector, and closing."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from classroom import access, links, selectors, services, watch
from classroom.forms import SessionForm
from classroom.http import HtmxHttpRequest, htmx_or_redirect
from classroom.language import projector_language
from classroom.models import ProjectorLanguage, Session, SessionStatus
from classroom.qr import qr_svg
from classroom.tables import seat_limits


def setup_screen(request: HttpRequest, session: Session) -> dict:
    teams = selectors.session_teams(session)
    tables = selectors.session_seating(session)
    editable = access.is_class_teacher(request.user, session.classroom)
    return {
        "session": session,
        "can_edit": editable,
        "teams_editable": editable and session.status in (SessionStatus.DRAFT, SessionStatus.OPEN),
        "roster": selectors.class_roster(session.classroom),
        "present_ids": set(session.present.values_list("pk", flat=True)),
        "teams": teams,
        "human_teams": [team for team in teams if not team.is_robot],
        "tables": tables,
        "unseated": [team for team in teams if team.table_id is None],
        "without_team": selectors.students_without_team(session),
        "problems": selectors.session_table_problems(session, tables, teams),
        "limits": seat_limits(session.game, session.variant),
        "devices": selectors.session_devices(session),
        "start_tables_url": reverse("games:start_tables", args=[session.pk]),
    }


def render_setup(request: HttpRequest, session: Session) -> HttpResponse:
    """After a change: the setup region again for htmx, the whole page by redirect otherwise."""
    if request.htmx:
        session.refresh_from_db()
        return render(
            request, "classroom/session_detail.html#setup", setup_screen(request, session)
        )
    return redirect(session)


def setup_step[T](
    request: HttpRequest,
    session: Session,
    change: Callable[[], T],
    success: Callable[[T], str],
) -> HttpResponse:
    """Run one set-up change (a service call), tell the teacher how it went, and show the
    setup region again: a refusal's message as an error, `success(result)` otherwise."""
    try:
        result = change()
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, success(result))
    return render_setup(request, session)


@login_required
@require_http_methods(["GET", "POST"])
def session_create(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_create(
                classroom=classroom, by=request.user, **form.cleaned_data
            )
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request, gettext("Session planned. Mark who is present, then make teams.")
            )
            return redirect(session)
    status = 400 if form.is_bound else 200
    context = {"form": form, "classroom": classroom, "session": None}
    return render(request, "classroom/session_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    initial = {
        field: getattr(session, field)
        for field in ["date", "title", "game", "variant", "skip_first_round", "team_size"]
    }
    form = SessionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.session_update(session=session, by=request.user, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("Session saved."))
            return redirect(session)
    status = 400 if form.is_bound else 200
    context = {"form": form, "classroom": session.classroom, "session": session}
    return render(request, "classroom/session_form.html", context, status=status)


@login_required
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_viewer(request, pk)
    context = setup_screen(request, session)
    context["join_page"] = f"{links.site_url(request)}{reverse('classroom:join')}"
    return render(request, "classroom/session_detail.html", context)


@login_required
@require_POST
def session_presence(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    if request.POST.get("all") == "1":
        ids = list(session.classroom.students.values_list("pk", flat=True))
    else:
        try:
            ids = [int(value) for value in request.POST.getlist("present")]
        except ValueError:
            ids = None

    def mark_present() -> int:
        if ids is None:
            raise services.ServiceError(gettext("Some of those students are not in this class."))
        services.session_set_present(session=session, student_ids=ids, by=request.user)
        return len(ids)

    return setup_step(
        request,
        session,
        mark_present,
        lambda count: (
            ngettext("%(count)s present.", "%(count)s present.", count) % {"count": count}
        ),
    )


@login_required
@require_POST
def session_open(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    try:
        session = services.session_open(session=session, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
        return redirect(session)
    return redirect("classroom:session_lobby", session.pk)


@login_required
@require_POST
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    services.session_close(session=session, by=request.user)
    messages.success(request, gettext("Session closed: the room code no longer works."))
    return redirect(session)


@login_required
def session_lobby(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector page, in the projector's language (the lobby's own choice). The poll
    re-draws only the list of who has joined (`lobby_region`)."""
    session = access.get_session_for_teacher(request, pk)
    # The stamps before the content: a change in between is drawn again, never missed.
    urls = watch.topic_page_urls(watch.Watch(watch.LOBBY, session.pk, user_id=request.user.pk))
    language = projector_language(session)
    with translation.override(language or translation.get_language()):
        return _render_lobby(request, session, urls, bilingual=language is None)


@watch.redraws(watch.LOBBY)
def lobby_region(request: HttpRequest, seen: watch.Seen) -> HttpResponse:
    if request.user.pk != seen.watch.user_id:
        raise Http404("This screen belongs to someone else.")
    session = access.get_session_for_teacher(request, seen.watch.session_id)
    language = projector_language(session)
    with translation.override(language or translation.get_language()):
        context = _lobby(session, watch.redrawn_urls(seen), bilingual=language is None)
        return render(request, "classroom/session_lobby.html#joined", context)


def _lobby(session: Session, urls: dict, *, bilingual: bool) -> dict:
    return {
        "session": session,
        "lobby": selectors.lobby_teams(session),
        "start_tables_url": reverse("games:start_tables", args=[session.pk]),
        "projector_languages": ProjectorLanguage.choices,
        "bilingual": bilingual,
        **urls,
    }


def _render_lobby(
    request: HttpRequest, session: Session, urls: dict, *, bilingual: bool
) -> HttpResponse:
    context = _lobby(session, urls, bilingual=bilingual)
    if session.room_code:
        link = links.join_link(request, session)
        context["join_link"] = link
        context["join_link_parts"] = links.join_link_parts(link)
        context["unreachable"] = links.unreachable_from_phones(link)
        context["qr"] = qr_svg(
            link,
            label=gettext("QR code of the join link for room %(code)s")
            % {"code": session.room_code},
        )
    return render(request, "classroom/session_lobby.html", context)


@login_required
@require_POST
def device_unbind(request: HttpRequest, pk: int, device_pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    binding = access.get_session_device(session, device_pk)
    services.device_unbind(binding=binding, by=request.user)
    messages.success(
        request,
        gettext("%(name)s's name is free: they can join again.") % {"name": binding.student.name},
    )
    # Freed from the tables dashboard (a phone lost mid-game): back there, not to the setup.
    if request.POST.get("next") == "tables":
        return redirect("games:teacher_tables", session.pk)
    return render_setup(request, session)


@login_required
@require_POST
def session_projector_language(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The lobby's choice of the projector's language (English, Spanish or both)."""
    session = access.get_session_for_teacher(request, pk)
    error = notice = ""
    try:
        session = services.session_set_projector_language(
            session=session, language=request.POST.get("projector_language", ""), by=request.user
        )
    except services.ServiceError as exc:
        error = str(exc)
    else:
        # Said in the projector's new language: the lobby is drawn in it from now on.
        with translation.override(projector_language(session) or translation.get_language()):
            notice = gettext("The projector now shows: %(language)s.") % {
                "language": session.get_projector_language_display()
            }
        if request.htmx:
            # Every word of the lobby changes: htmx reloads the whole page.
            messages.success(request, notice)
            return HttpResponseClientRefresh()

    def control() -> HttpResponse:
        """The control again with the refusal next to it (nothing changed)."""
        session.refresh_from_db(fields=["projector_language"])
        context = {
            "session": session,
            "projector_languages": ProjectorLanguage.choices,
            "projector_error": error,
        }
        return render(request, "classroom/session_lobby.html#projector_language", context)

    return htmx_or_redirect(
        request,
        control,
        reverse("classroom:session_lobby", args=[session.pk]),
        success=notice,
        error=error,
    )
