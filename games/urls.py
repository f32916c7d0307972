from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("tables/new/", views.create_table, name="create"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/sheet/", views.score_sheet, name="sheet"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:slug>", views.rules, name="rules_page"),
]
