"""Deleting a class removes everything about its students, assessed teach-backs included: the
rubric's protected links must not block it."""

from classroom import services
from classroom.models import Classroom, DeviceBinding, Student, Team
from games.models import Assessment, CriterionScore, Move, Rubric, TableGame, TeachBack
from games.teachback.rubrics import rubric_for_class
from games.teachback.services import assessment_save, teachback_submit
from tests.games.conftest import make_table


def test_deleting_a_class_with_assessed_teachbacks_removes_all_of_it(
    open_session, students, teacher, device_client
):
    finished = make_table(open_session, students, teams=2)
    rubric = rubric_for_class(open_session.classroom)
    for team, member in zip(finished.teams, finished.members, strict=True):
        client = device_client(open_session, member)
        teachback = teachback_submit(
            team=team,
            fields={
                "senses_with": "a camera",
                "thinks_with": "a chip",
                "acts_with": "wheels",
                "powered_by": "a battery",
                "because": "so it can rescue people after a storm",
            },
            by_device=client.binding,
        )
        scores = {c.key: (None if c.optional else 2) for c in rubric.criteria.all()}
        assessment_save(teachback=teachback, scores=scores, comment="Good", by=teacher)
    assert CriterionScore.objects.exists()

    services.class_delete(classroom=open_session.classroom, by=teacher)

    assert not Classroom.objects.filter(pk=open_session.classroom_id).exists()
    for model in (Student, Team, DeviceBinding, TableGame, Move, TeachBack, Assessment, Rubric):
        assert not model.objects.exists(), model.__name__
    assert not CriterionScore.objects.exists()
