"""``python -m kabucli``."""

from kabucli.cli import main

main()
