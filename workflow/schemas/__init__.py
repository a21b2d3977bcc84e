"""The JSON schemas (written as YAML) of config.yaml, paper.yaml and paper settings; installed with the library as ``reagree.schemas``."""
