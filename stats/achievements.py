"""The rules of the achievements, in code; their names, icons, tiers and rewards are data (stats.Achievement).

A rule reads a player's statistics (the counters of stats.facts and the streaks) and says how far
the player is: `progress(stats) >= target` earns it. Every rule is therefore also the progress
shown on a locked achievement ("37 / 100 wins"). `DEFAULTS` is what the data migration stocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    code: str
    target: int
    progress: Callable[[dict, int], int]  # (counters, best streak) -> how far


def _counter(key: str) -> Callable[[dict, int], int]:
    return lambda counters, best: int(counters.get(key, 0))


def _variants_played(counters: dict, best: int) -> int:
    return sum(1 for v in ("paulista", "mineiro") if counters.get(f"variant:{v}:played"))


RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("first_win", 1, _counter("won")),
        Rule("wins_10", 10, _counter("won")),
        Rule("wins_100", 100, _counter("won")),
        Rule("wins_1000", 1000, _counter("won")),
        Rule("matches_10", 10, _counter("played")),
        Rule("matches_100", 100, _counter("played")),
        Rule("tournament_win", 1, _counter("tournaments_won")),
        Rule("tournaments_5", 5, _counter("tournaments_won")),
        Rule("iron_hand_win", 1, _counter("iron_hands_won")),
        Rule("comeback", 1, _counter("comeback_wins")),
        Rule("twelve_won", 1, _counter("twelves_won")),
        Rule("zap_round", 1, _counter("zap_rounds_won")),
        Rule("flawless_win", 1, _counter("flawless_wins")),
        Rule("both_variants", 2, _variants_played),
        Rule("multiplayer_win", 1, _counter("mode:multiplayer:won")),
        Rule("streak_3", 3, lambda counters, best: best),
        Rule("streak_10", 10, lambda counters, best: best),
        Rule("eleven_won", 1, _counter("eleven_hands_won")),
        Rule("eleven_won_10", 10, _counter("eleven_hands_won")),
        Rule("truco_caller", 50, _counter("trucos_called")),
        Rule("brave", 25, _counter("trucos_accepted")),
        Rule("hands_won_100", 100, _counter("hands_won")),
        Rule("partnership_win", 1, _counter("seats:4:won")),
        Rule("mineiro_wins_10", 10, _counter("variant:mineiro:won")),
    )
}

# code: (name en, name pt-BR, description en, description pt-BR, icon, tier, coins)
DEFAULTS: dict[str, tuple[str, str, str, str, str, str, int]] = {
    "first_win": ("First win", "Primeira vitória", "Win a match.", "Vença uma partida.", "star", "bronze", 10),
    "wins_10": ("Ten wins", "Dez vitórias", "Win 10 matches.", "Vença 10 partidas.", "medal", "bronze", 20),
    "wins_100": ("A hundred wins", "Cem vitórias", "Win 100 matches.", "Vença 100 partidas.", "medal", "silver", 100),
    "wins_1000": (
        "A thousand wins",
        "Mil vitórias",
        "Win 1,000 matches.",
        "Vença 1.000 partidas.",
        "trophy",
        "gold",
        500,
    ),
    "matches_10": ("Regular", "Frequentador", "Play 10 matches.", "Jogue 10 partidas.", "card", "bronze", 0),
    "matches_100": (
        "Table veteran",
        "Veterano da mesa",
        "Play 100 matches.",
        "Jogue 100 partidas.",
        "card",
        "silver",
        50,
    ),
    "tournament_win": ("Champion", "Campeão", "Win a tournament.", "Vença um torneio.", "trophy", "silver", 50),
    "tournaments_5": ("Five cups", "Cinco taças", "Win 5 tournaments.", "Vença 5 torneios.", "trophy", "gold", 200),
    "iron_hand_win": (
        "Iron nerves",
        "Nervos de ferro",
        "Win a hand of iron.",
        "Vença uma mão de ferro.",
        "shield",
        "silver",
        30,
    ),
    "comeback": (
        "Back from the dead",
        "Virada histórica",
        "Win a match after being 0 against 11 (or 0 against 10).",
        "Vença uma partida depois de estar 0 a 11 (ou 0 a 10).",
        "flame",
        "gold",
        100,
    ),
    "twelve_won": (
        "Twelve!",
        "Doze!",
        "Accept a twelve and win the hand.",
        "Aceite um doze e vença a mão.",
        "flame",
        "silver",
        30,
    ),
    "zap_round": ("The zap", "O zap", "Win a round with the zap.", "Vença uma rodada com o zap.", "card", "bronze", 5),
    "flawless_win": (
        "Flawless",
        "Sem perder uma mão",
        "Win a match without losing a hand.",
        "Vença uma partida sem perder nenhuma mão.",
        "shield",
        "gold",
        50,
    ),
    "both_variants": (
        "Both schools",
        "As duas escolas",
        "Play a match of Paulista and one of Mineiro.",
        "Jogue uma partida de Paulista e uma de Mineiro.",
        "card",
        "bronze",
        10,
    ),
    "multiplayer_win": (
        "Among people",
        "Entre pessoas",
        "Win a match against other people.",
        "Vença uma partida contra outras pessoas.",
        "star",
        "silver",
        30,
    ),
    "streak_3": (
        "Hot hand",
        "Mão quente",
        "Win 3 matches in a row.",
        "Vença 3 partidas seguidas.",
        "flame",
        "bronze",
        15,
    ),
    "streak_10": (
        "Unstoppable",
        "Imparável",
        "Win 10 matches in a row.",
        "Vença 10 partidas seguidas.",
        "flame",
        "gold",
        150,
    ),
    "eleven_won": (
        "Hand of eleven",
        "Mão de onze",
        "Play a hand of eleven (or ten) and win it.",
        "Jogue uma mão de onze (ou de dez) e vença.",
        "shield",
        "bronze",
        10,
    ),
    "eleven_won_10": (
        "Cool at eleven",
        "Frio no onze",
        "Win 10 hands of eleven (or ten).",
        "Vença 10 mãos de onze (ou de dez).",
        "shield",
        "silver",
        40,
    ),
    "truco_caller": ("Truco caller", "Trucador", "Call truco 50 times.", "Peça truco 50 vezes.", "flame", "bronze", 10),
    "brave": ("Brave", "Corajoso", "Accept 25 raises.", "Aceite 25 aumentos.", "shield", "bronze", 10),
    "hands_won_100": ("A hundred hands", "Cem mãos", "Win 100 hands.", "Vença 100 mãos.", "card", "silver", 20),
    "partnership_win": (
        "Good partner",
        "Bom parceiro",
        "Win a match in pairs (4 seats).",
        "Vença uma partida em dupla (4 lugares).",
        "star",
        "bronze",
        10,
    ),
    "mineiro_wins_10": (
        "From Minas",
        "Lá de Minas",
        "Win 10 matches of Mineiro.",
        "Vença 10 partidas de Mineiro.",
        "medal",
        "silver",
        30,
    ),
}


def progress_of(code: str, counters: dict, best_streak: int) -> tuple[int, int] | None:
    """(progress capped at the target, target) of a rule, or None for a code with no rule in code."""
    rule = RULES.get(code)
    if rule is None:
        return None
    return min(rule.progress(counters, best_streak), rule.target), rule.target


def reached(counters: dict, best_streak: int) -> list[str]:
    """Codes of every rule these statistics satisfy."""
    return [code for code, rule in RULES.items() if rule.progress(counters, best_streak) >= rule.target]
