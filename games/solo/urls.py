from django.urls import path

from games.solo import views

app_name = "solo"

urlpatterns = [
    path("solo/", views.solo_home, name="home"),
    path("solo/start/", views.start, name="start"),
    path("solo/abandon/<str:code>/", views.abandon, name="abandon"),
    path("solo/result/<str:code>/", views.result, name="result"),
    path("solo/board/", views.board, name="board"),
    path("verify/", views.verify, name="verify"),
]
