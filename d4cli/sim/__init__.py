"""The playtest simulator: play an encounter to the end many times in memory, with a stated policy, on a process pool or a Dask cluster, and report its figures."""
