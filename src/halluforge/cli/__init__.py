"""The command line: one module per command group, registered in :mod:`halluforge.cli.main`."""
