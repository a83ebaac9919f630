"""One module per ``cosim`` subcommand (see harness/cli.py)."""
