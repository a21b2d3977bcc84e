"""Rule score_mozetic2016_annotators: per annotator of each built language, labels, share,
tweets labelled twice and self-agreement Alpha_int (reagree.stats.selfagreement); the text's
main annotator (most labels) and, where two annotators carry most labels, the paper's
German-style A (lower self-agreement) and B; the share of labels the two busiest annotators
gave (the text's "two of them account for over 40%"). Composition only.
"""
import pandas as pd

from mozetic2016.release import provenance, read_language
from reagree.stats import selfagreement
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table, write_values
from mozetic2016 import keys

with rule_log(snakemake):
    rows, table = [], []
    for language, path in zip(snakemake.params.languages, snakemake.input):
        dataset = language.lower()
        annotations = read_language(path)
        annotators = selfagreement.annotator_self_agreement(annotations)
        rows.append(keys.TOP_ANNOTATORS_LABELS.row(annotations.top_raters_percent(2), language=dataset,
                                                   note="percent of the labels given by the two annotators with "
                                                        "the most"))
        by_labels = sorted(annotators, key=lambda row: (-row["labels"], row["annotator"]))
        named = {"main_annotator": by_labels[0]}
        defined = [row for row in by_labels[:2] if row["alpha_interval"] == row["alpha_interval"]]  # not NaN
        if len(defined) == 2:
            first, second = defined
            lower_first = first["alpha_interval"] <= second["alpha_interval"]
            named["annotator_a"], named["annotator_b"] = (first, second) if lower_first else (second, first)
        for name, row in named.items():
            who = {"language": dataset, "named": name, "note": f"annotator {row['annotator']}"}
            rows.append(keys.ANNOTATOR_ALPHA.row(row["alpha_interval"], **who))
            rows.append(keys.ANNOTATOR_REPEATS.row(row["self_posts"], reading="posts", **who))
            rows.append(keys.ANNOTATOR_REPEATS.row(row["self_pairs"], reading="pairs", **who))
            rows.append(keys.ANNOTATOR_LABELS.row(row["percent_labels"], **who))
        table += [{"language": language, **row, "named": ", ".join(n for n, r in named.items() if r is row)}
                  for row in by_labels]
    write_values(rows, snakemake.output.values, rule=snakemake.rule)
    write_table(pd.DataFrame(table), snakemake.output.table,
                "Mozetič et al. (2016): annotators per language and their self-agreement",
                provenance(snakemake.input, main_annotator="most labels",
                           annotator_a_b="the two with most labels; A has the lower self-agreement"))
