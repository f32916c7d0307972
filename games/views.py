from django.shortcuts import render


def home(request):
    """The lobby (a placeholder until the tables exist)."""
    return render(request, "games/home.html")
