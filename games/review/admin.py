from django.contrib import admin

from .models import HandAnalysis, HandCommentary, HandPar, ImportedRecord, ShareLink


@admin.register(HandCommentary)
class HandCommentaryAdmin(admin.ModelAdmin):
    list_display = ("hand", "seat", "created")
    raw_id_fields = ("hand",)


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ("table", "token", "created_by", "created", "revoked_at")
    list_filter = ("revoked_at",)
    raw_id_fields = ("table", "created_by")
    search_fields = ("token",)


@admin.register(ImportedRecord)
class ImportedRecordAdmin(admin.ModelAdmin):
    list_display = ("__str__", "variant", "owner", "created")
    list_filter = ("variant",)
    raw_id_fields = ("owner",)


@admin.register(HandAnalysis)
class HandAnalysisAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "done", "total", "updated")
    list_filter = ("status",)
    raw_id_fields = ("hand", "imported")


@admin.register(HandPar)
class HandParAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "par", "result", "versus", "cpu_seconds", "updated")
    list_filter = ("status",)
    raw_id_fields = ("hand",)
