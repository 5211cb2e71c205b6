"""`curator review`: what a change to the library does, for the pull-request comment.

build.py turns two revisions into a `Review` (model.py); markdown.py and annotations.py
render it; inert.py keeps data from becoming markup; judge.py connects `similar`/`suggest`.
"""


class ReviewError(Exception):
    """A review cannot be made or read: a bad revision, no git, an unreadable report."""
