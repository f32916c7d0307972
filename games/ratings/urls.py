from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.index, name="index"),
    path("ratings/<str:variant>/", views.board, name="board"),
    path("players/<str:username>/", views.player, name="player"),
]
