from django import template

from games.solo.views import start_form_context

register = template.Library()


@register.inclusion_tag("solo/_start_form.html", takes_context=True)
def solo_start_form(context):
    """The one-click solo start (home page): CPU level and rule set, remembered."""
    request = context["request"]
    return {
        **start_form_context(request),
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }
