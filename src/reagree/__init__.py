"""reagree: recompute published inter-annotator agreement numbers from released data.

Statistics live in this package; the Snakemake workflow and its rule scripts only read
inputs, call these functions and write outputs.
"""

# Nothing is re-exported here: import the subpackages by name (reagree.stats, reagree.audit, ...).
__all__ = ["__version__"]

__version__ = "0.1.0"
