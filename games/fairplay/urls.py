from django.urls import path

from . import views

app_name = "fairplay"

urlpatterns = [
    path("staff/fair-play/", views.page, name="page"),
    path("staff/fair-play/mark/", views.mark, name="mark"),
]
