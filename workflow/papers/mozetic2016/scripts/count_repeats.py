"""Rule count_mozetic2016_repeats: Table 3 per built dataset: annotators, and the posts
labelled more than once by the same / by different annotators, counted as posts (units)
and as label pairs (sum of m(m-1)/2), each also as a share of all labels
(reagree.stats.selfagreement.repeat_counts). Also the distinct annotators over all 15 files
when all are built (the paper's "83 native speakers"), and then the posts labelled twice of
all 15 files pooled, as a share of their labels (the text's "about 15%"; over their tweets
as a variant). The paper's reading is posts; the
counting and percentage-base variants of it (mozetic2016/variants.py) are written for the
claims diff. Composition only.
"""
import pandas as pd

from mozetic2016.release import LANGUAGES, dataset_paths, display_name, provenance, read_dataset, read_language
from reagree.stats import selfagreement
from reagree.pipeline.rulekit import rule_log
from reagree.pipeline.tables import write_table, write_values
from reagree.pipeline.variantplan import variant_rows, write_variants
from reagree.stats import variants
from mozetic2016 import keys
from mozetic2016.variants import PLAN

with rule_log(snakemake) as log:
    rows, table, variant_table, per_language = [], [], [], []
    for dataset in snakemake.params.datasets:
        annotations = read_dataset(dataset_paths(dataset), dataset)
        counts = selfagreement.repeat_counts(annotations)
        if dataset in {language.lower() for language in LANGUAGES}:
            per_language.append(counts)
        log.info("%s: %s", dataset, counts)
        rows.append(keys.ANNOTATORS.row(counts.annotators, dataset=dataset))
        entry = {"dataset": display_name(dataset), "annotators": counts.annotators, "labels": counts.labels,
                 "tweets": counts.tweets}
        views = {"self": annotations.self_agreement(), "inter": annotations.inter(repeats="first")}
        for kind in ("self", "inter"):
            for reading in ("posts", "pairs"):
                count = getattr(counts, f"{kind}_{reading}")
                rows.append(keys.REPEATS.row(count, kind=kind, dataset=dataset, reading=reading))
                rows.append(keys.REPEATS_PERCENT.row(counts.percent(count), kind=kind, dataset=dataset,
                                                     reading=reading, note="percent of all labels"))
                entry[f"{kind} {reading}"] = count
                entry[f"{kind} {reading} %"] = counts.percent(count)
            # the variants of the paper's reading (posts), for the claims diff
            counted = variants.counting(views[kind].labels_per_unit())
            where = {"kind": kind, "dataset": dataset, "reading": "posts"}
            for family in keys.REPEATS, keys.REPEATS_PERCENT:
                key = family.key(**where)
                for name in PLAN.families_for(key):
                    if name == "counting":
                        found = counted if family is keys.REPEATS else \
                            {variant: counts.percent(count) for variant, count in counted.items()}
                        variant_table += variant_rows(key, name, found, own="count.items")
                    else:
                        found = variants.percentage_bases(counted["count.items"], all_labels=counts.labels,
                                                          all_tweets=counts.tweets)
                        variant_table += variant_rows(key, name, found, own="base.all_labels")
        rows.append(keys.BOTH_REPEATS.row(counts.both_posts, dataset=dataset,
                                          note="tweets with a same-annotator repeat and a second annotator"))
        entry["tweets of both kinds"] = counts.both_posts
        table.append(entry)
    if set(snakemake.params.languages) == set(LANGUAGES):
        annotators = set()
        for path in snakemake.input:
            annotators.update(read_language(path).rater_ids)
        rows.append(keys.ALL_ANNOTATORS.row(len(annotators), note="distinct annotator ids over the 15 language files"))
        pooled = keys.ALL_REPEATS_PERCENT.key()
        rows.append(keys.ALL_REPEATS_PERCENT.row(selfagreement.repeated_share(per_language),
                                                 note="self and inter posts of the 15 files over all their labels"))
        for name in PLAN.families_for(pooled):
            found = {"base.all_labels": selfagreement.repeated_share(per_language, base="labels"),
                     "base.all_tweets": selfagreement.repeated_share(per_language, base="tweets")}
            variant_table += variant_rows(pooled, name, found, own="base.all_labels")
    write_values(rows, snakemake.output.values, rule=snakemake.rule)
    write_variants(variant_table, snakemake.output.variants)
    write_table(pd.DataFrame(table), snakemake.output.table,
                "Mozetič et al. (2016) Table 3: posts labelled twice by the same / by different annotators",
                provenance(snakemake.input, posts="units: (tweet, annotator) with 2+ labels; tweets with 2+ annotators",
                           pairs="sum over units of m (m - 1) / 2", share="percent of all labels"))
