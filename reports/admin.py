from django.contrib import admin

from reports.models import Export


@admin.register(Export)
class ExportAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "status", "school", "requested_by", "created_at", "attempts")
    list_filter = ("status", "kind")
    search_fields = ("title",)
    raw_id_fields = ("requested_by", "school", "classroom", "parent")
    readonly_fields = ("parameters_hash", "created_at", "started_at", "finished_at", "updated_at")
