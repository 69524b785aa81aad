"""``halluforge view``: a local web viewer over run directories, with human annotation."""
