"""The leaderboards' tallies (issue 28 item 7): how many listed players each board has at each points
value, counted once here from the totals; from now on the services keep them with every change."""

from django.db import migrations, models
from django.db.models import Count


def count_from_totals(apps, schema_editor):
    # The same sums as stats.services.rebuild_board_tallies (a migration cannot import the services).
    total = apps.get_model("stats", "RankPointTotal")
    tally = apps.get_model("stats", "BoardTally")
    listed = total.objects.filter(listed=True, points__gt=0).order_by()
    rows = [
        tally(period=period, starts_on=starts_on, country="", points=points, players=players, folded=True)
        for period, starts_on, points, players in listed.values_list("period", "starts_on", "points").annotate(
            Count("id")
        )
    ]
    rows += [
        tally(period=period, starts_on=starts_on, country=country, points=points, players=players, folded=True)
        for period, starts_on, country, points, players in listed.exclude(country="")
        .values_list("period", "starts_on", "country", "points")
        .annotate(Count("id"))
    ]
    tally.objects.bulk_create(rows, batch_size=5000)


class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0005_earned_achievement_coins_paid'),
    ]

    operations = [
        migrations.CreateModel(
            name='BoardTally',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('period', models.CharField(choices=[('all', 'All time'), ('week', 'This week'), ('month', 'This month')], max_length=5)),
                ('starts_on', models.DateField()),
                ('country', models.CharField(blank=True, max_length=2)),
                ('points', models.PositiveIntegerField()),
                ('players', models.IntegerField()),
                ('folded', models.BooleanField(default=False)),
            ],
            options={
                'verbose_name': 'leaderboard tally',
                'verbose_name_plural': 'leaderboard tallies',
                'indexes': [models.Index(fields=['period', 'starts_on', 'country', 'points'], name='stats_tally_board')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('folded', True)), fields=('period', 'starts_on', 'country', 'points'), name='stats_tally_folded_once')],
            },
        ),
        migrations.RunPython(count_from_totals, migrations.RunPython.noop),
    ]
