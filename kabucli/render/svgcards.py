"""Card faces and backs drawn as SVG, for the replay page (``replay --html``).

Every card of a deck is one ``<symbol>`` (viewBox 0 0 100 150) that a page draws with
``<use href="#ID">``; :func:`symbols` gives them for one deck, with the back (``card-back``)
and a blank face (``card-blank``) for a token outside the deck. The drawings are our own
simple shapes: kabufuda and Daini numerals with pips, hanafuda months with their colours, a
motif per month and a mark for the kind (bright, animal, ribbon, chaff), and Uno Dare colours
with numbers and symbols. Only shapes and a generic font family: nothing to download.
"""

from __future__ import annotations

import re
from html import escape

from kabucli.cards import HANAFUDA_KINDS, JIZO, KIND_WORDS, MONTH_NAMES, ONI, Deck

W, H = 100, 150
SERIF = "Georgia,'DejaVu Serif',serif"
SANS = "'DejaVu Sans',Arial,Helvetica,sans-serif"


def symbol_id(token: str) -> str:
    """The id of a card's symbol: ``card-`` and its token, other characters as ``_XX``."""
    return "card-" + re.sub(r"[^A-Za-z0-9]", lambda m: f"_{ord(m.group()):02x}", token)


def _symbol(ident: str, body: str) -> str:
    return f'<symbol id="{ident}" viewBox="0 0 {W} {H}">{body}</symbol>'


def _text(x: float, y: float, text: str, size: float, fill: str, *, font: str = SERIF,
          weight: str = "bold", anchor: str = "middle", extra: str = "") -> str:
    return (f'<text x="{x}" y="{y}" font-family="{font}" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}" text-anchor="{anchor}"{extra}>'
            f"{escape(text)}</text>")


def _frame(fill: str, stroke: str = "#222", width: float = 2) -> str:
    return (f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"/>')


# -- kabufuda and Daini -------------------------------------------------------------------

# pip positions (column, row) on a 3x4 grid, per value
_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(1, 1.5)], 2: [(1, 0), (1, 3)], 3: [(1, 0), (1, 1.5), (1, 3)],
    4: [(0, 0), (2, 0), (0, 3), (2, 3)], 5: [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3)],
    6: [(0, 0), (2, 0), (0, 1.5), (2, 1.5), (0, 3), (2, 3)],
    7: [(0, 0), (2, 0), (1, 0.75), (0, 1.5), (2, 1.5), (0, 3), (2, 3)],
    8: [(0, 0), (2, 0), (1, 0.75), (0, 1.5), (2, 1.5), (1, 2.25), (0, 3), (2, 3)],
    9: [(0, 0), (2, 0), (0, 1), (2, 1), (1, 1.5), (0, 2), (2, 2), (0, 3), (2, 3)],
    10: [(0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1), (0, 2), (2, 2), (1, 2.5), (0, 3), (2, 3)],
}


def _pips(value: int, color: str) -> str:
    out = []
    for col, row in _PIPS[value]:
        x, y = 34 + col * 16, 62 + row * 15
        out.append(f'<path d="M{x} {y - 6}L{x + 5} {y}L{x} {y + 6}L{x - 5} {y}Z" '
                   f'fill="{color}"/>')
    return "".join(out)


def _numeral_card(value: int, ink: str, accent: str, paper: str) -> str:
    big = str(value)
    return (_frame(paper) +
            f'<rect x="7" y="7" width="86" height="136" rx="4" fill="none" stroke="{accent}" '
            'stroke-width="3"/>'
            f'<rect x="11" y="11" width="78" height="128" rx="3" fill="none" stroke="{ink}" '
            'stroke-width="1"/>' +
            _text(50, 48, big, 38, ink) +
            f'<rect x="22" y="52" width="56" height="1.5" fill="{accent}"/>' +
            _pips(value, accent) +
            _text(17, 25, big, 13, accent, anchor="start") +
            _text(83, 134, big, 13, accent, anchor="end"))


def _oni(paper: str) -> str:
    return (_frame(paper) +
            '<rect x="7" y="7" width="86" height="136" rx="4" fill="none" stroke="#b3261e" '
            'stroke-width="3"/>'
            '<path d="M30 50L36 24L44 44Z M70 50L64 24L56 44Z" fill="#f2e6c9" '
            'stroke="#222" stroke-width="1.5"/>'
            '<circle cx="50" cy="70" r="27" fill="#c62828" stroke="#222" stroke-width="2"/>'
            '<path d="M34 60L46 64M66 60L54 64" stroke="#222" stroke-width="3"/>'
            '<circle cx="41" cy="68" r="4" fill="#ffd54f"/><circle cx="59" cy="68" r="4" '
            'fill="#ffd54f"/>'
            '<path d="M37 82Q50 92 63 82" fill="none" stroke="#222" stroke-width="3"/>'
            '<path d="M41 84L43 90L45 85M59 84L57 90L55 85" fill="#fff"/>' +
            _text(50, 124, "ONI", 20, "#b3261e"))


def _jizo(paper: str) -> str:
    return (_frame(paper) +
            '<rect x="7" y="7" width="86" height="136" rx="4" fill="none" stroke="#1d3557" '
            'stroke-width="3"/>'
            '<circle cx="50" cy="42" r="13" fill="#b0a89c" stroke="#444" stroke-width="1.5"/>'
            '<path d="M50 55C30 58 28 100 30 104L70 104C72 100 70 58 50 55Z" fill="#9e978b" '
            'stroke="#444" stroke-width="1.5"/>'
            '<path d="M36 70Q50 80 64 70L62 80Q50 88 38 80Z" fill="#c62828"/>'
            '<path d="M44 41Q46 43 48 41M52 41Q54 43 56 41" stroke="#333" fill="none"/>' +
            _text(50, 126, "JIZO", 20, "#1d3557"))


def _numeral_back(base: str, line: str) -> str:
    lattice = "".join(f'<path d="M{x} 10L{x + 40} 140M{x + 40} 10L{x} 140" stroke="{line}" '
                      'stroke-width="1.2" opacity="0.6"/>' for x in range(-30, 100, 20))
    return (_frame(base, "#111") +
            f'<rect x="8" y="8" width="84" height="134" rx="4" fill="none" stroke="{line}" '
            'stroke-width="2"/>'
            '<clipPath id="clip-back"><rect x="10" y="10" width="80" height="130"/></clipPath>'
            f'<g clip-path="url(#clip-back)">{lattice}</g>'
            f'<circle cx="50" cy="75" r="16" fill="{base}" stroke="{line}" stroke-width="2"/>')


def _numbered_deck(deck: Deck, ink: str, accent: str, paper: str) -> dict[str, str]:
    faces: dict[str, str] = {}
    for code, token in deck.tokens.items():
        if code == ONI and deck.name == "daini-40":
            faces[token] = _oni(paper)
        elif code == JIZO and deck.name == "daini-40":
            faces[token] = _jizo(paper)
        else:
            faces[token] = _numeral_card(deck.value(code), ink, accent, paper)
    return faces


# -- hanafuda -----------------------------------------------------------------------------

# month: (background, main colour, second colour)
_MONTH_COLOURS = {
    1: ("#f3ecd6", "#1f5f2e", "#6b4226"), 2: ("#f6ead8", "#c2185b", "#5d4037"),
    3: ("#fbeef0", "#f48fb1", "#8d6e63"), 4: ("#f2eef6", "#7e57c2", "#4e342e"),
    5: ("#eef1f6", "#3f51b5", "#2e7d32"), 6: ("#fbefe9", "#d32f2f", "#2e7d32"),
    7: ("#f5efe4", "#ad1457", "#558b2f"), 8: ("#efe7d6", "#424242", "#c62828"),
    9: ("#f7f1dc", "#f9a825", "#6d4c41"), 10: ("#f9ece4", "#d84315", "#5d4037"),
    11: ("#eaf0e6", "#33691e", "#263238"), 12: ("#f1ecf4", "#6a1b9a", "#558b2f"),
}


def _petals(cx: float, cy: float, r: float, fill: str, n: int = 5) -> str:
    import math

    out = []
    for i in range(n):
        a = 2 * math.pi * i / n
        out.append(f'<circle cx="{cx + r * math.sin(a):.1f}" cy="{cy - r * math.cos(a):.1f}" '
                   f'r="{r * 0.75:.1f}" fill="{fill}"/>')
    out.append(f'<circle cx="{cx}" cy="{cy}" r="{r * 0.45:.1f}" fill="#ffeb3b"/>')
    return "".join(out)


def _motif(month: int) -> str:
    """A simple picture of the month's plant, in the lower part of the card."""
    _, main, second = _MONTH_COLOURS[month]
    if month == 1:  # pine
        return (f'<rect x="46" y="105" width="8" height="35" fill="{second}"/>'
                f'<path d="M20 118L50 88L80 118Z M26 102L50 78L74 102Z M32 88L50 68L68 88Z" '
                f'fill="{main}"/>')
    if month in (2, 3):  # plum, cherry
        branch = (f'<path d="M8 140Q40 110 92 100" stroke="{second}" stroke-width="5" '
                  'fill="none"/>')
        return branch + "".join(_petals(x, y, 6, main) for x, y in
                                ((28, 118), (52, 108), (76, 102), (64, 124), (40, 96)))
    if month == 4:  # wisteria
        out = [f'<path d="M10 60Q50 50 90 60" stroke="{second}" stroke-width="3" fill="none"/>']
        for x in (22, 40, 58, 76):
            out += [f'<ellipse cx="{x}" cy="{y}" rx="{7 - (y - 70) / 14:.1f}" ry="5" '
                    f'fill="{main}"/>' for y in range(70, 130, 11)]
        return "".join(out)
    if month == 5:  # iris
        leaves = "".join(f'<path d="M{x} 140Q{x + 4} 100 {x + 10} 70" stroke="{second}" '
                         'stroke-width="4" fill="none"/>' for x in (20, 40, 60, 74))
        flowers = "".join(f'<path d="M{x} {y}l-9 -12l9 4l9 -4z M{x} {y}l-6 10l6 -4l6 4z" '
                          f'fill="{main}"/>' for x, y in ((30, 80), (56, 92), (76, 74)))
        return leaves + flowers
    if month == 6:  # peony
        return (f'<path d="M20 140Q30 110 50 116Q70 110 80 140Z" fill="{second}"/>' +
                _petals(50, 104, 14, main, 7))
    if month == 7:  # bush clover
        out = [f'<path d="M{x} 140Q{x + 20} 90 {x + 50} 80" stroke="{second}" '
               'stroke-width="2.5" fill="none"/>' for x in (6, 26, 40)]
        out += [f'<circle cx="{x}" cy="{y}" r="3.5" fill="{main}"/>' for x, y in (
            (20, 118), (30, 104), (44, 92), (58, 86), (40, 120), (52, 104), (66, 94),
            (80, 84), (62, 118), (74, 104))]
        return "".join(out)
    if month == 8:  # pampas: a hill under the sky
        grass = "".join(f'<path d="M{x} 140L{x + 6} 112" stroke="#eeeeee" stroke-width="1.5"/>'
                        for x in range(14, 90, 8))
        return f'<path d="M4 140Q50 70 96 140Z" fill="{main}"/>' + grass
    if month == 9:  # chrysanthemum
        return (f'<path d="M50 140L50 112" stroke="{second}" stroke-width="4"/>' +
                _petals(50, 100, 14, main, 12))
    if month == 10:  # maple
        leaf = ("M0 -12L3 -4L11 -7L6 0L12 5L3 4L0 12L-3 4L-12 5L-6 0L-11 -7L-3 -4Z")
        return (f'<path d="M90 70Q60 90 30 140" stroke="{second}" stroke-width="3" '
                'fill="none"/>' +
                "".join(f'<path transform="translate({x} {y})" d="{leaf}" fill="{main}"/>'
                        for x, y in ((70, 84), (50, 104), (76, 112), (32, 90), (40, 126))))
    if month == 11:  # willow in the rain
        lines = "".join(f'<path d="M{x} 16Q{x + 8} 80 {x - 4} 130" stroke="{main}" '
                        'stroke-width="2.5" fill="none"/>' for x in (20, 36, 52, 68, 84))
        return f'<rect x="2" y="100" width="96" height="48" fill="{second}" opacity="0.25"/>' \
            + lines
    # December: paulownia
    return (f'<path d="M22 140Q30 96 50 112Q70 96 78 140Z" fill="{second}"/>'
            f'<path d="M50 66L50 112" stroke="{second}" stroke-width="3"/>' +
            "".join(f'<circle cx="{x}" cy="{y}" r="5" fill="{main}"/>'
                    for x, y in ((50, 70), (42, 80), (58, 80), (50, 88), (38, 92), (62, 92))))


_BLUE_RIBBON = (6, 9, 10)
_POEM_RIBBON = (1, 2, 3)


def _kind_mark(month: int, kind: str) -> str:
    """What tells a card's kind: a bright's sun, an animal, a ribbon; chaff has none."""
    k = kind[0]
    if k == "b":
        return ('<circle cx="50" cy="44" r="22" fill="#d32f2f" stroke="#ffca28" '
                'stroke-width="3"/>'
                '<path d="M50 30L54 41L66 41L56 48L60 59L50 52L40 59L44 48L34 41L46 41Z" '
                'fill="#ffca28"/>')
    if k == "a":
        return ('<g transform="translate(50 50)">'
                '<ellipse cx="0" cy="4" rx="18" ry="10" fill="#4e342e"/>'
                '<circle cx="15" cy="-6" r="7" fill="#4e342e"/>'
                '<path d="M21 -7L29 -4L21 -3Z" fill="#ff8f00"/>'
                '<circle cx="17" cy="-8" r="1.6" fill="#fff"/>'
                '<path d="M-16 0L-30 -8L-24 6Z" fill="#4e342e"/>'
                '<path d="M-6 12L-8 20M6 12L8 20" stroke="#4e342e" stroke-width="2"/></g>')
    if k == "r":
        colour = "#1e4fa3" if month in _BLUE_RIBBON else "#c62828"
        poem = ("" if month not in _POEM_RIBBON else
                '<path d="M0 10L0 18M-1 24L1 30M0 36L0 44" stroke="#111" stroke-width="2.5"/>')
        return (f'<g transform="translate(52 24) rotate(-14)">'
                f'<rect x="-9" y="0" width="18" height="66" fill="{colour}" stroke="#222" '
                f'stroke-width="1"/>{poem}</g>')
    return ""


def _hanafuda_face(month: int, kind: str | None, label: str) -> str:
    bg, main, _ = _MONTH_COLOURS[month]
    top = f'<rect x="5" y="5" width="90" height="140" rx="5" fill="{bg}"/>'
    if month == 8:  # the pampas sky: red for the moon, grey-blue otherwise
        sky = "#c62828" if kind == "b" else "#cfd8dc"
        top += f'<rect x="5" y="5" width="90" height="90" rx="5" fill="{sky}"/>'
        if kind == "b":
            top += '<circle cx="50" cy="50" r="26" fill="#fff8e1"/>'
    mark = "" if kind is None or (month == 8 and kind == "b") else _kind_mark(month, kind)
    word = MONTH_NAMES[month - 1] + (f" · {KIND_WORDS[kind[0]]}" if kind else "")
    return (_frame("#1a1a1a", "#000") + top + _motif(month) + mark +
            f'<rect x="5" y="5" width="{9 * len(label) + 8}" height="20" rx="4" '
            'fill="#1a1a1a"/>' +
            _text(9, 20, label, 15, "#ffffff", font=SANS, anchor="start") +
            f'<rect x="5" y="127" width="90" height="18" rx="4" fill="{main}" opacity="0.9"/>' +
            _text(50, 140, word, 11, "#ffffff", font=SANS))


def _hanafuda_back() -> str:
    return (_frame("#1a1a1a", "#000") +
            '<rect x="7" y="7" width="86" height="136" rx="5" fill="#3b0d0d"/>'
            '<rect x="12" y="12" width="76" height="126" rx="3" fill="#1a1a1a"/>'
            '<circle cx="50" cy="75" r="18" fill="none" stroke="#8e2020" stroke-width="3"/>'
            '<circle cx="50" cy="75" r="8" fill="#8e2020"/>')


def _hanafuda_faces() -> dict[str, str]:
    faces = {}
    for m, kinds in enumerate(HANAFUDA_KINDS, start=1):
        for kind in kinds:
            faces[f"{m}{kind}"] = _hanafuda_face(m, kind, f"{m}{kind}")
    return faces


def _month_faces() -> dict[str, str]:
    """A hanafuda card known by its month only (Kabu-Tsukuri, or a physical Yatchaba card)."""
    return {str(m): _hanafuda_face(m, None, str(m)) for m in range(1, 13)}


# -- Uno Dare -----------------------------------------------------------------------------

_UNO_FILL = {"R": "#d72600", "Y": "#e8b400", "G": "#2f8f1d", "B": "#0956bf"}


def _uno_symbol(kind: str, colour: str) -> str:
    """A Skip or Reverse drawn at the origin, for a transform to place."""
    if kind == "S":
        return (f'<circle r="14" fill="none" stroke="{colour}" stroke-width="5"/>'
                f'<path d="M-10 10L10 -10" stroke="{colour}" stroke-width="5"/>')
    return (f'<path d="M-12 2L-12 -6L6 -6L6 -12L16 -3L6 6L6 0L-6 0L-6 2Z" fill="{colour}"/>'
            f'<path d="M12 -2L12 6L-6 6L-6 12L-16 3L-6 -6L-6 0L6 0L6 -2Z" fill="{colour}" '
            'transform="translate(0 8)"/>')


def _uno_face(token: str) -> str:
    wild = token.startswith("WD")
    fill = "#111" if wild else _UNO_FILL[token[0]]
    base = (_frame("#ffffff", "#555", 1.5) +
            f'<rect x="7" y="7" width="86" height="136" rx="7" fill="{fill}"/>'
            '<ellipse cx="50" cy="75" rx="34" ry="54" transform="rotate(28 50 75)" '
            'fill="#ffffff"/>')
    if wild:
        quarters = "".join(
            f'<path d="M50 75L{x1} {y1}A34 54 0 0 1 {x2} {y2}Z" fill="{c}" '
            'transform="rotate(28 50 75)"/>'
            for c, (x1, y1, x2, y2) in zip(
                _UNO_FILL.values(),
                ((50, 21, 84, 75), (84, 75, 50, 129), (50, 129, 16, 75), (16, 75, 50, 21)),
                strict=True))
        number = token[2:]
        return (_frame("#ffffff", "#555", 1.5) +
                '<rect x="7" y="7" width="86" height="136" rx="7" fill="#111"/>' + quarters +
                '<rect x="18" y="62" width="64" height="26" rx="5" fill="#111" opacity="0.85"/>' +
                _text(50, 81, "DARE " + number, 15, "#ffffff", font=SANS) +
                _text(13, 24, "W", 14, "#ffffff", font=SANS, anchor="start") +
                _text(87, 137, number, 14, "#ffffff", font=SANS, anchor="end"))
    kind = token[1]
    if kind.isdigit():
        centre = _text(50, 95, kind, 56, fill, font=SANS,
                       extra=' stroke="#222" stroke-width="1.5"')
        corner = kind
    elif kind in "SR":
        centre = f'<g transform="translate(50 75) scale(1.6)">{_uno_symbol(kind, fill)}</g>'
        corner = kind
    else:  # a coloured Dare card
        number = token[2:]
        centre = (_text(50, 72, "DARE", 18, fill, font=SANS) +
                  _text(50, 102, number, 30, fill, font=SANS))
        corner = "D" + number
    return (base + centre +
            _text(12, 25, corner, 15, "#ffffff", font=SANS, anchor="start") +
            _text(88, 136, corner, 15, "#ffffff", font=SANS, anchor="end"))


def _uno_back() -> str:
    return (_frame("#ffffff", "#555", 1.5) +
            '<rect x="7" y="7" width="86" height="136" rx="7" fill="#111"/>'
            '<ellipse cx="50" cy="75" rx="30" ry="52" transform="rotate(28 50 75)" '
            'fill="#d72600"/>' +
            _text(50, 72, "UNO", 20, "#ffde00", font=SANS,
                  extra=' transform="rotate(-20 50 75)"') +
            _text(50, 92, "DARE", 15, "#ffffff", font=SANS,
                  extra=' transform="rotate(-20 50 75)"'))


def _blank() -> str:
    return _frame("#ffffff", "#888")


def faces(deck: Deck) -> tuple[dict[str, str], str]:
    """The faces of a deck's cards by token, and its back (SVG bodies)."""
    if deck.name == "kabufuda-39":
        return _numbered_deck(deck, "#1b1b1b", "#b3261e", "#f6efdc"), \
            _numeral_back("#5a1010", "#c9a227")
    if deck.name == "daini-40":
        return _numbered_deck(deck, "#14213d", "#b3261e", "#f4f0e4"), \
            _numeral_back("#14213d", "#c9a227")
    if deck.name == "hanafuda-48":
        return {**_hanafuda_faces(), **_month_faces()}, _hanafuda_back()
    if deck.name == "hanafuda-months":
        return _month_faces(), _hanafuda_back()
    if deck.name == "uno-dare-108":
        return {tok: _uno_face(tok) for tok in deck.tokens.values()}, _uno_back()
    return {tok: _text(50, 80, tok, 20, "#222") for tok in deck.tokens.values()}, _blank()


def symbols(deck: Deck) -> tuple[str, dict[str, str]]:
    """The ``<symbol>`` elements of a deck's cards, its back and a blank face, and each
    token's symbol id."""
    fs, back = faces(deck)
    ids = {tok: symbol_id(tok) for tok in fs}
    parts = [_symbol(ids[tok], body) for tok, body in fs.items()]
    parts.append(_symbol("card-back", back))
    parts.append(_symbol("card-blank", _blank()))
    return "".join(parts), ids
