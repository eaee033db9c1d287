"""The games kabucli plays: registering a game is one line in :data:`GAMES` (its package,
``kabucli/games/<name>/``, with ``-`` written ``_``, holds everything else: see
:mod:`kabucli.games`). Kept apart from that package, which imports the engine and the log
reader, so that the command line can name the games without loading them."""

from __future__ import annotations

GAMES: tuple[str, ...] = ("dare", "kazu-tori", "yatchaba", "uno-dare", "kabu-tsukuri")
ALIASES: dict[str, str] = {"kazutori": "kazu-tori", "unodare": "uno-dare",
                           "kabutsukuri": "kabu-tsukuri"}


def game_key(name: str) -> str:
    """``name`` as a registered game's name would be, if it names one: in lower case, '-'
    for '_' or spaces between words, an alias replaced (``kabucli.games.canonical`` refuses a
    key that is no game's). Only a space, a tab or '_' separates, and only ASCII is lowered
    (Python's split() takes '\x1c' or '\x85' for a space, and lower() makes the Kelvin sign a
    'k'): a name holding anything else is its own key."""
    if not name.isascii():
        return name
    key = "-".join(w for w in name.replace("_", " ").replace("\t", " ").split(" ") if w).lower()
    return ALIASES.get(key, key)
