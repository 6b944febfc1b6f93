"""Work on many records: checking files (:mod:`.check`), the process pool for a large file
(:mod:`.pool`), Dask clusters (:mod:`.distributed`, the ``dask`` extra) and Parquet export
(:mod:`.parquet`, the ``parquet`` extra). Import the submodules you need: the extras are
imported only by theirs."""
