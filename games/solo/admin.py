from django.contrib import admin

from games.solo.models import SoloResult


@admin.register(SoloResult)
class SoloResultAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "user",
        "variant",
        "level",
        "mode",
        "verified",
        "hints",
        "total",
        "rounds",
        "won",
        "finished_at",
    )
    list_filter = ("variant", "level", "mode", "verified", "won")
    search_fields = ("user__username", "table__code")
    raw_id_fields = ("user", "table")
    date_hierarchy = "finished_at"
