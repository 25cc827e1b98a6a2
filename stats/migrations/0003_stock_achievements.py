"""The achievements whose rules are in stats.achievements, with their default names, art and rewards,
and the leaderboards' totals of the rank points awarded before they existed."""

import datetime

from django.db import migrations

# A copy at the time of writing (a migration must not change when the code does).
ACHIEVEMENTS = {
    "first_win": ("First win", "Primeira vitória", "Win a match.", "Vença uma partida.", "star", "bronze", 10),
    "wins_10": ("Ten wins", "Dez vitórias", "Win 10 matches.", "Vença 10 partidas.", "medal", "bronze", 20),
    "wins_100": ("A hundred wins", "Cem vitórias", "Win 100 matches.", "Vença 100 partidas.", "medal", "silver", 100),
    "wins_1000": ("A thousand wins", "Mil vitórias", "Win 1,000 matches.", "Vença 1.000 partidas.", "trophy", "gold", 500),
    "matches_10": ("Regular", "Frequentador", "Play 10 matches.", "Jogue 10 partidas.", "card", "bronze", 0),
    "matches_100": ("Table veteran", "Veterano da mesa", "Play 100 matches.", "Jogue 100 partidas.", "card", "silver", 50),
    "tournament_win": ("Champion", "Campeão", "Win a tournament.", "Vença um torneio.", "trophy", "silver", 50),
    "tournaments_5": ("Five cups", "Cinco taças", "Win 5 tournaments.", "Vença 5 torneios.", "trophy", "gold", 200),
    "iron_hand_win": ("Iron nerves", "Nervos de ferro", "Win a hand of iron.", "Vença uma mão de ferro.", "shield", "silver", 30),
    "comeback": ("Back from the dead", "Virada histórica", "Win a match after being 0 against 11 (or 0 against 10).", "Vença uma partida depois de estar 0 a 11 (ou 0 a 10).", "flame", "gold", 100),
    "twelve_won": ("Twelve!", "Doze!", "Accept a twelve and win the hand.", "Aceite um doze e vença a mão.", "flame", "silver", 30),
    "zap_round": ("The zap", "O zap", "Win a round with the zap.", "Vença uma rodada com o zap.", "card", "bronze", 5),
    "flawless_win": ("Flawless", "Sem perder uma mão", "Win a match without losing a hand.", "Vença uma partida sem perder nenhuma mão.", "shield", "gold", 50),
    "both_variants": ("Both schools", "As duas escolas", "Play a match of Paulista and one of Mineiro.", "Jogue uma partida de Paulista e uma de Mineiro.", "card", "bronze", 10),
    "multiplayer_win": ("Among people", "Entre pessoas", "Win a match against other people.", "Vença uma partida contra outras pessoas.", "star", "silver", 30),
    "streak_3": ("Hot hand", "Mão quente", "Win 3 matches in a row.", "Vença 3 partidas seguidas.", "flame", "bronze", 15),
    "streak_10": ("Unstoppable", "Imparável", "Win 10 matches in a row.", "Vença 10 partidas seguidas.", "flame", "gold", 150),
    "eleven_won": ("Hand of eleven", "Mão de onze", "Play a hand of eleven (or ten) and win it.", "Jogue uma mão de onze (ou de dez) e vença.", "shield", "bronze", 10),
    "eleven_won_10": ("Cool at eleven", "Frio no onze", "Win 10 hands of eleven (or ten).", "Vença 10 mãos de onze (ou de dez).", "shield", "silver", 40),
    "truco_caller": ("Truco caller", "Trucador", "Call truco 50 times.", "Peça truco 50 vezes.", "flame", "bronze", 10),
    "brave": ("Brave", "Corajoso", "Accept 25 raises.", "Aceite 25 aumentos.", "shield", "bronze", 10),
    "hands_won_100": ("A hundred hands", "Cem mãos", "Win 100 hands.", "Vença 100 mãos.", "card", "silver", 20),
    "partnership_win": ("Good partner", "Bom parceiro", "Win a match in pairs (4 seats).", "Vença uma partida em dupla (4 lugares).", "star", "bronze", 10),
    "mineiro_wins_10": ("From Minas", "Lá de Minas", "Win 10 matches of Mineiro.", "Vença 10 partidas de Mineiro.", "medal", "silver", 30),
}


def stock(apps, schema_editor):
    Achievement = apps.get_model("stats", "Achievement")
    for position, (code, (name_en, name_pt, desc_en, desc_pt, icon, tier, coins)) in enumerate(ACHIEVEMENTS.items()):
        Achievement.objects.update_or_create(
            code=code,
            defaults={
                "name_en": name_en,
                "name_pt_br": name_pt,
                "description_en": desc_en,
                "description_pt_br": desc_pt,
                "icon": icon,
                "tier": tier,
                "coin_reward": coins,
                "position": position,
            },
        )


def total_existing_points(apps, schema_editor):
    Award = apps.get_model("stats", "RankPointAward")
    Total = apps.get_model("stats", "RankPointTotal")
    Profile = apps.get_model("accounts", "Profile")
    sums = {}
    for user_id, points, created_at in Award.objects.values_list("user_id", "points", "created_at").iterator():
        day = created_at.date()
        for period, start in (
            ("all", datetime.date(2000, 1, 1)),
            ("week", day - datetime.timedelta(days=day.weekday())),
            ("month", day.replace(day=1)),
        ):
            sums[(user_id, period, start)] = sums.get((user_id, period, start), 0) + points
    profiles = {p.user_id: p for p in Profile.objects.all()}
    Total.objects.bulk_create(
        Total(
            user_id=user_id,
            period=period,
            starts_on=start,
            points=points,
            listed=getattr(profiles.get(user_id), "public_stats", True),
            country=str(getattr(profiles.get(user_id), "country", "") or ""),
        )
        for (user_id, period, start), points in sums.items()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0002_leaderboards_and_achievements"),
        ("accounts", "0003_profile_public_stats"),
    ]

    operations = [
        migrations.RunPython(stock, migrations.RunPython.noop),
        migrations.RunPython(total_existing_points, migrations.RunPython.noop),
    ]
