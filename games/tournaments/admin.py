from django.contrib import admin

from .models import AuditEntry, Entry, Round, TableResult, Tournament, TournamentTable


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "variant", "mode", "status", "published", "owner")
    list_filter = ("variant", "mode", "status", "published")
    search_fields = ("name",)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "user", "joins_round", "dropped_from_round")
    search_fields = ("name",)


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "tournament", "actor", "action", "what")
    list_filter = ("action",)
    readonly_fields = ("tournament", "actor", "at", "action", "what", "before", "after")

    def has_change_permission(self, request, obj=None) -> bool:  # the log is append-only
        return False


admin.site.register(Round)
admin.site.register(TournamentTable)
admin.site.register(TableResult)
