"""The package's version, in the ground layer: every layer may name it (the HTML pages'
footer, the command line's ``--version``) without importing the package's public facade."""

__version__ = "0.1.0"
