"""The command-line shell: the entry point, the root group and its exit codes, the lazy command group, settings from the environment, the commands, Tab completion and `play`."""
