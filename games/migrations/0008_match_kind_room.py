# A room's match is told apart from a single match against the AI (issue 11).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_match_missed_turns"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="kind",
            field=models.CharField(
                choices=[("single", "Single match"), ("tournament", "Tournament"), ("room", "Room match")],
                default="single",
                max_length=12,
                verbose_name="kind",
            ),
        ),
    ]
