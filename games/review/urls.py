from django.urls import path

from . import views

app_name = "review"

urlpatterns: list = []
