import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from . import actions, throttle
from .forms import ProfileForm, ResetRequestForm, SignUpForm, ThrottledAuthenticationForm
from .models import LANGUAGE_CHOICES

_LANGUAGE_CODES = {code for code, _name in LANGUAGE_CHOICES}
logger = logging.getLogger(__name__)

SIGNUP_THROTTLED = gettext_lazy(
    "Too many accounts were created from your network recently. Please try again later."
)
RESET_THROTTLED = gettext_lazy(
    "Too many password reset requests from your network. Please try again later."
)


def apply_language(request, response, language: str):
    """Switch this request to ``language`` and remember it in the language cookie."""
    if language not in _LANGUAGE_CODES:
        return response
    translation.activate(language)
    request.LANGUAGE_CODE = language
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


def _safe_next(request, default: str = "home") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if throttle.signup_blocked(request):
            # Refused before anything is checked or stored (see accounts/throttle.py).
            form.is_valid()
            form.add_error(None, SIGNUP_THROTTLED)
            context = {"form": form, "next": _safe_next(request, "")}
            return render(request, "accounts/signup.html", context, status=429)
        if form.is_valid():
            current = translation.get_language() or settings.LANGUAGE_CODE
            language = current if current in _LANGUAGE_CODES else "en"
            profile = actions.do_sign_up(form, language)
            throttle.record_signup(request)
            login(request, profile.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s!") % {"name": profile.name})
            return apply_language(request, redirect(_safe_next(request)), profile.language)
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request, "")})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        profile = actions.do_ensure_profile(form.get_user())
        return apply_language(self.request, response, profile.language)

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "too_many_attempts"):
            response.status_code = 429
        return response


class LogoutView(auth_views.LogoutView):
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's view (signed-in only; keeps this session signed in after the change)."""

    template_name = "accounts/password_change_form.html"
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class AfterResponse(HttpResponseRedirect):
    """A redirect that runs ``work`` once it has been sent: the server (daphne's ASGI
    handler, a WSGI server, the test client) closes a response after its last byte."""

    def __init__(self, url: str, work) -> None:
        super().__init__(url)
        self._work = work

    def close(self) -> None:
        work, self._work = self._work, None
        try:
            if work is not None:
                work()
        except Exception:  # noqa: BLE001 - the answer is sent; a failed mail is logged
            logger.exception("the work after a response failed")
        finally:
            super().close()


class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a reset link by email.

    Whether or not the address belongs to an account, the answer is the same page (the
    "done" page), and each request counts towards the per-IP limit (accounts/throttle.py).
    The request does the same work either way: it checks the form and the limit and
    answers; looking the address up, making the link's token, writing and sending the
    mail all happen after the answer has been sent (``AfterResponse``), so how long the
    answer takes says nothing about the address (docs/security.md "Password reset").
    """

    template_name = "accounts/password_reset_form.html"
    form_class = ResetRequestForm
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        if throttle.reset_blocked(self.request):
            form.add_error(None, RESET_THROTTLED)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        throttle.record_reset(self.request)
        opts = {
            "use_https": self.request.is_secure(),
            "token_generator": self.token_generator,
            "from_email": self.from_email,
            "email_template_name": self.email_template_name,
            "subject_template_name": self.subject_template_name,
            "request": self.request,
            "html_email_template_name": self.html_email_template_name,
            "extra_email_context": self.extra_email_context,
        }
        language = translation.get_language()

        def send() -> None:
            with translation.override(language):
                form.save(**opts)

        return AfterResponse(str(self.get_success_url()), send)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form):
        # Whoever locked themselves out with the old password may log in with the new one
        # at once (from this IP; the per-IP count across usernames stays).
        throttle.reset(self.request, form.user.get_username())
        return super().form_valid(form)


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    profile_obj = actions.do_ensure_profile(request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST, instance=profile_obj, request=request)
        if form.is_valid():
            profile_obj = actions.do_save_profile(form)
            response = redirect("accounts:profile")
            apply_language(request, response, profile_obj.language)
            messages.success(request, _("Your profile has been saved."))
            return response
    else:
        form = ProfileForm(instance=profile_obj, request=request)
    from games.clubs.views import invitations_for
    from games.ratings.views import player_ratings

    ctx = {
        "form": form,
        "profile": profile_obj,
        "invitations": invitations_for(request.user),
        **player_ratings(request.user, own=True),
    }
    return render(request, "accounts/profile.html", ctx)


def set_language(request):
    """Django's language switch, and for a signed-in player their profile's
    language too (the profile wins at the next log-in, so it must follow)."""
    from django.views.i18n import set_language as django_set_language

    response = django_set_language(request)
    language = request.POST.get("language", "")
    if (
        request.method == "POST"
        and request.user.is_authenticated
        and language in dict(LANGUAGE_CHOICES)
    ):
        actions.do_set_language(request.user, language)
    return response
