from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "assisted_default", "public_records")
    list_filter = ("language", "assisted_default", "public_records")
    search_fields = ("user__username", "display_name")
    raw_id_fields = ("user",)
    # marked and unmarked on the fair-play page only, which logs it and rebuilds ratings
    readonly_fields = ("fair_play_marked", "fair_play_marked_at")


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    extra = 0
    readonly_fields = ("fair_play_marked", "fair_play_marked_at")


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class UserWithProfileAdmin(UserAdmin):
    inlines = [ProfileInline]
