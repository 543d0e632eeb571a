"""Translation quality: paragraph checks and the glossary (pure; used by check and the build).

The paragraph checks compare each block's original with its translation after masking what is
not prose (code, math, URLs, HTML). The glossary (``glossary.yml`` next to ``mkdocs.yml``) is
matched on both sides. Codes: DZ401-DZ439 paragraph checks, DZ440-DZ459 the glossary.
"""
