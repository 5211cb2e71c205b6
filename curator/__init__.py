"""Tooling for the Incident Library."""

__version__ = "0.1.0"
# Where the release workflow publishes the exports; the feed links their files under it.
WEBSITE = "https://incident-library.github.io/"
