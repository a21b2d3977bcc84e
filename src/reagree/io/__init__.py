"""Reading input files into the arrays ``reagree.stats`` computes on.

What this package decides: how a table on disk or in memory becomes labels keyed by id
(``annotations``: CSV or TSV by extension or sniffed, the text encoding, long and wide
layouts, unit and rater id columns read as text, categories and occasions), what a
malformed file is told (one line naming the file, the line and the column), and that a
data file is read once with the sha256 of the bytes handed to the parser remembered
(``reads``). Nothing here computes a coefficient; ``reagree.stats`` never reads a file.
"""

__all__ = ["annotations", "reads"]
