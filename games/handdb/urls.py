from django.urls import path

from . import views

app_name = "handdb"

urlpatterns = [
    path("hands/", views.downloads, name="downloads"),
    path("hands/schema/", views.schema, name="schema"),
    path("hands/<str:month>/download/", views.download, name="download"),
]
