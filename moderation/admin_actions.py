"""Moderation actions in Django's admin: each asks for a reason on a page of its own first.

An admin action normally runs the moment it is chosen; a moderation action must not run without
a reason for the log, so the first request shows the selected rows and a reason box, and the
second (with ``apply``) runs the service for each row.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from moderation.forms import ReasonForm
from moderation.selectors import can_moderate
from moderation.services import ModerationError

Service = Callable[[AbstractBaseUser, Model, str], object]
AdminAction = Callable[[Any, HttpRequest, QuerySet[Any]], TemplateResponse | None]


class ModerateAdminMixin:
    """Lets the admin's moderation actions check ``moderation.moderate`` (staff in the
    "moderator" group, and superusers)."""

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return can_moderate(request.user)


def reason_action(name: str, description: str, service: Service) -> AdminAction:
    """An admin action named ``name`` that asks for a reason, then calls ``service(actor,
    row, reason)`` for every selected row; a row the service refuses is reported, not fatal."""

    def action(
        modeladmin: Any, request: HttpRequest, queryset: QuerySet[Any]
    ) -> TemplateResponse | None:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            done = 0
            for row in queryset:
                try:
                    service(request.user, row, form.cleaned_data["reason"])  # type: ignore[arg-type]
                except ModerationError as error:
                    modeladmin.message_user(request, f"{row}: {error}", messages.WARNING)
                else:
                    done += 1
            if done:
                modeladmin.message_user(request, f"{description}: done for {done}.")
            return None
        return TemplateResponse(
            request,
            "moderation/admin_reason.html",
            {
                **modeladmin.admin_site.each_context(request),
                "title": f"{description}: give a reason",
                "description": description,
                "rows": list(queryset[:500]),
                "form": form,
                "action": name,
                "opts": modeladmin.model._meta,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )

    action.__name__ = name
    return admin.action(description=description, permissions=["moderate"])(action)
