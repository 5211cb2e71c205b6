"""Shared by the source URL rules (IL501, IL505): are all of an incident's source URLs
plain (`curator.urls.is_plain`)? Then neither rule has anything to say of their form: a
plain URL is a usable https URL, and one that `source_url_form.tidy` leaves as it is.
Nearly every URL is plain, and the test is most of what either rule costs, so it is made
once for both."""

from __future__ import annotations

from curator.model import Incident
from curator.rules._last import last_seen
from curator.urls import is_plain


def _all_plain(incident: Incident) -> bool:
    for source in incident.sources:  # noqa: SIM110 - for one or two, cheaper than all()
        if not is_plain(source.url):
            return False
    return True


# Lint runs both rules on one file before the next file, so the second finds the answer
# here; an incident's model is frozen and nothing changes its list of sources.
all_plain = last_seen(_all_plain)
