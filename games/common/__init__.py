"""Small generic helpers the whole site shares, none of them about Okey:

- ``heavy``: pages that compute run in threads of their own, a few at a time per
  client (docs/heavy-pages.md);
- ``pagecache``: rendered fragments kept by their content's digest;
- ``csvsafe``: CSV rows a spreadsheet cannot run as formulas;
- ``jsonsafe``: JSON read within size and depth bounds, then into a strict pydantic model,
  for imports (the importers' one shared parse step).
"""
