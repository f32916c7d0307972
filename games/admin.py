from django.contrib import admin

from games.models import Hand, HandAction, ScoreLine, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "name", "is_cpu", "cpu_level", "away_since")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "code", "variant", "kind", "status", "version", "created_at")
    list_filter = ("variant", "kind", "status")
    search_fields = ("code",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "user", "is_cpu", "cpu_level", "away_since")
    list_filter = ("is_cpu",)


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "starter", "seed_commitment", "started_at", "finished_at")
    readonly_fields = ("state",)


@admin.register(HandAction)
class HandActionAdmin(admin.ModelAdmin):
    list_display = ("hand", "index", "seat", "by_cpu", "created_at")


@admin.register(ScoreLine)
class ScoreLineAdmin(admin.ModelAdmin):
    list_display = ("hand", "seat", "points", "reason")
    list_filter = ("reason",)
