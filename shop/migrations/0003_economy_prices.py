"""Prices set to the economy in docs/economy.md: a first avatar within about 5 wins, a first deck within 7.

Only prices still at the value 0002 stocked are changed, so whatever staff set in the admin stays.
"""

from django.db import migrations

# slug: (price stocked by 0002, price now), in the item's own currency.
PRICES = {
    "boina": (80, 150),
    "craque": (100, 200),
    "gaucho": (200, 300),
    "sertaneja": (200, 300),
    "coque": (250, 400),
    "valete": (300, 450),
    "meia-lua": (400, 600),
    "dama": (500, 800),
    "felt": (300, 200),
    "blue-5-coins": (200, 100),
    "blue-12-coins": (400, 200),
}


def set_prices(apps, schema_editor, forward=True):
    Item = apps.get_model("shop", "Item")
    for slug, (before, after) in PRICES.items():
        old, new = (before, after) if forward else (after, before)
        Item.objects.filter(slug=slug, price=old).update(price=new)


def unset_prices(apps, schema_editor):
    set_prices(apps, schema_editor, forward=False)


class Migration(migrations.Migration):
    dependencies = [("shop", "0002_stock_the_shop")]
    operations = [migrations.RunPython(set_prices, unset_prices)]
