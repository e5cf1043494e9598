"""The encounter file format: TOML documents validated into the fight model and written back (schema 3; schemas 2 and 1 still read), and the bundled examples."""
