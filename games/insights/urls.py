from django.urls import path

from . import views

app_name = "insights"

urlpatterns = [
    path("players/<str:username>/insights/", views.index, name="index"),
    path("players/<str:username>/insights/<str:variant>/", views.player, name="player"),
]
