"""``python -m dehlanote``: the console script."""

from ._entry import main

try:
    main()
finally:
    # Run as ``python -m``, CPython (3.11 here) remembers a Ctrl-C that left code it ran from
    # source text (``exec``: a dataclass being made while a module loads) even when the program
    # caught it, and at exit kills itself with SIGINT in place of the exit status the program
    # chose (130, or 0 when it had finished). Running source text again forgets it.
    exec("None")
