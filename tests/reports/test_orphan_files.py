"""A deleted class takes its export rows with it; the sweep removes the files they left."""

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command

from classroom import services as classroom_services
from reports.files import storage_name
from reports.models import Export, ExportKind, ExportStatus
from reports.services import parameters_hash


def _ready_export(classroom, by) -> Export:
    params = {"classroom": classroom.pk}
    export = Export.objects.create(
        kind=ExportKind.CLASS,
        parameters=params,
        parameters_hash=parameters_hash(ExportKind.CLASS, params),
        requested_by=by,
        school=classroom.school,
        classroom=classroom,
        title=f"{classroom.name}: class progress",
        status=ExportStatus.READY,
    )
    export.file.name = default_storage.save(storage_name(export), ContentFile(b"%PDF-1.7 test"))
    export.save(update_fields=["file"])
    return export


def test_sweep_removes_files_of_a_deleted_class_and_keeps_the_rest(
    classroom, teacher, other_teacher, other_school, capsys
):
    from classroom.models import Classroom

    kept_class = Classroom.objects.create(school=other_school, teacher=other_teacher, name="Kept")
    gone = _ready_export(classroom, teacher)
    kept = _ready_export(kept_class, other_teacher)
    gone_name, kept_name = gone.file.name, kept.file.name
    assert default_storage.exists(gone_name)

    classroom_services.class_delete(classroom=classroom, by=teacher)
    assert not Export.objects.filter(pk=gone.pk).exists()
    assert default_storage.exists(gone_name)  # the row is gone, the file is not (yet)

    call_command("sweep_exports")

    assert not default_storage.exists(gone_name)
    assert default_storage.exists(kept_name)
    assert "Removed 1 file of deleted exports." in capsys.readouterr().out
