from django.contrib import admin

from .models import Club, Membership, NameLink, Season, SeasonTournament


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user", "added_by")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_by", "created_at")
    search_fields = ("name", "slug")
    inlines = [MembershipInline]


class SeasonTournamentInline(admin.TabularInline):
    model = SeasonTournament
    extra = 0
    raw_id_fields = ("tournament", "added_by")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "start", "end")
    inlines = [SeasonTournamentInline]


@admin.register(NameLink)
class NameLinkAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "user")
    raw_id_fields = ("user", "added_by")
