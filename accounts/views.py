from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import SignupForm
from accounts.models import Profile
from accounts.services import profile_language_set, user_signup
from core.http import AuthenticatedRequest, safe_next

SUPPORTED_LANGUAGES = {code for code, _name in settings.LANGUAGES}


def _remember_language(response: HttpResponseBase, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("campaigns:list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_signup(form=form, language=translation.get_language() or settings.LANGUAGE_CODE)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request.GET.get("next", ""), request) or "campaigns:list")
    # The page's « Log in » link keeps where the person was going (an invitation link, most often).
    return render(
        request, "accounts/signup.html", {"form": form, "next": safe_next(request.GET.get("next", ""), request)}
    )


def locked_out(request: HttpRequest, response: HttpResponse | None = None, credentials: object = None) -> HttpResponse:
    """django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``), for the site's login and the admin's: the
    login page again, saying why and for how long, with 429 Too Many Requests."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = ngettext(
        "Too many failed login attempts for this account or from this connection. "
        "Logging in is blocked for %(minutes)s minute; try again later.",
        "Too many failed login attempts for this account or from this connection. "
        "Logging in is blocked for %(minutes)s minutes; try again later.",
        minutes,
    ) % {"minutes": minutes}
    return render(request, "registration/locked_out.html", {"message": message}, status=429)


class LoginView(auth_views.LoginView):
    """Logging in brings back the language the person chose last time."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        profile = Profile.objects.filter(user=form.get_user()).first()
        if profile is not None:
            _remember_language(response, profile.language)
        return response


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    language = request.POST.get("language", "")
    response = HttpResponseRedirect(safe_next(request.POST.get("next", "/"), request) or "/")
    if language in SUPPORTED_LANGUAGES:
        if request.user.is_authenticated:
            profile_language_set(user=request.user, language=language)
        _remember_language(response, language)
    return response


@login_required
def profile(request: AuthenticatedRequest) -> HttpResponse:
    return render(request, "accounts/profile.html")
