from django.urls import path

from . import views

app_name = "matchmaking"

urlpatterns = [
    path("play/", views.play_now, name="play"),
    path("t/<str:code>/waiting/", views.waiting_card, name="waiting"),
    path("t/<str:code>/quick-fill/", views.fill, name="fill"),
    path("t/<str:code>/leave/", views.leave, name="leave"),
]
