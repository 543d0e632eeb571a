"""The glossary: glossary.yml, matching terms on English and Chinese text, its check, TBX/CSV."""
