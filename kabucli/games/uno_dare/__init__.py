"""Uno Dare: UNO with Dare and Wild Dare cards (see ``rules.py``)."""

from kabucli.games.uno_dare.rules import GAME as GAME
