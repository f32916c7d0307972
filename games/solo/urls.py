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
    # any table's score sheet as CSV (the sheet page, games/views.py, links to it)
    path("t/<str:code>/sheet.csv", views.sheet_csv, name="sheet_csv"),
]
