"""The "moderator" group: staff in it can moderate without being superusers.

They may look at players, games, dailies, the score tables, the queue and the log in the admin,
and act (hide, restore, ban, unban, re-verify, close flags) through the moderation pages and the
admin's actions, which need ``moderation.moderate``. They may not edit any of those rows directly:
every change goes through an action that takes a reason and is logged.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderator"
PERMISSIONS = [
    ("moderation", "moderate"),
    ("moderation", "view_logentry"),
    ("moderation", "view_flag"),
    ("moderation", "view_report"),
    ("auth", "view_user"),
    ("game", "view_game"),
    ("game", "view_move"),
    ("game", "view_dealpar"),
    ("game", "view_gameanalysis"),
    ("leaderboard", "view_daily"),
    ("leaderboard", "view_dailyattempt"),
    ("leaderboard", "view_playerbest"),
    ("leaderboard", "view_playertally"),
]


def create_group(apps, schema_editor):
    # Permissions are made after every migration has run; make them now, for the group to get.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    group, _ = group_model.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            permission_model.objects.get(content_type__app_label=app_label, codename=codename)
        )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("game", "0003_race_mode_and_hidden_games"),
        ("leaderboard", "0002_inactive_players_index"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
