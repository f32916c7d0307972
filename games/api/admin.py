"""Staff see tokens (never a secret: only its prefix and digest exist) and may revoke one
by setting ``revoked_at``."""

from django.contrib import admin

from games.api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__username")
    readonly_fields = ("user", "name", "prefix", "digest", "scopes", "created_at", "last_used_at")

    def has_add_permission(self, request) -> bool:  # noqa: ANN001
        return False  # a token is made by its owner, on the profile page
