"""Ratings in the admin: read only (rows are written by games.ratings.api alone; repair
them with ``manage.py rebuild_ratings``)."""

from django.contrib import admin
from django.http import HttpRequest

from games.ratings.models import Rating, RatingChange


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "variant", "mu", "sigma", "games", "updated_at")
    list_filter = ("variant",)
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("user", "table", "variant", "place", "mu_before", "mu_after", "created_at")
    list_filter = ("variant",)
    search_fields = ("user__username", "table__code")
    raw_id_fields = ("user", "table")
