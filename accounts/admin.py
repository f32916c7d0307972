from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "assisted_default", "public_records")
    list_filter = ("language", "assisted_default", "public_records")
    search_fields = ("user__username", "display_name")
    raw_id_fields = ("user",)
