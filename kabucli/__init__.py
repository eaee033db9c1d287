"""kabucli: a referee, player, replayer and auditor for traditional Japanese card games."""

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether this installation runs the compiled core: the engine, shuffle, rules and bots
    built by mypyc from the same source (see setup.py), rather than the pure-Python modules."""
    from kabucli import engine

    return not (engine.__file__ or "").endswith(".py")


def build() -> str:
    """``compiled core`` or ``pure Python``: how this installation is built, as printed."""
    return "compiled core" if compiled() else "pure Python"
