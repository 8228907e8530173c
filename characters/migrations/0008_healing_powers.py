"""Régénération's fields become those of any healing power of Conscience (Guérison accélérée too)."""

from django.db import migrations, models


def running_regeneration(apps, schema_editor):  # type: ignore[no-untyped-def]
    Character = apps.get_model("characters", "Character")
    Character.objects.filter(regenerating=True).update(healing_power="regeneration")


def back_to_regenerating(apps, schema_editor):  # type: ignore[no-untyped-def]
    Character = apps.get_model("characters", "Character")
    Character.objects.exclude(healing_power="").update(regenerating=True)


class Migration(migrations.Migration):
    dependencies = [("characters", "0007_psychic_feeding_and_regeneration")]

    operations = [
        migrations.AddField(
            model_name="character",
            name="healing_power",
            field=models.CharField(blank=True, default="", editable=False, max_length=32),
        ),
        migrations.RunPython(running_regeneration, back_to_regenerating),
        migrations.RemoveField(model_name="character", name="regenerating"),
        migrations.RenameField(model_name="character", old_name="regeneration_seconds", new_name="healing_seconds"),
        migrations.RenameField(model_name="character", old_name="regeneration_points", new_name="healing_points"),
    ]
