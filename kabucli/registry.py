"""The games kabucli plays: registering a game is one line in :data:`GAMES` (its package,
``kabucli/games/<name>/``, with ``-`` written ``_``, holds everything else: see
:mod:`kabucli.games`). Kept apart from that package, which imports the engine and the log
reader, so that the command line can name the games without loading them."""

from __future__ import annotations

GAMES: tuple[str, ...] = ("dare", "kazu-tori", "yatchaba", "uno-dare", "kabu-tsukuri")
ALIASES: dict[str, str] = {"kazutori": "kazu-tori", "unodare": "uno-dare",
                           "kabutsukuri": "kabu-tsukuri"}
