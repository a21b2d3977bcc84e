"""Reading input files: ``reads`` reads a data file once and remembers the sha256 of the
bytes it handed to the parser."""
