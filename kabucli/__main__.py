"""``python -m kabucli``."""

from kabucli.entry import main

main()
