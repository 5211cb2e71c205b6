"""The rule registry: the list below is the whole of it. Codes are public API, never reused.

Lint runs the modules with `check` (one file) and `check_library` (the whole library);
two are checked where lint reads the file (IL001, IL107). IL9xx rules judge a
change between two revisions, which `curator review` runs (`CHANGE_RULES`).
"""

from types import ModuleType

from curator.rules import (
    bare_mention,
    bom,
    comment_in_text,
    crlf,
    dangling_reference,
    deprecated_term,
    duplicate_cycle,
    duplicate_id,
    duplicate_key,
    empty_file,
    encoding,
    facet_order,
    file_too_large,
    forbidden_construct,
    id_format,
    id_matches_filename,
    incident_removed,
    internal_error,
    invisible_characters,
    list_item_in_text,
    narrative_missing,
    no_tabs,
    not_an_incident_file,
    not_in_korean,
    occurred_in_future,
    placeholder_id,
    schema,
    shared_source_url,
    source_url,
    source_url_form,
    taxonomy_inconsistent,
    taxonomy_invalid,
    trailing_whitespace,
    unicode_nfc,
    unknown_term,
    withdrawn_fields,
    yaml_syntax,
)

ALL: tuple[ModuleType, ...] = (
    internal_error,
    yaml_syntax,
    duplicate_key,
    encoding,
    file_too_large,
    forbidden_construct,
    empty_file,
    not_an_incident_file,
    comment_in_text,
    list_item_in_text,
    schema,
    id_format,
    id_matches_filename,
    duplicate_id,
    withdrawn_fields,
    placeholder_id,
    unknown_term,
    deprecated_term,
    taxonomy_invalid,
    taxonomy_inconsistent,
    facet_order,
    dangling_reference,
    narrative_missing,
    duplicate_cycle,
    not_in_korean,
    source_url,
    shared_source_url,
    occurred_in_future,
    bare_mention,
    source_url_form,
    no_tabs,
    trailing_whitespace,
    crlf,
    bom,
    unicode_nfc,
    invisible_characters,
    incident_removed,
)
FILE_RULES = tuple(m for m in ALL if hasattr(m, "check"))
LIBRARY_RULES = tuple(m for m in ALL if hasattr(m, "check_library"))
CHANGE_RULES = (incident_removed,)
# A finding with one of these codes means the file could not be read as an incident, so
# the rules that need one (terms, references, narrative, sources, mentions) did not run.
STOPPING = frozenset({"IL101", "IL103", "IL104", "IL105", "IL106", "IL201", "IL202"})


def documentation(module: ModuleType) -> str:
    return (module.__doc__ or "").strip()
