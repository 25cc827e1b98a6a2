"""Hooks other apps connect to, so that accounts never imports them (dependency direction: they import accounts).

- `personal_data_requested(user)`: each receiver returns a dict `{section_name: JSON-able data}` for the export.
- `account_deleting(user)`: sent inside the deletion transaction, before the user row goes; receivers
  delete or anonymise the rows they own (e.g. a ledger keeps its lines but loses the identity).
- `profile_sections_requested(request, player, profile)`: each receiver returns HTML (safe) to show on
  the player's public profile below the card, or None.
- `whereabouts_requested(user_ids)`: each receiver returns `(user_id, Whereabouts)` pairs for the people
  it knows to be somewhere now (rooms: a waiting room; games: a match in play), as many as it finds;
  the friends page asks and says the highest-ranked place of each (`accounts.friends.whereabouts_of`).
"""

from django.dispatch import Signal

personal_data_requested = Signal()
account_deleting = Signal()
profile_sections_requested = Signal()
whereabouts_requested = Signal()
