"""What each earned achievement paid (issue 28): before, every unlock paid its coin reward, so the
earned rows take the amount of their ledger line (the reward then; staff may have changed it since)."""

from django.db import migrations, models


def coins_from_the_ledger(apps, schema_editor):
    EarnedAchievement = apps.get_model("stats", "EarnedAchievement")
    LedgerEntry = apps.get_model("shop", "LedgerEntry")
    paid = dict(
        LedgerEntry.objects.filter(reason="achievement_reward").values_list("idempotency_key", "amount")
    )
    for earned in EarnedAchievement.objects.select_related("achievement").iterator():
        amount = paid.get(f"achievement:{earned.achievement.code}:user:{earned.user_id}", 0)
        if amount:
            EarnedAchievement.objects.filter(pk=earned.pk).update(coins_paid=amount)


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0004_board_statistics"),
        ("shop", "0003_economy_prices"),
    ]

    operations = [
        migrations.AddField(
            model_name="earnedachievement",
            name="coins_paid",
            field=models.PositiveIntegerField(default=0, verbose_name="coins paid"),
        ),
        migrations.RunPython(coins_from_the_ledger, migrations.RunPython.noop),
    ]
