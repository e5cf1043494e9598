"""The encounter file format: TOML documents validated into the fight model and written back (schema 2; schema 1 still read), and the bundled examples."""
