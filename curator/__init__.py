"""Tooling for the Incident Library."""

__version__ = "0.1.0"
# `curator export --base-url`'s default, which only feed.atom's ids and links use: a
# placeholder for an export that is not published. The release workflow passes the
# address of the repository's own Pages site instead (docs/export.md, feed.atom).
WEBSITE = "https://incident-library.github.io/"
