"""Kabu-Tsukuri: the game (rules), its events, words, bots, solver and table."""

from kabucli.games.kabu_tsukuri.rules import GAME as GAME
