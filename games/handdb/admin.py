"""The exported months in the admin: read only (rows are written by
``manage.py build_hand_month`` alone)."""

from django.contrib import admin
from django.http import HttpRequest

from games.handdb.models import HandMonth


@admin.register(HandMonth)
class HandMonthAdmin(admin.ModelAdmin):
    list_display = ("month", "file_name", "size", "games", "hands", "built_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
