"""Moderators may look at race rooms, rounds, entries and ratings in the admin (never edit them)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "moderator"
PERMISSIONS = [
    ("races", "view_room"),
    ("races", "view_racer"),
    ("races", "view_round"),
    ("races", "view_entry"),
    ("races", "view_playerrating"),
]


def grant(apps, schema_editor):
    races = apps.get_app_config("races")
    races.models_module = True
    create_permissions(races, apps=apps, verbosity=0)
    races.models_module = None
    group = apps.get_model("auth", "Group").objects.get(name=GROUP)
    permission_model = apps.get_model("auth", "Permission")
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            permission_model.objects.get(content_type__app_label=app_label, codename=codename)
        )


def revoke(apps, schema_editor):
    group = apps.get_model("auth", "Group").objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(
            *apps.get_model("auth", "Permission").objects.filter(
                content_type__app_label="races", codename__in=[c for _, c in PERMISSIONS]
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_moderator_group"),
        ("races", "0001_initial"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
