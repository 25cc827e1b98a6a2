"""Stock the shop: avatars, decks and packs drawn for this project, plus the starter grant."""

from django.db import migrations

AVATARS = [
    # slug, en, pt-br, description en, description pt-br, price, currency, image
    ("classic-avatar", "Newcomer", "Novato", "Everyone starts somewhere.", "Todo mundo começa em algum lugar.", 0, "coins", "avatars/default.svg"),
    ("boina", "Beret", "Boina", "A thinker at the table.", "Um pensador na mesa.", 80, "coins", "shop/avatars/boina.svg"),
    ("craque", "Star player", "Craque", "Cap on backwards, ready to win.", "Boné para trás, pronto para ganhar.", 100, "coins", "shop/avatars/craque.svg"),
    ("gaucho", "Gaucho", "Gaúcho", "Wide hat and a red scarf from the pampas.", "Chapéu largo e lenço vermelho dos pampas.", 200, "coins", "shop/avatars/gaucho.svg"),
    ("sertaneja", "Countrywoman", "Sertaneja", "A straw hat for the long afternoons.", "Chapéu de palha para as tardes longas.", 200, "coins", "shop/avatars/sertaneja.svg"),
    ("coque", "Flower bun", "Coque com flor", "A flower for luck.", "Uma flor para dar sorte.", 250, "coins", "shop/avatars/coque.svg"),
    ("valete", "Jack", "Valete", "The jack with the feathered cap.", "O valete de chapéu com pena.", 300, "coins", "shop/avatars/valete.svg"),
    ("meia-lua", "Half moon", "Meia-lua", "A leather hat with a golden star.", "Chapéu de couro com estrela dourada.", 400, "coins", "shop/avatars/meia-lua.svg"),
    ("dama", "Queen", "Dama", "The queen never bluffs. Or does she?", "A dama nunca blefa. Ou blefa?", 500, "coins", "shop/avatars/dama.svg"),
    ("rei", "King", "Rei", "A crown for the one who calls truco.", "Uma coroa para quem pede truco.", 25, "gems", "shop/avatars/rei.svg"),
]
DECKS = [
    ("classic", "Classic", "Clássico", "Red lattice back, clean faces.", "Verso vermelho xadrez, faces limpas.", 0, "coins", "classic"),
    ("felt", "Green felt", "Feltro verde", "The colour of the table.", "A cor da mesa.", 300, "coins", "felt"),
    ("night", "Starry night", "Noite estrelada", "Moon and stars for late games.", "Lua e estrelas para partidas de madrugada.", 15, "gems", "night"),
    ("carnival", "Carnival", "Carnaval", "Stripes in every colour.", "Listras de todas as cores.", 30, "gems", "carnival"),
]
PACKS = [
    # slug, kind, en, pt-br, grant, price, currency, image
    ("coins-500", "coin_pack", "Bag of coins", "Saco de moedas", 500, 5, "gems", "shop/packs/coin.svg"),
    ("coins-1200", "coin_pack", "Chest of coins", "Baú de moedas", 1200, 10, "gems", "shop/packs/coin.svg"),
    ("coins-3000", "coin_pack", "Treasure of coins", "Tesouro de moedas", 3000, 20, "gems", "shop/packs/coin.svg"),
    ("blue-5-coins", "blue_coin_pack", "5 blue coins", "5 moedas azuis", 5, 200, "coins", "shop/packs/blue-coin.svg"),
    ("blue-12-coins", "blue_coin_pack", "12 blue coins", "12 moedas azuis", 12, 400, "coins", "shop/packs/blue-coin.svg"),
    ("blue-10-gems", "blue_coin_pack", "10 blue coins", "10 moedas azuis", 10, 3, "gems", "shop/packs/blue-coin.svg"),
    ("blue-30-gems", "blue_coin_pack", "30 blue coins", "30 moedas azuis", 30, 8, "gems", "shop/packs/blue-coin.svg"),
    ("gems-10", "gem_pack", "Handful of gems", "Punhado de gemas", 10, 490, "real_money", "shop/packs/gem.svg"),
    ("gems-30", "gem_pack", "Pouch of gems", "Bolsa de gemas", 30, 1290, "real_money", "shop/packs/gem.svg"),
    ("gems-80", "gem_pack", "Crate of gems", "Caixa de gemas", 80, 2990, "real_money", "shop/packs/gem.svg"),
]
PACK_TEXT = {
    "coin_pack": ("Coins to spend in the shop.", "Moedas para gastar na loja."),
    "blue_coin_pack": ("Blue coins open and join multiplayer rooms.", "Moedas azuis servem para criar e entrar em salas."),
    "gem_pack": ("Gems, the premium currency.", "Gemas, a moeda premium."),
}


def stock(apps, schema_editor):
    Item = apps.get_model("shop", "Item")
    ShopSettings = apps.get_model("shop", "ShopSettings")
    for order, (slug, en, pt, den, dpt, price, currency, image) in enumerate(AVATARS):
        Item.objects.update_or_create(slug=slug, defaults=dict(
            kind="avatar", name_en=en, name_pt_br=pt, description_en=den, description_pt_br=dpt,
            price=price, price_currency=currency, static_image=image, display_order=order * 10))
    for order, (slug, en, pt, den, dpt, price, currency, style) in enumerate(DECKS):
        Item.objects.update_or_create(slug=slug, defaults=dict(
            kind="deck", name_en=en, name_pt_br=pt, description_en=den, description_pt_br=dpt,
            price=price, price_currency=currency, static_image=f"shop/decks/{slug}.svg", face_style=style,
            display_order=order * 10))
    for order, (slug, kind, en, pt, grant, price, currency, image) in enumerate(PACKS):
        den, dpt = PACK_TEXT[kind]
        Item.objects.update_or_create(slug=slug, defaults=dict(
            kind=kind, name_en=en, name_pt_br=pt, description_en=den, description_pt_br=dpt, grant_amount=grant,
            price=price, price_currency=currency, static_image=image, display_order=order * 10))
    ShopSettings.objects.update_or_create(pk=1, defaults=dict(
        starter_coins=100, starter_blue_coins=5, starter_gems=0,
        starter_avatar=Item.objects.get(slug="classic-avatar"), starter_deck=Item.objects.get(slug="classic")))


def unstock(apps, schema_editor):
    apps.get_model("shop", "ShopSettings").objects.all().delete()
    slugs = [a[0] for a in AVATARS] + [d[0] for d in DECKS] + [p[0] for p in PACKS]
    apps.get_model("shop", "Item").objects.filter(slug__in=slugs, purchases__isnull=True, owners__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("shop", "0001_initial")]
    operations = [migrations.RunPython(stock, unstock)]
