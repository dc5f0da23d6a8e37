"""Forms of moderation: the reason every action takes, and a player's report."""

from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import REASON_MAX_LENGTH, REPORT_REASON_MAX_LENGTH


class ReasonForm(forms.Form):
    """The reason for a moderator's action, kept in the moderation log."""

    reason = forms.CharField(
        max_length=REASON_MAX_LENGTH,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Required: it is kept in the moderation log."),
    )


class FlagCloseForm(ReasonForm):
    """Close a queue item: resolved (something was done) or dismissed (nothing was wrong)."""

    outcome = forms.ChoiceField(choices=[("resolve", "Resolve"), ("dismiss", "Dismiss")])


class ReportForm(forms.Form):
    """A player's report of a score they believe was not honestly made."""

    reason = forms.CharField(
        max_length=REPORT_REASON_MAX_LENGTH,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Why do you think this score is not fair play?"),
    )
