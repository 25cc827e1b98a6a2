"""Shop: wallet (coins, blue coins, gems) with an append-only ledger, catalogue, purchases, inventory."""
