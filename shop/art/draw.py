"""Draws the shop's original SVG art (avatars, card backs, currency icons) into shop/static/shop/.

Everything is drawn here from basic shapes for this project, so it is licence-clean.
Run `python shop/art/draw.py` after changing a drawing; the output SVGs are committed.
"""

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "shop"


def face(bg, skin, hair, shirt, top, extra=""):
    return f'''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" role="img">
  <rect width="128" height="128" rx="20" fill="{bg}"/>
  <path d="M20 128c4-26 22-38 44-38s40 12 44 38z" fill="{shirt}"/>
  <rect x="55" y="78" width="18" height="16" rx="6" fill="{skin}"/>
  <circle cx="64" cy="58" r="28" fill="{skin}"/>
  <circle cx="54" cy="58" r="3.5" fill="#1d1d1b"/><circle cx="74" cy="58" r="3.5" fill="#1d1d1b"/>
  <path d="M54 70q10 8 20 0" stroke="#1d1d1b" stroke-width="3" fill="none" stroke-linecap="round"/>
  <circle cx="47" cy="66" r="4" fill="#e8837a" opacity=".45"/><circle cx="81" cy="66" r="4" fill="#e8837a" opacity=".45"/>
  {top.format(hair=hair)}
  {extra}
</svg>
'''


HATS = {
    # Rei: a gold crown
    "rei": (
        '<path d="M38 36l6-20 10 12 10-16 10 16 10-12 6 20z" fill="#d9a521" stroke="#8a6410" stroke-width="2"/><circle cx="64" cy="14" r="3" fill="#c8382e"/>',
        "",
    ),
    # Dama: long hair and a small tiara
    "dama": (
        '<path d="M34 62c-2-26 12-38 30-38s32 12 30 38c-6-12-14-20-30-20s-24 8-30 20z" fill="{hair}"/><path d="M34 60c-4 18 0 30 6 36M94 60c4 18 0 30-6 36" stroke="{hair}" stroke-width="8" fill="none"/><path d="M50 32l6-8 8 6 8-6 6 8z" fill="#e6e6f0" stroke="#9a9ab0"/>',
        "",
    ),
    # Valete: a feathered cap
    "valete": (
        '<path d="M34 46c2-20 16-26 30-26s28 6 30 26z" fill="#2f5fa7"/><rect x="32" y="42" width="64" height="6" rx="3" fill="#1d3f75"/><path d="M88 30c10-14 22-12 26-8-10 0-16 6-22 14z" fill="#c8382e"/>',
        "",
    ),
    # Gaúcho: a wide-brimmed hat and a neck scarf
    "gaucho": (
        '<ellipse cx="64" cy="38" rx="44" ry="8" fill="#5a3d24"/><path d="M42 38c0-16 8-22 22-22s22 6 22 22z" fill="#6f4b2c"/><rect x="42" y="32" width="44" height="5" fill="#2b1c10"/>',
        '<path d="M50 90l14 14 14-14z" fill="#c8382e"/>',
    ),
    # Sertaneja: straw hat
    "sertaneja": (
        '<ellipse cx="64" cy="38" rx="42" ry="9" fill="#e3c16f"/><path d="M44 38c0-14 8-20 20-20s20 6 20 20z" fill="#d4ab4f"/><path d="M44 34h40" stroke="#c8382e" stroke-width="4"/><path d="M36 56c0 14 2 22 8 28M92 56c0 14-2 22-8 28" stroke="{hair}" stroke-width="7" fill="none"/>',
        "",
    ),
    # Cangaceiro-inspired half-moon leather hat with stars
    "meia-lua": (
        '<path d="M26 42c8-30 68-30 76 0c-12-6-64-6-76 0z" fill="#7a4a22" stroke="#4d2c12" stroke-width="2"/><path d="M64 22l2 5h5l-4 3 2 5-5-3-5 3 2-5-4-3h5z" fill="#f2d16b"/>',
        "",
    ),
    # Boina: a beret and glasses
    "boina": (
        '<ellipse cx="60" cy="34" rx="30" ry="11" fill="#3a3a48"/><circle cx="60" cy="24" r="3" fill="#3a3a48"/>',
        '<g fill="none" stroke="#1d1d1b" stroke-width="2.5"><circle cx="54" cy="58" r="8"/><circle cx="74" cy="58" r="8"/><path d="M62 58h4"/></g>',
    ),
    # Craque: sports cap, backwards
    "craque": (
        '<path d="M36 44c0-18 12-24 28-24s28 6 28 24z" fill="#1f8f4e"/><path d="M30 44c-8 0-12-4-10-6 2-2 8-2 16 0z" fill="#f2d024"/><circle cx="64" cy="22" r="3" fill="#f2d024"/>',
        "",
    ),
    # Coque: hair bun with a flower
    "coque": (
        '<circle cx="64" cy="22" r="12" fill="{hair}"/><path d="M36 56c0-20 12-30 28-30s28 10 28 30c-6-10-16-16-28-16s-22 6-28 16z" fill="{hair}"/>',
        '<g transform="translate(88 34)"><circle r="5" fill="#f06aa0"/><circle cx="6" r="4" fill="#f59ac0"/><circle cx="-6" r="4" fill="#f59ac0"/><circle cy="6" r="4" fill="#f59ac0"/><circle cy="-6" r="4" fill="#f59ac0"/><circle r="3" fill="#f2d024"/></g>',
    ),
}
AVATARS = [
    ("rei", "#f6e7b8", "#f1c27d", "#3b2a1a", "#7a2330"),
    ("dama", "#f3d6e4", "#e0ac69", "#5b3a1e", "#8e3b6e"),
    ("valete", "#d9e6f5", "#ffdbac", "#2b1c10", "#2f5fa7"),
    ("gaucho", "#e7d9c4", "#c68642", "#2b1c10", "#3f6b3a"),
    ("sertaneja", "#fbe3c0", "#8d5524", "#1d1d1b", "#c8382e"),
    ("meia-lua", "#f2e2c8", "#e0ac69", "#2b1c10", "#5a3d24"),
    ("boina", "#dfe7e2", "#ffdbac", "#6b6b66", "#34495e"),
    ("craque", "#d6f0dc", "#8d5524", "#1d1d1b", "#f2d024"),
    ("coque", "#efe0f7", "#f1c27d", "#a0522d", "#1f6f50"),
]
(OUT / "avatars").mkdir(parents=True, exist_ok=True)
for slug, bg, skin, hair, shirt in AVATARS:
    top, extra = HATS[slug]
    (OUT / "avatars" / f"{slug}.svg").write_text(face(bg, skin, hair, shirt, top, extra))


def back(inner, frame="#ffffff"):
    return f'''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 300" role="img">
  <rect width="200" height="300" rx="16" fill="{frame}"/>
  <rect x="10" y="10" width="180" height="280" rx="10" fill="#000" opacity=".08"/>
  <g clip-path="url(#c)">{inner}</g>
  <defs><clipPath id="c"><rect x="12" y="12" width="176" height="276" rx="9"/></clipPath></defs>
</svg>
'''


lattice = (
    '<rect x="0" y="0" width="200" height="300" fill="#b52a22"/>'
    + "".join(
        f'<path d="M{x} {y}l10 -14 10 14 -10 14z" fill="#e25b4d"/>'
        for x in range(6, 200, 20)
        for y in range(20, 300, 28)
    )
    + '<rect x="60" y="110" width="80" height="80" rx="40" fill="#fbf8f1"/><text x="100" y="162" font-family="Georgia,serif" font-size="44" text-anchor="middle" fill="#b52a22">T</text>'
)
_rng = __import__("random").Random(7)
stars = (
    '<rect width="200" height="300" fill="#16224a"/>'
    + "".join(
        f'<circle cx="{_rng.randint(8, 192)}" cy="{_rng.randint(8, 292)}" r="{_rng.choice([1, 1.4, 2])}" fill="#f2e9b8"/>'
        for i in range(70)
    )
    + '<circle cx="100" cy="150" r="42" fill="#f2d16b"/><circle cx="118" cy="136" r="38" fill="#16224a"/>'
)
SUITS = [
    '<path d="M0 -12c-8 8-14 12-14 18a7 7 0 0 0 12 4l-2 8h8l-2-8a7 7 0 0 0 12-4c0-6-6-10-14-18z"/>',
    '<path d="M0 -12l10 12-10 12-10-12z"/>',
    '<path d="M0 10c-14-10-14-22-7-22 4 0 6 3 7 6 1-3 3-6 7-6 7 0 7 12-7 22z"/>',
    '<g><circle cy="-6" r="5"/><circle cx="-7" cy="4" r="5"/><circle cx="7" cy="4" r="5"/><path d="M-2 4h4l2 10h-8z"/></g>',
]
felt = (
    '<rect width="200" height="300" fill="#1f6f50"/>'
    + "".join(
        f'<g transform="translate({x} {y})" fill="#2f8f68">{SUITS[(x // 40 + y // 40) % 4]}</g>'
        for x in range(20, 200, 40)
        for y in range(24, 300, 40)
    )
    + '<rect x="40" y="120" width="120" height="60" rx="10" fill="#d9a521"/><text x="100" y="160" font-family="Georgia,serif" font-size="30" text-anchor="middle" fill="#174f3a">TRUCO</text>'
)
colours = ["#c8382e", "#f2a81d", "#f2d024", "#1f8f4e", "#2f5fa7", "#8e3b6e"]
carnival = (
    "".join(
        f'<rect x="{-200 + i * 30}" y="-20" width="15" height="400" fill="{colours[i % 6]}" transform="skewX(-25)"/>'
        for i in range(30)
    )
    + '<circle cx="100" cy="150" r="42" fill="#fbf8f1"/><path d="M72 146q14-16 28 0 14-16 28 0-14 14-28 4-14 10-28-4z" fill="#8e3b6e"/>'
)
(OUT / "decks").mkdir(exist_ok=True)
for slug, inner in (("classic", lattice), ("night", stars), ("felt", felt), ("carnival", carnival)):
    (OUT / "decks" / f"{slug}.svg").write_text(back(inner))


def coin(fill, edge, mark):
    return f'''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img">
  <circle cx="32" cy="34" r="26" fill="{edge}"/><circle cx="32" cy="30" r="26" fill="{fill}"/>
  <circle cx="32" cy="30" r="19" fill="none" stroke="{edge}" stroke-width="3"/>
  <text x="32" y="39" font-family="Georgia,serif" font-size="24" font-weight="bold" text-anchor="middle" fill="{edge}">{mark}</text>
</svg>
'''


(OUT / "packs").mkdir(exist_ok=True)
(OUT / "packs" / "coin.svg").write_text(coin("#f2c94c", "#a87a12", "T"))
(OUT / "packs" / "blue-coin.svg").write_text(coin("#6fa8f5", "#1d4f9a", "T"))
(OUT / "packs" / "gem.svg").write_text("""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img">
  <path d="M14 22l10-12h16l10 12-18 32z" fill="#2bb5a0"/>
  <path d="M14 22h36L32 54z" fill="#1a8f7e"/><path d="M24 10l-4 12h24l-4-12z" fill="#6fe0cc"/>
  <path d="M24 22l8 32 8-32" fill="none" stroke="#0f5f54" stroke-width="1.5"/>
</svg>
""")
