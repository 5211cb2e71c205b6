"""Judgement: possible duplicates (`similar`), facet suggestions (`suggest`) and `search`.

files → records.py (lenient reading) → index.py (text features from text.py, entities from
entities.py; cached by store.py) → similar.py / suggest.py (phrases.py) / search.py →
commands.py (what the CLI prints). docs/judgement.md explains the scores.
"""
