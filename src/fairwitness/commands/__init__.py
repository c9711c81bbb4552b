"""One module per CLI subcommand; each exposes a function that returns an exit code."""
