from django.urls import path

from games.live import staging

from . import views

app_name = "games"

urlpatterns = [
    path("tables/new/", views.create_table, name="create"),
    path("tables/play/", views.play_now, name="play"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/fill/", views.fill, name="fill"),
    path("t/<str:code>/back/", views.come_back, name="back"),
    path("t/<str:code>/sheet/", views.score_sheet, name="sheet"),
    path("t/<str:code>/staging/", staging.staging_total, name="staging"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:slug>", views.rules, name="rules_page"),
]
