"""Fair-play rows in the admin: read only (written by the scan and by marks; a mark is
made on the staff page, /staff/fair-play/, so that it is logged and ratings rebuilt)."""

from django.contrib import admin
from django.http import HttpRequest

from .models import GameCheck, HandCheck, LogEntry, PlayerStats


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnly):
    list_display = ("user", "variant", "hands", "decisions", "matches", "loss", "updated_at")
    list_filter = ("variant",)
    search_fields = ("user__username",)
    exclude = ("recent",)


@admin.register(HandCheck)
class HandCheckAdmin(ReadOnly):
    list_display = ("hand", "seat", "user", "variant", "status", "decisions", "matches", "fed")
    list_filter = ("variant", "status", "fed")
    search_fields = ("user__username",)
    raw_id_fields = ("hand", "user", "feeder")


@admin.register(GameCheck)
class GameCheckAdmin(ReadOnly):
    list_display = ("table", "variant", "players", "finished_at")
    list_filter = ("variant",)
    raw_id_fields = ("table",)


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnly):
    list_display = ("at", "action", "actor", "target", "reason")
    list_filter = ("action",)
    search_fields = ("target__username", "actor__username", "reason")
    raw_id_fields = ("actor", "target")

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
