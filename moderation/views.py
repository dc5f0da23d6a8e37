"""Pages of moderation: the staff's queue, log, player and game pages (with the replay viewer that
shows every card), their action forms, and the players' report form.

Every staff page is for moderators only (staff with ``moderation.moderate``): anyone else is sent
to the admin's sign-in page, or refused with 403 when signed in as staff without the permission.
Staff pages show hidden cards, so none may be kept by a browser or a proxy.
"""

import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.formats import page_number
from game.models import Game
from moderation import selectors, services
from moderation.forms import FlagCloseForm, ReasonForm, ReportForm
from moderation.models import Action, Flag, FlagKind, FlagStatus, LogEntry

View = Callable[..., HttpResponse]


def moderator_required(view: View) -> View:
    """Let moderators in; send everyone else to the admin's sign-in, or refuse signed-in staff
    who lack the permission. Every answer is marked ``private, no-store``."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not (user.is_authenticated and user.is_active and user.is_staff):
            response: HttpResponse = redirect_to_login(
                request.get_full_path(), reverse("admin:login")
            )
        elif not selectors.can_moderate(user):
            response = render(request, "moderation/forbidden.html", status=403)
        else:
            response = view(request, *args, **kwargs)
        patch_cache_control(response, private=True, no_store=True)
        return response

    return guarded


def _back(request: HttpRequest, default: str) -> HttpResponseRedirect:
    """303 to the page the form came from (the ``next`` field), when it is on this site."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = default
    return HttpResponseRedirect(target, status=303)


def _signed_in(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in user behind a request the decorators have let through."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    return user


def _filters_query(request: HttpRequest, *names: str) -> str:
    """The page's filters as a query string to put before ``page=`` in the pager's links."""
    kept = {name: request.GET[name] for name in names if request.GET.get(name)}
    return urlencode(kept) + "&" if kept else ""


def _refused(request: HttpRequest, message: str, back: str, status: int = 400) -> HttpResponse:
    return render(
        request, "moderation/refused.html", {"message": message, "back": back}, status=status
    )


# ---- Staff pages ---------------------------------------------------------------------------------


@require_safe
@moderator_required
def queue(request: HttpRequest) -> HttpResponse:
    """Flags and reports to look at, open ones first; filtered by kind and state."""
    kind = request.GET.get("kind") or None
    status = request.GET.get("status") or None
    flags = selectors.queue(kind=kind, status=status)
    page = Paginator(flags, selectors.PAGE_SIZE).get_page(page_number(request.GET.get("page")))
    return render(
        request,
        "moderation/queue.html",
        {
            "page": page,
            "kind": kind,
            "status": status,
            "kinds": FlagKind.choices,
            "statuses": FlagStatus.choices,
            "open_count": selectors.open_flag_count(),
            "query": _filters_query(request, "kind", "status"),
        },
    )


@require_safe
@moderator_required
def log(request: HttpRequest) -> HttpResponse:
    """The moderation log: every action, newest first."""
    action = request.GET.get("action") or None
    entries = selectors.log_entries(action=action)
    page = Paginator(entries, selectors.PAGE_SIZE).get_page(page_number(request.GET.get("page")))
    return render(
        request,
        "moderation/log.html",
        {
            "page": page,
            "action": action,
            "actions": Action.choices,
            "query": _filters_query(request, "action"),
        },
    )


@require_safe
@moderator_required
def game(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A game for staff: step through it with every card shown, whatever its state (in play,
    a daily before its day is over, a race); its flags, reports and log; the actions on it."""
    found = get_object_or_404(Game.objects.select_related("owner"), id=game_id)
    return render(
        request,
        "moderation/game.html",
        selectors.staff_game(found),
    )


@require_safe
@moderator_required
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player for staff: their numbers and games, flags on them, reports they made, actions."""
    get_object_or_404(get_user_model(), pk=user_id)
    return render(
        request,
        "moderation/player.html",
        selectors.staff_player(user_id),
    )


# ---- Staff actions -------------------------------------------------------------------------------

_GAME_ACTIONS: dict[str, Callable[..., LogEntry]] = {
    "hide": services.game_hide,
    "restore": services.game_restore,
    "verify": services.game_verify,
}
_PLAYER_ACTIONS: dict[str, Callable[..., LogEntry]] = {
    "ban": services.player_ban,
    "unban": services.player_unban,
}


@require_POST
@moderator_required
def game_action(request: HttpRequest, game_id: uuid.UUID, action: str) -> HttpResponse:
    """Hide, restore or re-verify a game, with the reason from the form."""
    get_object_or_404(Game, id=game_id)
    return _act_with_reason(
        request,
        reverse("moderation:game", kwargs={"game_id": game_id}),
        lambda reason: _GAME_ACTIONS[action](actor=request.user, game_id=game_id, reason=reason),
    )


@require_POST
@moderator_required
def player_action(request: HttpRequest, user_id: int, action: str) -> HttpResponse:
    """Ban or unban a player, with the reason from the form."""
    get_object_or_404(get_user_model(), pk=user_id)
    return _act_with_reason(
        request,
        reverse("moderation:player", kwargs={"user_id": user_id}),
        lambda reason: _PLAYER_ACTIONS[action](actor=request.user, user_id=user_id, reason=reason),
    )


def _act_with_reason(
    request: HttpRequest, page: str, act: Callable[[str], LogEntry]
) -> HttpResponse:
    """Run a moderation action with the reason the form gives, and go back to ``page`` saying
    what happened (or why nothing did)."""
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return _refused(request, _("Give a reason: it goes in the moderation log."), page)
    try:
        entry = act(form.cleaned_data["reason"])
    except services.NotAllowed as error:
        return _refused(request, error.in_words(), page, status=403)
    except services.ModerationError as error:
        return _refused(request, error.in_words(), page, status=409)
    messages.success(request, _done(entry))
    return _back(request, page)


@require_POST
@moderator_required
def flag_close(request: HttpRequest, flag_id: int) -> HttpResponse:
    """Resolve or dismiss a queue item, with the reason from the form."""
    get_object_or_404(Flag, id=flag_id)
    page = reverse("moderation:queue")
    form = FlagCloseForm(request.POST)
    if not form.is_valid():
        return _refused(request, _("Choose resolve or dismiss, and give a reason."), page)
    try:
        entry = services.flag_close(
            actor=_signed_in(request),
            flag_id=flag_id,
            resolved=form.cleaned_data["outcome"] == "resolve",
            reason=form.cleaned_data["reason"],
        )
    except services.ModerationError as error:
        return _refused(request, error.in_words(), page, status=409)
    messages.success(request, _done(entry))
    return _back(request, page)


def _done(entry: Any) -> str:
    """What the action did, in the page's language (the log's ``target`` as it was logged)."""
    target = entry.target
    if entry.action == Action.VERIFY:
        if entry.details.get("ok"):
            return _("Re-verified %(target)s: the log checks out.") % {"target": target}
        return _("Re-verified %(target)s: MISMATCH: a flag is open.") % {"target": target}
    return _("%(action)s: %(target)s. Logged.") % {
        "action": entry.get_action_display(),
        "target": target,
    }


# ---- Players' reports ----------------------------------------------------------------------------


@require_POST
@login_required
def report(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A signed-in player reports another player's finished game, with a reason."""
    page = reverse("game:play", kwargs={"game_id": game_id})
    get_object_or_404(Game, id=game_id)
    form = ReportForm(request.POST)
    if not form.is_valid():
        return _refused(request, _("Say in a few words why you are reporting this score."), page)
    try:
        services.report_submit(
            reporter=_signed_in(request), game_id=game_id, reason=form.cleaned_data["reason"]
        )
    except services.TooManyReports as error:
        return _refused(request, error.in_words(), page, status=429)
    except services.AlreadyReported as error:
        return _refused(request, error.in_words(), page, status=409)
    except services.ReportRefused as error:
        return _refused(request, error.in_words(), page, status=403)
    messages.success(request, _("Thank you: the moderators will look at this game."))
    return HttpResponseRedirect(page, status=303)
