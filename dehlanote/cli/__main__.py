"""``python -m dehlanote.cli``."""

from . import main

main()
