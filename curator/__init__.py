"""Tooling for the Incident Library."""

__version__ = "0.1.0"
