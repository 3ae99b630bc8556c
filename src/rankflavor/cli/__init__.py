"""The command-line front: thin wrappers over the library calls."""
