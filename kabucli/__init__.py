"""kabucli: a referee, player, replayer and auditor for traditional Japanese card games."""

__version__ = "0.1.0"
