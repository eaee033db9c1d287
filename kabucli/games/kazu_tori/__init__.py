"""Kazu-Tori: its events, rules, words, bots and table (see kabucli.games for the shape)."""
