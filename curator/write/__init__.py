"""Rewriting incident files without losing anything.

`canonical` renders an incident in the library's one layout through ruamel.yaml's
round-trip mode and refuses any rewrite that would change a value or drop a comment;
`atomic` puts the result in place so that an interrupted run never leaves half a file.
`edits` changes a text character by character, as `curator fix` mends a tab in a file
that YAML cannot read.
"""
