"""The teach-back in Spanish: a Spanish device gets the frame "Mi robot percibe con __, piensa
con __, actúa con __, funciona con __, porque __" with the same five fields, prefilled with the
Spanish part names; the sentence keeps its language and is assessed with the same rubric; the
teacher sees it in its own frame, with hints found in Spanish; the built-in rubric is translated
and a class may give its criteria their Spanish wording."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Assessment, SentenceLanguage, TeachBack
from games.teachback import services
from games.teachback.rubrics import rubric_for_class, rubric_update
from games.teachback.screens import sentence_hints
from tests.games.conftest import GOOD_SENTENCE, finished_with_sample_bench

HX = {"HTTP_HX_REQUEST": "true"}
SPANISH_SENTENCE = {
    "senses_with": "Cámara",
    "thinks_with": "Placa Si/Entonces",
    "acts_with": "Ruedas motrices",
    "powered_by": "Panel solar",
    "because": "encuentra a personas atrapadas después de una tormenta",
}


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    translation.deactivate()


@pytest.fixture
def finished(open_session, students):
    return finished_with_sample_bench(open_session, students, teams=2)


@pytest.fixture
def spanish_device(finished, device_client, open_session):
    device = device_client(open_session, finished.members[0])
    device.cookies["django_language"] = "es"
    return device


def form_url(session):
    return reverse("games:teachback", args=[session.pk])


def test_the_spanish_form_is_the_spanish_frame_prefilled_with_spanish_part_names(
    spanish_device, open_session
):
    html = spanish_device.get(form_url(open_session)).content.decode()
    assert "Mi robot" in html
    for label in ("percibe con", "piensa con", "actúa con", "funciona con", "porque"):
        assert f">{label}</label>" in html
    for name in ("senses_with", "thinks_with", "acts_with", "powered_by", "because"):
        assert f'name="{name}"' in html
    assert 'value="Cámara"' in html and 'value="Ruedas motrices"' in html
    assert 'placeholder="la pieza que agregarías"' in html
    assert "Rover de rescate" in html
    assert "Encuentra a personas atrapadas" in html


def test_a_spanish_sentence_is_stored_in_its_language_and_assessed_with_the_same_rubric(
    spanish_device, open_session, finished, teacher, teacher_client
):
    response = spanish_device.post(form_url(open_session), SPANISH_SENTENCE, **HX)
    assert "¡Enviada!" in response.content.decode()
    sent = TeachBack.objects.get()
    assert sent.language == SentenceLanguage.SPANISH
    assert sent.senses_with == "Cámara" and sent.because == SPANISH_SENTENCE["because"]
    rubric = rubric_for_class(open_session.classroom)
    keys = [c.key for c in rubric.criteria.order_by("position")]
    assert keys == ["complete", "right_jobs", "mission_link", "said_clearly"]
    services.assessment_save(
        teachback=sent,
        scores={"complete": 3, "right_jobs": 3, "mission_link": 2, "said_clearly": None},
        comment="¡Muy bien!",
        by=teacher,
    )
    assessment = Assessment.objects.get(teachback=sent)
    assert assessment.rubric == rubric
    assert sorted(s.score for s in assessment.scores.all() if s.score is not None) == [2, 3, 3]
    # The English teacher reads the sentence in its own (Spanish) frame.
    html = teacher_client.get(reverse("games:assessments", args=[open_session.pk])).content
    html = html.decode()
    assert '<span lang="es"><span class="tb-words">Mi robot percibe con</span>' in html
    assert '<span class="tb-words">funciona con</span> <span class="tb-fill tb-fill-power">' in html
    assert "Teach-back sentences" in html and "Complete" in html


def test_an_empty_spanish_blank_is_refused_in_spanish(spanish_device, open_session):
    response = spanish_device.post(
        form_url(open_session), {**SPANISH_SENTENCE, "because": ""}, **HX
    )
    assert "Completa el espacio después de “porque”." in response.content.decode()
    assert not TeachBack.objects.exists()


def test_hints_look_for_spanish_card_names_and_speak_the_teachers_language(
    open_session, finished, device_client
):
    binding = device_client(open_session, finished.members[0]).binding
    fields = {**SPANISH_SENTENCE, "senses_with": "Ruedas motrices", "because": "azul"}
    sent = services.teachback_submit(
        team=finished.teams[0], fields=fields, by_device=binding, language="es"
    )
    codes = {(h.field, h.code) for h in sentence_hints(sent)}
    assert ("senses_with", "other_category") in codes
    assert ("because", "one_word") in codes
    with translation.override("es"):
        messages = [h.message for h in sentence_hints(sent)]
    wanted = "Ruedas motrices es una pieza de Actuar, no una pieza de Percibir"
    assert any(wanted in message for message in messages)
    # A Spanish "because" that gives a reason is no hint.
    reasoned = {**SPANISH_SENTENCE, "because": "rescata personas para ayudar"}
    sent = services.teachback_submit(
        team=finished.teams[0], fields=reasoned, by_device=binding, language="es"
    )
    assert not [h for h in sentence_hints(sent) if h.field == "because"]


def test_an_english_sentence_keeps_the_english_frame(open_session, finished, device_client):
    binding = device_client(open_session, finished.members[0]).binding
    sent = services.teachback_submit(
        team=finished.teams[0], fields=GOOD_SENTENCE, by_device=binding
    )
    assert sent.language == SentenceLanguage.ENGLISH
    assert not sentence_hints(sent)


def test_the_built_in_rubric_is_translated_and_a_class_may_word_its_criteria_in_spanish(
    open_session, teacher, teacher_client
):
    classroom = open_session.classroom
    rubric = rubric_for_class(classroom)
    complete = rubric.criteria.get(key="complete")
    with translation.override("es"):
        assert complete.shown_title == "Completa"
        assert complete.shown_description.startswith("Los cinco espacios")
    with translation.override("en"):
        assert complete.shown_title == "Complete"
    rows = [
        {
            "key": c.key,
            "title": c.title,
            "description": c.description,
            "max_score": c.max_score,
            "optional": c.optional,
        }
        for c in rubric.criteria.order_by("position")
    ]
    rows[0]["title_es"] = "Oración completa"
    rows[0]["description_es"] = "Nada quedó vacío."
    saved = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    complete = saved.criteria.get(key="complete")
    with translation.override("es"):
        assert (complete.shown_title, complete.shown_description) == (
            "Oración completa",
            "Nada quedó vacío.",
        )
        assert saved.criteria.get(key="right_jobs").shown_title == "Funciones correctas"
    with translation.override("en"):
        assert complete.shown_title == "Complete"
    teacher_client.cookies["django_language"] = "es"
    html = teacher_client.get(reverse("games:rubric_edit", args=[classroom.pk])).content.decode()
    assert "Rúbrica de “Explica tu bot”" in html
    assert 'value="Oración completa"' in html
    assert "Título en español" in html
