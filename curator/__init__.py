"""Tooling for the Incident Library."""

__version__ = "0.1.0"
# Where the library is published; the export's feed links incident pages under it.
WEBSITE = "https://incident-library.github.io/"
