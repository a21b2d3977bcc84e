"""The ``reagree`` command: the library's pieces without Snakemake.

    reagree fetch URL DEST [--sha256 HEX] [--mirror DIR]
    reagree claims workflow/papers/<id>/paper.yaml results/<id>/values.tsv [-o claims.tsv]

The full rebuild is ``snakemake --cores 4`` (see README.md).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from reagree import __version__


def _fetch(args: argparse.Namespace) -> int:
    from reagree.fetch import FetchError, fetch

    try:
        digest = fetch(args.url, args.dest, sha256=args.sha256, mirror=args.mirror)
    except FetchError as error:
        print(f"reagree fetch: {error}", file=sys.stderr)
        return 1
    print(f"{digest}  {args.dest}")
    return 0


def _claims(args: argparse.Namespace) -> int:
    from reagree.claims import diff_claims
    from reagree.paperspec import load_paper
    from reagree.tables import read_values, write_tsv

    schema = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "paper.schema.yaml"
    if args.schema:
        schema = Path(args.schema)
    paper = load_paper(args.paper, schema)
    table = diff_claims(paper["claims"], read_values(args.values))
    if args.output:
        write_tsv(table, args.output)
    else:
        table.to_csv(sys.stdout, sep="\t", index=False)
    counts = table["status"].value_counts().to_dict()
    print(f"{paper['id']}: {counts}", file=sys.stderr)
    return 1 if counts.get("missing") else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reagree", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"reagree {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    fetch = commands.add_parser("fetch", help="copy or download one source, sha256-checked, atomically")
    fetch.add_argument("url")
    fetch.add_argument("dest")
    fetch.add_argument("--sha256")
    fetch.add_argument("--mirror", help="offline mirror folder laid out by URL")
    fetch.set_defaults(run=_fetch)

    claims = commands.add_parser("claims", help="diff a values.tsv against a paper.yaml's claims")
    claims.add_argument("paper")
    claims.add_argument("values")
    claims.add_argument("-o", "--output")
    claims.add_argument("--schema", help="paper schema (default: the checkout's workflow/schemas)")
    claims.set_defaults(run=_claims)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        return args.run(args)
    except (ValueError, OSError) as error:
        print(f"reagree {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
