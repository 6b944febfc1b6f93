"""``python -m dehlanote``: the console script."""

from ._entry import main

main()
