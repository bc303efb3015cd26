from django.urls import path

from reports.views import exports, insights, pages, retention, standards

app_name = "reports"

urlpatterns = [
    path("", pages.index, name="index"),
    path("sessions/<int:pk>/", pages.session_report, name="session"),
    path("sessions/<int:pk>/insights/", insights.session_insights, name="session_insights"),
    path(
        "sessions/<int:pk>/insights.<slug:fmt>",
        insights.session_insights_export,
        name="session_insights_export",
    ),
    path("sessions/<int:pk>/<slug:table>.csv", pages.session_csv, name="session_csv"),
    path("classes/<int:pk>/", pages.class_progress, name="class_progress"),
    path("classes/<int:pk>/insights/", insights.class_insights, name="class_insights"),
    path(
        "classes/<int:pk>/insights/sentences/",
        insights.class_insights_sentences,
        name="class_insights_sentences",
    ),
    path(
        "classes/<int:pk>/insights.<slug:fmt>",
        insights.class_insights_export,
        name="class_insights_export",
    ),
    path("classes/<int:pk>/standards/", standards.class_standards, name="class_standards"),
    path("classes/<int:pk>/<slug:table>.csv", pages.class_csv, name="class_csv"),
    path("students/<int:pk>/", pages.student_progress, name="student_progress"),
    path("students/<int:pk>/<slug:table>.csv", pages.student_csv, name="student_csv"),
    path("school/", pages.school_overview, name="school_overview"),
    path("school/<slug:table>.csv", pages.school_csv, name="school_csv"),
    path("school/retention/", retention.retention, name="retention"),
    path("school/standards/", standards.standards, name="standards"),
    path("exports/", exports.exports, name="exports"),
    path("exports/new/", exports.export_create, name="export_create"),
    path("exports/<int:pk>/", exports.export_status, name="export_status"),
    path("exports/<int:pk>/download/", exports.export_download, name="export_download"),
    path("exports/<int:pk>/retry/", exports.export_retry, name="export_retry"),
    path("exports/<int:pk>/delete-file/", exports.export_delete_file, name="export_delete_file"),
]
