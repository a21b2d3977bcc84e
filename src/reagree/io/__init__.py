"""Reading input files into the arrays ``reagree.stats`` computes on.

What this package decides: how a table on disk or in memory becomes labels keyed by id
(``annotations``: CSV or TSV by extension or sniffed, the text encoding, long and wide
layouts, unit and rater id columns read as text, categories and occasions), and what a
malformed file is told (one line naming the file, the line and the column). Nothing here
computes a coefficient; ``reagree.stats`` never reads a file.
"""
