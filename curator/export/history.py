"""When each incident file was added and last modified, from one pass over git history.

A rename carries the history along: numbering a placeholder (`IL-NEW-x.yaml` →
`IL-0300.yaml`) keeps the date the incident was first committed. A file deleted and
later restored keeps its first date too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from curator.export.git import FileEvent


class FileDates(NamedTuple):  # (100,000 made at the start of an export)
    added: dt.datetime
    modified: dt.datetime


@dataclass
class History:
    dates: dict[str, FileDates] = field(default_factory=dict)  # files as they are now
    gone: dict[str, FileDates] = field(default_factory=dict)  # deleted; `modified` = deletion


def file_history(events: Iterable[FileEvent]) -> History:
    """Replay the events oldest first; what is left describes the files at the last one."""
    history = History()
    for event in events:
        when = event.commit.time
        if event.status == "D":
            _retire(history, event.path, when)
            continue
        carried = _retire(history, event.old_path, when) if event.old_path else None
        restored = history.gone.pop(event.path, None)
        earlier = carried or history.dates.get(event.path) or restored
        history.dates[event.path] = FileDates(earlier.added if earlier else when, when)
    return history


def _retire(history: History, path: str, when: dt.datetime) -> FileDates | None:
    dates = history.dates.pop(path, None)
    history.gone[path] = FileDates(dates.added if dates else when, when)
    return dates
