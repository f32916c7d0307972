from django.urls import path

from games.live import staging
from games.solo import views as solo_views

from . import views

app_name = "games"

urlpatterns = [
    path("tables/new/", views.create_table, name="create"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/fill/", views.fill, name="fill"),
    path("t/<str:code>/back/", views.come_back, name="back"),
    path("t/<str:code>/sheet/", views.score_sheet, name="sheet"),
    path("t/<str:code>/staging/", staging.staging_total, name="staging"),
    path("t/<str:code>/sheet.csv", solo_views.sheet_csv, name="sheet_csv"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:slug>", views.rules, name="rules_page"),
]
