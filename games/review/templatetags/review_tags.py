from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

ENDINGS = {
    "close": _("closed"),
    "okey_close": _("closed with an okey"),
    "pairs_close": _("closed with pairs"),
    "pairs_okey_close": _("closed with pairs and an okey"),
    "exhausted": _("the pile ran out"),
    "target": _("target reached"),
    "hand": _("finished"),
    "pairs": _("finished with pairs"),
    "okey": _("finished with an okey"),
    "finish": _("finished"),
    "direct": _("direct finish"),
    "direct_okey": _("direct finish with an okey"),
}


@register.filter
def ending_label(code) -> str:
    """A hand's ending code (engine) in the reader's language."""
    text = ENDINGS.get(str(code))
    return str(text) if text is not None else str(code or "").replace("_", " ")
