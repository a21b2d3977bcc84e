"""The reagree command: the library's pieces without Snakemake.

The full rebuild is `snakemake --cores 4` (or `make all`); see README.md.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from pathlib import Path

from reagree import __version__
from reagree.files import MAX_TABLE_BYTES, human_bytes

__all__ = ["AUDIT_DESCRIPTION", "DESCRIPTION", "EPILOG", "main"]

DESCRIPTION = """\
reagree recomputes published inter-annotator agreement numbers from released data and
diffs each one against the value the paper printed.

The whole pipeline runs with Snakemake from a checkout: `make all`, or
`snakemake --cores 4` (add `--configfile ../shared/offline.yaml` on a machine without
network). These subcommands do single steps of it by hand.
"""

AUDIT_DESCRIPTION = """\
Read TABLE (CSV or TSV: the separator comes from the extension, else from the header
line) and print its design; every pair of raters (n, agreement, Cohen's kappa, what a
model that copies one rater scores against the other); Fleiss' kappa on the units every
rater labelled; Krippendorff's alpha at every level that applies; PABAK; Gwet's AC1;
per-category Fleiss kappa and specific agreement; the majority-vote ties and how the tie
rule broke them; and a bootstrap interval for each coefficient.

Undefined numbers (one rater, one category, no unit with two ratings) are reported with
their reason, exit code 0. A table that cannot be read exits with 2.

With more than 20 raters the pairs that share a unit get values without intervals and
the terminal summarises them (every pair is in --json and --out); beyond 50,000 pairs of
raters (or 50 million pairs of ratings on shared units) no pairs are computed, and the
audit says so. Everything else grows with the number of ratings only.
"""

EPILOG = """\
examples:
  reagree fetch https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH data/x.tsv --sha256 HEX
  reagree claims workflow/papers/ID/paper.yaml results/ID/values.tsv
  reagree explain KEY --paper ID                       (one claim of the last build: every variant tried)
  reagree mirror /media/usb/reagree-mirror          (then: make all CONFIG=... with mirror: /media/usb/reagree-mirror)
  reagree accept PAPER runs/run1.json HEX            (take the new version of an input that changed upstream)
  reagree audit examples/triage_wide.csv --format wide --unit ticket --majority lead --order low,medium,high,urgent
  reagree new-paper smith2027                        (then fill in workflow/papers/smith2027/ and add it to papers:)
  reagree new-paper smith2027 --document paper.txt   (the same, with a ledger of every number paper.txt prints)
  reagree scan paper.txt -o numbers.tsv               (every number a text prints: place, value, precision, kind)

`reagree SUBCOMMAND --help` explains each one.
"""


def _fetch_defaults() -> dict:
    from reagree.pipeline.settings import load_schema, schema_path

    properties = load_schema(schema_path("config"))["properties"]["fetch"]["properties"]
    return {key: spec["default"] for key, spec in properties.items()}


def _fetch(args: argparse.Namespace) -> int:
    from reagree.files import check_output
    from reagree.pipeline.fetch import FetchError, fetch

    check_output(args.dest)
    try:
        digest = fetch(
            args.url, args.dest, sha256=args.sha256, mirror=args.mirror, timeout=args.timeout, retries=args.retries
        )
    except FetchError as error:
        print(f"reagree fetch: {error}", file=sys.stderr)
        return 1
    print(f"{digest}  {args.dest}")
    return 0


def _paper_package(folder: Path, paper_id: str):
    """The paper's key grammar and variant plan, importing its package from its folder
    (None, None when the folder holds no package)."""
    from reagree.pipeline.paper import paper_code

    if not (folder / paper_id / "__init__.py").is_file():
        return None, None
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    paper = paper_code(paper_id)
    return paper.keys, paper.variants


def _claims(args: argparse.Namespace) -> int:
    from reagree.files import check_output
    from reagree.pipeline.claims import diff_claims
    from reagree.pipeline.paperspec import load_paper
    from reagree.pipeline.settings import fill_defaults, load_schema, paper_settings_schema
    from reagree.pipeline.sources import expansion_values
    from reagree.pipeline.tables import read_values, write_tsv
    from reagree.pipeline.variantplan import read_variants

    if args.output:
        check_output(args.output)
    paper = load_paper(args.paper, args.schema)
    folder = Path(args.paper).resolve().parent
    settings_schema = paper_settings_schema(folder.parent.parent, paper["id"])
    settings = fill_defaults({}, load_schema(settings_schema)) if settings_schema else {}
    keys, plan = _paper_package(folder, paper["id"])
    table = diff_claims(
        paper["claims"],
        read_values(args.values),
        paper["id"],
        settings,
        expansion_values(paper, settings),
        variants=read_variants(args.variants) if args.variants else None,
        families_for=plan.families_for if plan and args.variants else None,
        declared=keys.family_of if keys else None,
    )
    if args.output:
        write_tsv(table, args.output)
    else:
        table.to_csv(sys.stdout, sep="\t", index=False)
    counts = table["status"].value_counts().to_dict()
    print(f"{paper['id']}: {counts}", file=sys.stderr)
    return 1 if counts.get("missing") else 0


def _root(args: argparse.Namespace) -> Path:
    """--root when given, else the checkout at or above the working folder (reagree.pipeline.checkout)."""
    from reagree.pipeline.checkout import project_root

    return Path(args.root).resolve() if args.root is not None else project_root()


def _explain(args: argparse.Namespace) -> int:
    from reagree.pipeline.explain import explain

    root = _root(args) if args.results is None else None
    results = args.results if args.results is not None else root / "results"
    if root is not None:  # a variant family of a paper's own is described by the paper's package
        for folder in sorted((root / "workflow" / "papers").glob("*")):
            if (folder / folder.name / "__init__.py").is_file() and str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
    print(explain(args.key, results, args.paper), end="")
    return 0


def _read_config(args: argparse.Namespace) -> tuple[dict, Path]:
    from reagree.pipeline.settings import resolve_config
    from reagree.pipeline.yamlio import load_yaml

    from reagree.pipeline.settings import check_config_files

    root = _root(args)
    config: dict = {}
    check_config_files([root / "config.yaml", *map(Path, args.configfile or [])])
    for path in [root / "config.yaml", *map(Path, args.configfile or [])]:
        loaded = load_yaml(path) or {}
        if not isinstance(loaded, dict):
            raise ValueError(f"{path}: a config file is a mapping")
        for key, value in loaded.items():
            if isinstance(value, dict) and isinstance(config.get(key), dict):
                config[key] = {**config[key], **value}
            else:
                config[key] = value
    if args.papers:
        config["papers"] = args.papers.split(",")
    return resolve_config(config, root / "workflow"), root


def _mirror(args: argparse.Namespace) -> int:
    from reagree.pipeline.documents import paper_documents
    from reagree.pipeline.fetch import FetchError, fetch, mirror_path
    from reagree.pipeline.paper_registry import load_enabled_papers, paper_files
    from reagree.pipeline.progress import progress
    from reagree.pipeline.tables import sha256_of

    config, root = _read_config(args)
    papers = load_enabled_papers(config["papers"], root / "workflow")
    files = [(paper_id, f) for paper_id, items in paper_files(papers, config).items() for f in items]
    files += [(paper_id, f) for paper_id, items in paper_documents(papers, config).items() for f in items]
    source = Path(args.mirror).resolve() if args.mirror else None
    if source is not None and source == Path(args.dest).resolve():
        raise ValueError("--mirror names the folder being written; give another mirror to copy from")
    local = [(paper_id, item) for paper_id, item in files if not item["url"]]
    files = [(paper_id, item) for paper_id, item in files if item["url"]]
    for paper_id, item in local:  # a mirror is laid out by URL; a file on this machine travels with its path
        print(
            f"reagree mirror: {paper_id}: {item['name']} is the local file {item['path']}, not a download; "
            "not mirrored",
            file=sys.stderr,
        )
    failures = 0
    for paper_id, item in progress(files, desc="mirror", unit="file"):
        dest = mirror_path(item["url"], args.dest)
        if dest.is_file() and item["sha256"] and sha256_of(dest) == item["sha256"]:
            digest = item["sha256"]
        else:
            try:
                digest = fetch(
                    item["url"],
                    dest,
                    sha256=item["sha256"],
                    mirror=source,
                    timeout=config["fetch"]["timeout"],
                    retries=config["fetch"]["retries"],
                    log=logging.getLogger("reagree.pipeline.fetch").debug,
                )
            except FetchError as error:
                print(f"reagree mirror: {paper_id}: {error}", file=sys.stderr)
                failures += 1
                continue
        pin = "pinned" if item["sha256"] else "recorded"
        print(f"{digest}  {dest.relative_to(args.dest)}  ({paper_id}, {pin})")
    print(f"reagree mirror: {len(files) - failures} of {len(files)} files in {args.dest}", file=sys.stderr)
    return 1 if failures else 0


def _accept(args: argparse.Namespace) -> int:
    from reagree.pipeline.documents import document_entries, with_documents
    from reagree.pipeline.pins import accept
    from reagree.pipeline.settings import load_schema, paper_folders, paper_settings_schema
    from reagree.pipeline.sources import pinned_names, source_names
    from reagree.pipeline.yamlio import load_yaml

    root = _root(args)
    known = paper_folders(root / "workflow")
    if args.paper not in known:
        raise ValueError(f"{args.paper!r} is not a paper folder under {root / 'workflow' / 'papers'}; papers: {known}")
    if (args.name is None) == (not args.all):
        raise ValueError("name one input (NAME [SHA256]) or give --all, not both")
    paper_yaml = root / "workflow" / "papers" / args.paper / "paper.yaml"
    paper = load_yaml(paper_yaml) or {}
    settings_schema = paper_settings_schema(root / "workflow", args.paper)
    schema = load_schema(settings_schema) if settings_schema else None
    names = with_documents(
        source_names({**paper, "id": args.paper}, schema, str(paper_yaml)), args.paper, paper, schema
    )
    pins = pinned_names(paper) | pinned_names({"sources": document_entries(args.paper, paper, {})})
    for line in accept(args.paper, args.name, args.sha256, names=names, pins=pins, data=root / "data"):
        print(line)
    return 0


def _bootstrap_schema() -> dict:
    from reagree.pipeline.settings import load_schema, schema_path

    return load_schema(schema_path("config"))["properties"]["bootstrap"]["properties"]


def _bootstrap_defaults() -> dict:
    return {key: spec["default"] for key, spec in _bootstrap_schema().items()}


def _dataset_defaults() -> dict:
    """The defaults of a dataset's fields (config.yaml's datasets), the audit's options' too:
    each default lives in the schema alone."""
    from reagree.pipeline.settings import load_schema, schema_path

    fields = load_schema(schema_path("config"))["properties"]["datasets"]["additionalProperties"]["properties"]
    return {key: spec["default"] for key, spec in fields.items() if "default" in spec}


def _byte_count(text: str) -> int:
    """A byte count as given on the command line: 1000, 500K, 500M, 8G (K, M, G: powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)(?:i?B)?\s*", text, flags=re.IGNORECASE)
    if not match or int(match.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of bytes, e.g. 1000000, 500M or 8G")
    return int(match.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[match.group(2).lower()]


def _check_audit_options(args: argparse.Namespace) -> None:
    """The bootstrap options, each refused in one line naming it (before any file is read)."""
    most = _bootstrap_schema()["draws"]["maximum"]
    if not 0 <= args.bootstrap <= most:
        raise ValueError(
            f"--bootstrap {args.bootstrap}: give 0 (no intervals) to {most:,} resamples, the cap "
            "config.yaml's bootstrap.draws has too (time and memory grow with the draws)"
        )
    if args.seed < 0:
        raise ValueError(f"--seed {args.seed}: a seed is a whole number 0 or more")
    if not 0 < args.ci_level < 1:
        raise ValueError(f"--ci-level {args.ci_level:g}: an interval level lies strictly between 0 and 1 (e.g. 0.95)")
    if args.top < 0:
        raise ValueError(f"--top {args.top}: give 0 or more items to list")
    from reagree.io.annotations import NotTextEncoding, text_codec

    try:
        text_codec(args.encoding)
    except NotTextEncoding as error:
        raise ValueError(f"--encoding {error}") from None
    except ValueError:  # an unknown name: the reader says so, naming the file
        pass
    if args.repeats is not None and args.format == "wide":
        raise ValueError(
            f"--repeats {args.repeats} applies to the long format (a rater's several labels on one "
            "unit); a wide table has one cell per rater and unit, so there is nothing to choose: leave "
            "--repeats out"
        )


def _audit(args: argparse.Namespace) -> int:
    from reagree.audit import audit_file, render_screen, render_text, to_json, write_outputs
    from reagree.files import UnsafePath, check_output, kind_of
    from reagree.pipeline.tables import write_text_atomic

    _check_audit_options(args)
    if args.json:  # before the audit: a refused output wastes no work
        check_output(args.json)
    if args.out and kind_of(args.out) is not None and not Path(args.out).is_dir():
        raise UnsafePath(
            f"{args.out} is {kind_of(args.out)}, not a folder: --out names the folder the audit's files "
            "are written to; nothing was written"
        )
    result = audit_file(
        args.table,
        layout=args.format,
        unit=args.unit,
        rater=args.rater,
        label=args.label,
        raters=args.raters,
        order=args.order,
        majority=args.majority,
        level=args.level,
        tie_rule=args.tie_rule,
        draws=args.bootstrap,
        seed=args.seed,
        ci_level=args.ci_level,
        ci_scheme=args.ci_scheme,
        encoding=args.encoding,
        repeats=args.repeats,
        max_bytes=args.max_bytes,
        design=args.design,
        weights=args.weights,
    )
    print(render_text(result, max_items=args.top) if args.full else render_screen(result, max_items=args.top), end="")
    if args.json:
        write_text_atomic(args.json, to_json(result))
        print(f"\nwrote {args.json}")
    if args.out:
        write_outputs(result, args.out)
        print(f"wrote {args.out}/: audit.json, audit.txt, items.csv, tables/*.tsv and .md, and the figures")
    return 0


def _new_paper(args: argparse.Namespace) -> int:
    from reagree.pipeline.scaffold import next_steps, scaffold_paper

    created = scaffold_paper(
        _root(args), args.paper_id, title=args.title, cite=args.cite, document=args.document, raters=args.design
    )
    for path in created:
        print(f"created {path}")
    print(next_steps(args.paper_id, document=args.document))
    return 0


def _scan(args: argparse.Namespace) -> int:
    from reagree.pipeline.scan import scan_document, scan_tsv
    from reagree.pipeline.tables import write_text_atomic

    numbers = scan_document(args.document)
    text = scan_tsv(numbers)
    if args.output:
        write_text_atomic(args.output, text)
        print(f"reagree scan: {len(numbers)} numbers printed in {args.document}; wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _parser() -> argparse.ArgumentParser:
    fetch_defaults = _fetch_defaults()
    parser = argparse.ArgumentParser(
        prog="reagree", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"reagree {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")

    fetch = commands.add_parser(
        "fetch",
        help="copy or download one file, sha256-checked, written atomically",
        description="Download URL to DEST (or copy it from an offline mirror), check its sha256 when given, "
        "and write it atomically: on any failure DEST is not created.",
    )
    fetch.add_argument("url", help="the http(s) URL of the file")
    fetch.add_argument(
        "dest",
        help="where to write it (a regular file or a new path: a link, a device, a FIFO or a folder there is refused)",
    )
    fetch.add_argument("--sha256", metavar="HEX", help="expected sha256 (64 hex digits); a mismatch is an error")
    fetch.add_argument(
        "--mirror",
        metavar="DIR",
        help="copy from this offline mirror (https://HOST/PATH -> DIR/HOST/PATH) instead of the network",
    )
    fetch.add_argument(
        "--timeout",
        type=float,
        default=fetch_defaults["timeout"],
        metavar="SECONDS",
        help="seconds per network operation (default: %(default)s, as config.yaml's fetch.timeout)",
    )
    fetch.add_argument(
        "--retries",
        type=int,
        default=fetch_defaults["retries"],
        metavar="N",
        help="attempts in total for transient failures (default: %(default)s)",
    )
    fetch.set_defaults(run=_fetch)

    claims = commands.add_parser(
        "claims",
        help="diff a values.tsv against a paper's printed numbers",
        description="Join the claims of PAPER (its paper.yaml and claim tables) with the computed VALUES and "
        "print one row per claim with its status (match, within tolerance, holds, consistent, mismatch, "
        "inconsistent, uncheckable, not recomputed, not built, not comparable, missing). Exit code 1 when a claim is missing a value.",
    )
    claims.add_argument("paper", help="a paper's paper.yaml, e.g. workflow/papers/ID/paper.yaml")
    claims.add_argument("values", help="the paper's values.tsv, e.g. results/ID/values.tsv")
    claims.add_argument(
        "-o",
        "--output",
        metavar="TSV",
        help="write the claims table here instead of stdout (a regular "
        "file or a new path: a link, a device, a FIFO or a folder there is refused)",
    )
    claims.add_argument("--schema", metavar="YAML", help="a paper schema to use instead of reagree's own")
    claims.add_argument(
        "--variants",
        metavar="TSV",
        nargs="+",
        help="the paper's variants files (results/ID/variants/*.tsv): fill explained_by",
    )
    claims.set_defaults(run=_claims)

    explain = commands.add_parser(
        "explain",
        help="one claim of the last build: printed value, reagree's value, every variant tried",
        description="Print, for the claim(s) under KEY in the last build (results/): the printed value and its "
        "precision, reagree's value and status, the rule and function that computed it, every variant "
        "the paper's rules tried for the key with its value and whether it reproduces the printed "
        "value, and what explains a mismatch. Reads results/ID/claims.tsv and variants/*.tsv; nothing is "
        "recomputed (run `make all` first).",
    )
    explain.add_argument("key", metavar="KEY", help="a claim key, as in the key column of results/ID/claims.tsv")
    explain.add_argument("--paper", metavar="ID", help="the paper (default: every paper built under results/)")
    explain.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        help="the reagree checkout (default: the one holding this folder, looked for upward)",
    )
    explain.add_argument(
        "--results", default=None, metavar="DIR", help="the build's results folder (default: results/ of the checkout)"
    )
    explain.set_defaults(run=_explain)

    mirror = commands.add_parser(
        "mirror",
        help="make an offline mirror of every source of the configured papers",
        description="Materialise every source the configured papers need, laid out by URL "
        "(https://HOST/PATH -> DEST/HOST/PATH), the documents their ledgers read too, checking each "
        "pinned sha256 and printing the sha256 "
        "of every file. Carry DEST to a machine without network and point `mirror:` at it. "
        "Run from a reagree checkout (or pass --root).",
    )
    mirror.add_argument("dest", help="the mirror folder to fill (created if absent; files already right are kept)")
    mirror.add_argument("--mirror", metavar="SRC", help="copy from another mirror instead of downloading")
    mirror.add_argument(
        "--configfile",
        action="append",
        metavar="YAML",
        help="merged over ROOT/config.yaml, as snakemake --configfile does (repeatable)",
    )
    mirror.add_argument("--papers", metavar="ID,ID", help="only these papers (default: config.yaml's papers)")
    mirror.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        help="the reagree checkout (default: the one holding this folder, looked for upward)",
    )
    mirror.set_defaults(run=_mirror)

    accept = commands.add_parser(
        "accept",
        help="take a new version of an input that changed since it was first fetched",
        description="A source without a pinned sha256 is pinned on first use: its sha256 is recorded in "
        "data/PAPER.sha256 when it is first fetched, and a run whose input has other bytes stops, "
        "naming this command. It records SHA256 (or, without it, the bytes of data/PAPER/NAME as they "
        "are; with neither, it forgets the record and the next run records what it fetches) and makes "
        "the next run rebuild everything that read the file. --all does so for every unpinned input "
        "of PAPER.",
    )
    accept.add_argument("paper", metavar="PAPER", help="the paper id (a folder of workflow/papers/)")
    accept.add_argument(
        "name",
        metavar="NAME",
        nargs="?",
        help="the input under data/PAPER/ as the paper's sources "
        "name it, e.g. runs/run1.json (a name no source of PAPER produces is refused)",
    )
    accept.add_argument(
        "sha256", metavar="SHA256", nargs="?", help="the sha256 of the version to take (the run's message names it)"
    )
    accept.add_argument("--all", action="store_true", help="every unpinned input of PAPER")
    accept.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        help="the reagree checkout (default: the one holding this folder, looked for upward)",
    )
    accept.set_defaults(run=_accept)

    bootstrap_defaults, dataset_defaults = _bootstrap_defaults(), _dataset_defaults()
    audit = commands.add_parser(
        "audit",
        help="agreement on your own annotation table: pairs, coefficients, intervals, ties",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=AUDIT_DESCRIPTION + f"\nTABLE must be a regular file of at most {human_bytes(MAX_TABLE_BYTES)} "
        "(--max-bytes raises the bound).\n",
        epilog="examples:\n"
        "  reagree audit labels.csv                               (long: columns unit, rater, label)\n"
        "  reagree audit labels.tsv --unit item --rater coder --label code --level nominal\n"
        "  reagree audit wide.csv --format wide --unit id --majority gold --tie-rule prefer:neutral\n"
        "  reagree audit scores.csv --format wide --unit id --level ordinal --order low,medium,high "
        "--json audit.json --out audit/",
    )
    audit.add_argument("table", help="the annotation table, CSV or TSV")
    audit.add_argument(
        "--format",
        choices=["long", "wide"],
        default=dataset_defaults["format"],
        help="long: one row per rating (unit, rater, label columns); wide: one row per unit, one "
        "column per rater, an empty cell is a missing rating (default: %(default)s)",
    )
    audit.add_argument(
        "--unit", default=dataset_defaults["unit"], metavar="COL", help="the column of unit ids (default: %(default)s)"
    )
    audit.add_argument(
        "--rater",
        default=dataset_defaults["rater"],
        metavar="COL",
        help="long format: the column of rater ids (default: %(default)s)",
    )
    audit.add_argument(
        "--label",
        default=dataset_defaults["label"],
        metavar="COL",
        help="long format: the column of labels (default: %(default)s)",
    )
    audit.add_argument(
        "--raters",
        metavar="COL,COL",
        help="wide format: the rater columns (default: every column but --unit and --majority)",
    )
    audit.add_argument(
        "--encoding",
        default=dataset_defaults["encoding"],
        metavar="NAME",
        help="the file's text encoding, e.g. latin-1, or cp1252 for a file saved on Windows (default: %(default)s)",
    )
    audit.add_argument(
        "--repeats",
        choices=["first", "last", "drop"],
        default=None,
        help="long format: which label counts when a rater labelled a unit more than once: their "
        "first (in file order), their last, or drop (none of them where they differ) "
        "(default: first; refused with --format wide, which has one cell per rater and unit)",
    )
    audit.add_argument(
        "--level",
        choices=["nominal", "ordinal", "interval", "ratio"],
        default=dataset_defaults["level"],
        help="the measurement level the reading uses; alpha is also printed at every other level "
        "that applies, nominal always (default: %(default)s)",
    )
    audit.add_argument(
        "--order",
        metavar="A,B,C",
        help="the categories in order (needed for ordinal text labels; numbers are ordered "
        "numerically without it); a label outside the list is an error",
    )
    audit.add_argument(
        "--tie-rule",
        default=dataset_defaults["tie_rule"],
        metavar="RULE",
        help="how a majority-vote tie is broken: drop (no label), random (seeded by --seed), "
        "prefer:LABEL (LABEL wins the ties it is part of), or neutral / polar on a "
        "negative,neutral,positive scale (default: %(default)s)",
    )
    audit.add_argument(
        "--majority",
        metavar="COL",
        help="wide format: a column holding an existing majority label per unit; the audit shows "
        "how it broke the ties and where it differs from the plurality",
    )
    audit.add_argument(
        "--bootstrap",
        type=int,
        default=bootstrap_defaults["draws"],
        metavar="N",
        help="bootstrap resamples of the units per interval, 0 for none, at most 100,000 "
        "(default: %(default)s, as config.yaml's bootstrap.draws)",
    )
    audit.add_argument(
        "--seed",
        type=int,
        default=bootstrap_defaults["seed"],
        metavar="S",
        help="seed of the resamples and of the random tie rule (default: %(default)s)",
    )
    audit.add_argument(
        "--ci-level",
        type=float,
        default=bootstrap_defaults["level"],
        metavar="L",
        help="interval level (default: %(default)s)",
    )
    audit.add_argument(
        "--ci-scheme",
        choices=["percentile", "numpy"],
        default="percentile",
        help="how the resamples are drawn and the ends read: percentile (multinomial counts of "
        "the units' rating rows; order statistics) or numpy (one rng.integers(0, n, n) per "
        "draw; numpy.percentile's interpolation, as write-ups that bootstrapped with numpy "
        "did) (default: %(default)s)",
    )
    audit.add_argument(
        "--design",
        choices=["fixed", "interchangeable"],
        default=None,
        help="fixed: the same named raters labelled the units (pairs of raters, Conger's kappa); "
        "interchangeable: any rater may stand behind any column on any unit (no pairs by "
        "name). Default: inferred (fixed when at least half of the units x raters cells hold "
        "a rating), and said",
    )
    audit.add_argument(
        "--weights",
        metavar="W,W",
        default=None,
        help="weight schemes of the weighted coefficients (AC2, Brennan-Prediger, Fleiss, Conger, "
        "percent agreement, weighted Cohen per pair) for ordered labels: linear, quadratic, "
        "ordinal, radical, ratio, circular, bipolar (default: linear,quadratic)",
    )
    audit.add_argument(
        "--top",
        type=int,
        default=10,
        metavar="N",
        help="the N most disputed items in the text (every disputed item is in items.csv and the "
        "JSON; default: %(default)s)",
    )
    audit.add_argument(
        "--max-bytes",
        type=_byte_count,
        default=None,
        metavar="BYTES",
        help="the most bytes read of TABLE, e.g. 500M or 8G; a larger file is refused, as is a TABLE "
        "that is not a regular file (a device, a FIFO, a folder) "
        f"(default: {human_bytes(MAX_TABLE_BYTES)})",
    )
    audit.add_argument(
        "--full",
        action="store_true",
        help="print everything: every rater, the pairs, analytic SEs and p, weighted coefficients, the "
        "ICC, per category and the ties (default: one screen, the most important first; --json "
        "and --out always hold everything)",
    )
    audit.add_argument(
        "--json",
        metavar="OUT",
        help="also write every number as JSON to OUT (a regular file or a new "
        "path: a link, a device, a FIFO or a folder there is refused)",
    )
    audit.add_argument(
        "--out",
        metavar="DIR",
        help="also write audit.json, audit.txt, items.csv (the disputed items), the tables (TSV "
        "and Markdown) and the figures (coefficients, leave one rater out, pairs, confusions) "
        "to DIR",
    )
    audit.set_defaults(run=_audit)

    new_paper = commands.add_parser(
        "new-paper",
        help="scaffold workflow/papers/ID/ for a new paper",
        description="Create workflow/papers/ID/ in the pattern every paper follows: paper.yaml, "
        "settings.schema.yaml, claims/paper.tsv, rules.smk, report/*.rst, scripts/compute_values.py "
        "and plot_agreement.py, and the paper's package ID/ (__init__.py: PAPER; release.py: its "
        "reader; keys.py, variants.py, internal.py, plots.py), each with one working example and "
        "comments saying what to fill in. Nothing is registered: the paper is built "
        "once ID is added to papers: in config.yaml. docs/adding-a-paper.md walks through an example.",
    )
    new_paper.add_argument(
        "paper_id", metavar="ID", help="the paper id: lowercase letters, digits and _, e.g. smith2027"
    )
    new_paper.add_argument("--title", default=None, help="the paper's title (default: a TODO to fill in)")
    new_paper.add_argument("--cite", default=None, help="how to cite it (default: a TODO to fill in)")
    new_paper.add_argument(
        "--root",
        default=None,
        metavar="DIR",
        help="the reagree checkout (default: the one holding this folder, looked for upward)",
    )
    new_paper.add_argument(
        "--document",
        metavar="FILE",
        default=None,
        help="the paper's text (UTF-8 text or Markdown; convert a PDF first): declared under "
        "documents: in paper.yaml, every number it prints written to ID/ledger.tsv as "
        "unreviewed, and a draft claim for each that looks like a result to "
        "ID/draft_claims.tsv",
    )
    new_paper.add_argument(
        "--design",
        choices=["fixed", "interchangeable"],
        default="fixed",
        help="fixed: the same named raters labelled every unit (Cohen's kappa per pair, Fleiss' "
        "kappa, alpha); interchangeable: any rater may stand behind a column on any unit, "
        "Fleiss' 1971 design (Fleiss' kappa and alpha, no pairs). Default: fixed, the design "
        "of the one-column-per-rater table the scaffold reads; no count of such a table can "
        "tell the two apart, so say interchangeable when a column is not one person",
    )
    new_paper.set_defaults(run=_new_paper)

    scan = commands.add_parser(
        "scan",
        help="every number a text prints: line, column, printed text, value, precision, kind",
        description="List every number DOCUMENT (UTF-8 text or Markdown) prints, one TSV row each: its line and "
        "column (1-based, in characters), the printed text exactly, its value and printed precision "
        "(decimals), its unit (%%), its form (numeral, scientific, date, word, ordinal), a guess of its "
        "kind (coefficient, interval_end, percent, p_value, count, ratio, number, date, reference, "
        "citation, setting, code, formula), the other end of a range or a +- pair, and the words "
        "around it. The rules (which words count, what is a name) are reagree.pipeline.scan's "
        "docstring. A paper's ledger (ledger.tsv) accounts for every row.",
    )
    scan.add_argument("document", metavar="DOCUMENT", help="a text or Markdown file")
    scan.add_argument("-o", "--output", metavar="TSV", help="write the table here instead of stdout")
    scan.set_defaults(run=_scan)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        return args.run(args)
    except (ValueError, OSError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"reagree {args.command}: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
