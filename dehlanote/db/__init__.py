"""The archive as a DuckDB database (``dehlanote db``): tables of every fact, views, ratings.

Needs the ``db`` extra (``pip install 'dehlanote[db]'``: duckdb and pyarrow). The schema
is in :mod:`dehlanote.db.schema` and docs/db.md.
"""
