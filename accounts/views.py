"""Pages of the accounts app. Views stay thin: they check access, call a service, render.

Signing in, out and the password pages are Django's own views, configured in ``urls.py``; signing
in is extended only to hand the guest's games over to the account.
"""

from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import LoginView, PasswordResetConfirmView
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts import selectors, services
from accounts.forms import (
    AccountDeleteForm,
    LooksForm,
    SettingsForm,
    SignInForm,
    SignUpForm,
    board_settings_changes,
)
from accounts.history import profile_charts
from accounts.looks import FIELDS as LOOKS_FIELDS
from accounts.looks import looks_of

# Signing up logs the new player in directly, past the throttling backend that guards passwords.
SIGN_UP_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _see_other(url_name: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse(url_name), status=303)


@require_http_methods(["GET", "HEAD", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    """Open an account and sign in with it (the guest's games follow: ``game.signals``)."""
    if request.user.is_authenticated:
        return _see_other("accounts:profile")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            user = services.account_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except IntegrityError:
            form.add_error("username", _("Someone took this username a moment ago. Try another."))
        else:
            welcome = _("Welcome, %(username)s!") % {"username": user.get_username()}
            messages.success(request, welcome)
            # A new session key, keeping the session's data (the guest key with it).
            login(request, user, backend=SIGN_UP_BACKEND)
            return _see_other("accounts:profile")
    return render(request, "accounts/signup.html", {"form": form})


class SignInView(LoginView):
    """Django's sign-in page (a guest's games follow them in: ``game.signals``)."""

    template_name = "accounts/login.html"
    form_class = SignInForm
    redirect_authenticated_user = True


class PasswordResetSetView(PasswordResetConfirmView):
    """Django's new-password page of a reset; it also lifts a sign-in lock-out on the account."""

    template_name = "accounts/password_reset_confirm.html"

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        services.sign_in_failures_clear(username=form.user.get_username())
        return response


@login_required
@require_safe
def profile(request: HttpRequest) -> HttpResponse:
    """The player's own record, recent games and games in play."""
    user = request.user
    assert user.is_authenticated
    return render(
        request,
        "accounts/profile.html",
        {
            "player": user,
            "statistics": selectors.player_statistics(user),
            "charts": profile_charts(user),
            "recent_games": selectors.recent_games(user),
            "own_profile": True,
        },
    )


@require_safe
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's public record and their latest finished games (the replays are public)."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    statistics = selectors.player_statistics(player)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "statistics": statistics,
            "charts": profile_charts(player),
            "preview": selectors.profile_preview(player, statistics),
            "recent_games": selectors.recent_games(player, finished_only=True),
            "own_profile": False,  # as everyone sees it, the player included
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
def looks(request: HttpRequest) -> HttpResponse:
    """A guest chooses how the site looks, kept in their session; a signed-in player does so in
    their settings."""
    if request.user.is_authenticated:
        return HttpResponseRedirect(reverse("accounts:settings") + "#looks")
    form = LooksForm(request.POST if request.method == "POST" else None, initial=looks_of(request))
    if form.is_valid():
        services.guest_looks_save(request.session, form.cleaned_data)
        messages.success(request, _("Saved in this browser."))
        return _see_other("accounts:looks")
    return render(request, "accounts/looks.html", {"form": form})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_settings(request: HttpRequest) -> HttpResponse:
    """The board settings the player keeps with their account."""
    user = request.user
    assert user.is_authenticated
    form = SettingsForm(
        request.POST if request.method == "POST" else None,
        instance=selectors.player_settings(user),
    )
    if form.is_valid():
        services.settings_update(user=user, **form.cleaned_data)
        messages.success(request, _("Your settings are saved."))
        return _see_other("accounts:settings")
    looks_fields = [form[name] for name in LOOKS_FIELDS]
    return render(request, "accounts/settings.html", {"form": form, "looks_fields": looks_fields})


@require_POST
def board_settings(request: HttpRequest) -> HttpResponse:
    """Change board settings from the board's own panel: a JSON object of booleans, answered 204.

    The CSRF token comes in the ``X-CSRFToken`` header. A guest gets ``403`` (their settings stay
    in their browser); anything but known settings with ``true`` or ``false`` gets ``400``, and
    changes nothing.
    """
    user = request.user
    if not user.is_authenticated:
        return JsonResponse(
            {"error": "login_required", "message": "Sign in to keep settings with an account"},
            status=403,
        )
    try:
        changes = board_settings_changes(request.body)
    except ValueError as error:
        return JsonResponse({"error": "bad_request", "message": str(error)}, status=400)
    services.board_setting_update(user=user, changes=changes)
    return HttpResponse(status=204)


@login_required
@require_safe
def data(request: HttpRequest) -> HttpResponse:
    """What the site keeps about the player, how to download it, and how to delete it."""
    user = request.user
    assert user.is_authenticated
    return render(
        request,
        "accounts/data.html",
        {
            "games_finished": selectors.finished_games(user).count(),
            "games_in_progress": selectors.games_in_progress(user),
        },
    )


@login_required
@require_safe
def export(request: HttpRequest) -> HttpResponse:
    """Download every finished game, with its deal and move log, as one JSON file."""
    user = request.user
    assert user.is_authenticated
    now = timezone.now()
    response = JsonResponse(
        selectors.account_export(user, now=now), json_dumps_params={"indent": 2}
    )
    filename = f"tripeaks-export-{now:%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest) -> HttpResponse:
    """Delete the account and everything about it, once the player confirms their password."""
    user = request.user
    assert user.is_authenticated
    form = AccountDeleteForm(request.POST if request.method == "POST" else None, user=user)
    if form.is_valid():
        services.account_delete(user=user)
        logout(request)
        messages.success(request, _("Your account and your games are deleted. Goodbye!"))
        return _see_other("game:home")
    return render(request, "accounts/delete.html", {"form": form})
