"""dehlanote: record and check Dehla Pakad games in DPN, the Dehla Pakad Notation."""

__version__ = "0.1.0"
