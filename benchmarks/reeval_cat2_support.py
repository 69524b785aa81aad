"""Our context_enrich steps on the ReEval authors' 814 RealtimeQA Category 2 examples.

For each example of ``realtime_cat2_retrieve_by_query.json`` (its ``question``, ``evidence``
and ``answer``) the ``context_enrich`` generator runs as in a run: supporting sentence by the
generator model (validated, else the question-overlap fallback), question- and
evidence-focused retrieval from the wiki-offline summaries index, summary, merge. Measured:

- ``support_match``: share of examples whose supporting sentence equals the authors'
  ``supporting_sen`` once both are stripped of quotes and HTML and normalised (lowercase
  words); an example we skip counts as a miss. Also a looser figure (fuzzy ratio >= 0.9).
- ``answer_kept``: share of the forged test cases (up to two per example) whose final
  evidence still contains the gold answer (the share over all 2n slots, skips counting as
  losses, is printed too). About a quarter of these evidences contain no answer at all
  (RealtimeQA answers are paraphrased choices), so those examples are skipped.

Both are split by path: whether the LLM's output was accepted or the fallback produced the
field; the grounding outcome of the summary and the merge (LLM text kept whole, trimmed, or
replaced by the fallback) is counted too. The generator model defaults to the embedded
SmolLM2-135M; responses are cached, so a second run with the same options is fast. The last line is
``support_match=<float> answer_kept=<float> n=<int>``.

    python benchmarks/reeval_cat2_support.py --limit 50
    python benchmarks/reeval_cat2_support.py --support-only   # step 1 alone, all 814
    nohup python benchmarks/reeval_cat2_support.py > cat2.log 2>&1 &
    # two halves in parallel on a 2-core machine, then the whole set again from the cache:
    python benchmarks/reeval_cat2_support.py --limit 407 --threads 1 --cache c.sqlite &
    python benchmarks/reeval_cat2_support.py --start 407 --threads 1 --cache c.sqlite &
    wait; python benchmarks/reeval_cat2_support.py --cache c.sqlite
    # per-case sources (passages' full text) next to each context, to read them by eye:
    python benchmarks/reeval_cat2_support.py --limit 80 --cache c.sqlite --out cat2.jsonl --sources
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from halluforge.backends import ResponseCache, default_cache_path, open_backend
from halluforge.families.context_enrich.generator import ContextEnrich, ContextEnrichOptions
from halluforge.forge.base import ForgeContext
from halluforge.records import Example, SeedCase, Skip, TestCase
from halluforge.textkit.markup import strip_html
from halluforge.textkit.tokens import norm

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / ".." / "shared" / "data" / "reeval" / "realtime_cat2_retrieve_by_query.json"
INDEX_DIR = Path.home() / ".cache" / "halluforge" / "indexes" / "wiki-offline-minilm"


def load_rows(path: Path) -> list[dict[str, Any]]:
    """The raw rows (the authors' supporting_sen is not part of an Example)."""
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def load_examples(path: Path, rows: list[dict[str, Any]]) -> list[Example]:
    """Examples through the project's reeval loader when present, else straight from the rows."""
    try:
        from halluforge.config import DataSource
        from halluforge.data import LOADERS

        loader = LOADERS.get("reeval")
        examples = list(loader(DataSource(loader="reeval", path=str(path))))
        if len(examples) == len(rows):
            return examples
    except Exception as exc:  # the loader is another module's; the benchmark still runs without it
        print(f"reeval loader unavailable ({type(exc).__name__}: {exc}); reading the JSON directly")
    return [
        Example.build(
            row["question"],
            [row["answer"]],
            row["evidence"],
            source="reeval",
            metadata={"q_id": row.get("q_id")},
        )
        for row in rows
    ]


def open_index(path: str = "default") -> Any:
    """The default wiki-offline index (``halluforge.retrieval.default_index``), or a saved index folder."""
    import halluforge.retrieval as retrieval

    if path != "default":
        return retrieval.open_index(path)

    opener = getattr(retrieval, "default_index", None)
    if opener is not None:
        return opener()
    from halluforge.retrieval.corpus import load_wiki_offline
    from halluforge.retrieval.dense import DenseIndex

    if (INDEX_DIR / "manifest.json").is_file():
        return DenseIndex.load(INDEX_DIR)
    index = DenseIndex.build(load_wiki_offline(), corpus_name="wiki-offline")
    index.save(INDEX_DIR)
    return index


def same_sentence(ours: str | None, theirs: str) -> tuple[bool, bool]:
    """(exact match after normalisation, fuzzy match with ratio >= 0.9)."""
    if not ours:
        return False, False
    a, b = norm(strip_html(ours)), norm(strip_html(theirs))
    exact = a == b
    return exact, exact or difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


def figures(results: list[dict[str, Any]]) -> tuple[float, float]:
    """(support match over examples, answer kept over forged test cases); nan when undefined."""
    match = sum(r["support_match"] for r in results) / max(1, len(results))
    forged = [v for r in results for v in r["variants"].values()]
    kept = sum(v["kept"] for v in forged) / len(forged) if forged else float("nan")
    return match, kept


async def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None, help="only the first N examples")
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        help="skip the first N examples (with --limit, a slice: several processes sharing one --cache)",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="llama.cpp threads (1 when several processes share the CPU)"
    )
    parser.add_argument("--model", default="llamacpp/smollm2-135m", help="generator model address")
    parser.add_argument("--cache", type=Path, default=None, help="response cache (default: the user's)")
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument(
        "--merge", choices=("llm", "extractive"), default="llm", help="context_enrich merge option"
    )
    parser.add_argument("--concurrency", type=int, default=4, help="examples forged at once")
    parser.add_argument(
        "--index",
        default="default",
        help="'default' (wiki-offline + MiniLM) or a folder from `halluforge index build`",
    )
    parser.add_argument("--every", type=int, default=25, help="print running figures every N examples")
    parser.add_argument(
        "--support-only", action="store_true", help="only the supporting-sentence step (no retrieval)"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="write per-example results as JSON lines, as they finish"
    )
    parser.add_argument(
        "--sources",
        action="store_true",
        help="with --out: also write each test case's sources (question, evidence, summary, the retrieved "
        "passages' full text), to read a context against what it was made from",
    )
    args = parser.parse_args()

    if not args.data.is_file():
        print(f"no data at {args.data}")
        sys.exit(2)
    rows = load_rows(args.data)
    examples = load_examples(args.data, rows)
    end = args.limit if args.limit else len(rows)
    rows, examples = rows[args.start : end], examples[args.start : end]

    started = time.perf_counter()
    resources: dict[str, Any] = {}
    if not args.support_only:
        index = open_index(args.index)
        resources["retriever"] = index
        print(f"index: {len(index)} passages, opened in {time.perf_counter() - started:.1f}s", flush=True)
    cache = ResponseCache(args.cache or default_cache_path())
    llm = open_backend(args.model, {"n_threads": args.threads} if args.threads else {}, cache)
    generator = ContextEnrich(ContextEnrichOptions(k=args.k, merge=args.merge))
    ctx = ForgeContext(llm=llm, seed=0, resources=resources)
    # passage id -> text, to write the retrieved passages with --sources (an index keeps its passages)
    texts = {p.id: p.text for p in getattr(resources.get("retriever"), "passages", [])}
    if args.sources and not args.out:
        print("--sources writes into the --out file: give --out too")
        sys.exit(2)
    if args.sources and not texts:
        print("--sources needs an index that keeps its passages (run without --support-only)")
        sys.exit(2)
    limit = asyncio.Semaphore(args.concurrency)
    results: list[dict[str, Any]] = [{} for _ in rows]
    if args.out:
        args.out.write_text("", encoding="utf-8")

    async def one(i: int) -> None:
        example = examples[i]
        seed = SeedCase(
            id=f"cat2-{i}",
            example=example,
            generator_model=llm.name,
            closed_book_correct=False,
            open_book_correct=True,
        )
        async with limit:
            if args.support_only:
                answers = [a for a in example.answers if a.strip()]
                step = await generator.support(
                    ctx, example.question, strip_html(example.evidence or ""), answers
                )
                made: list[TestCase | Skip] = []
                support = step.text
                support_path = step.provenance.path if step.text else "skipped"
            else:
                made = await generator.forge_one(seed, ctx)
        cases = [m for m in made if isinstance(m, TestCase)]
        if not args.support_only:
            support = cases[0].metadata["support"] if cases else None
            support_path = cases[0].provenance.fields["support"].path if cases else "skipped"
        exact, fuzzy = same_sentence(support, rows[i]["supporting_sen"])
        variants = {
            c.variant: {
                "kept": c.checks["context_has_answer"],
                "context_path": c.provenance.fields["context"].path,
                "summary_path": c.provenance.fields["summary"].path,
                "grounding": c.metadata.get("grounding", {}),
                "context": c.context,
            }
            for c in cases
        }
        if args.sources:
            for c in cases:
                variants[c.variant].update(
                    case_id=c.id,
                    question=c.question,
                    evidence=c.original_context,
                    summary=c.metadata["summary"],
                    passages=[
                        {"id": p["id"], "title": p["title"], "text": texts.get(p["id"])}
                        for p in c.metadata["passages"]
                    ],
                )
        results[i] = {
            "q_id": rows[i].get("q_id"),
            "support": support,
            "support_path": support_path,
            "authors_support": rows[i]["supporting_sen"],
            "support_match": exact,
            "support_fuzzy": fuzzy,
            "variants": variants,
            "skips": [m.reason for m in made if not isinstance(m, TestCase)],
        }
        if args.out:  # one line per finished example, so an interrupted run keeps what it did
            with args.out.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(results[i], ensure_ascii=False) + "\n")
        done = [r for r in results if r]
        if len(done) % args.every == 0:
            match, kept = figures(done)
            print(
                f"{len(done)}/{len(rows)} examples, {time.perf_counter() - started:.0f}s: "
                f"support_match={match:.4f} answer_kept={kept:.4f}",
                flush=True,
            )

    await asyncio.gather(*(one(i) for i in range(len(rows))))
    await llm.aclose()
    cache.close()

    n = len(results)
    by_path: Counter[str] = Counter(r["support_path"] for r in results)
    match_by_path: Counter[str] = Counter(r["support_path"] for r in results if r["support_match"])
    fuzzy = sum(r["support_fuzzy"] for r in results)
    kept: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for r in results:
        for variant in ("question", "evidence"):
            info = r["variants"].get(variant)
            path = info["context_path"] if info else "skipped"
            total[path] += 1
            kept[path] += bool(info and info["kept"])
    summary_paths = Counter(v["summary_path"] for r in results for v in r["variants"].values())
    for step in ("summary", "context"):  # grounding: LLM text kept whole, trimmed, or replaced
        outcomes = Counter(
            v["grounding"].get(step, {}).get("outcome", "?") for r in results for v in r["variants"].values()
        )
        print(f"grounding of the {step} (test cases): {dict(sorted(outcomes.items()))}")
    print(f"elapsed {time.perf_counter() - started:.0f}s for {n} examples with {args.model}")
    print("supporting sentence by path (matches / examples):")
    for path, count in sorted(by_path.items()):
        print(f"  {path:9s} {match_by_path[path]:4d} / {count:4d} = {match_by_path[path] / count:.3f}")
    print(f"  fuzzy (ratio >= 0.9) match: {fuzzy / n:.3f}")
    print(f"summary by path (test cases): {dict(summary_paths)}")
    print("answer kept in the final evidence by merge path (kept / test cases):")
    for path, count in sorted(total.items()):
        print(f"  {path:9s} {kept[path]:4d} / {count:4d} = {kept[path] / count:.3f}")
    support_match, answer_kept = figures(results)
    with_support = [r for r in results if r["support"]]
    forged_total = sum(count for path, count in total.items() if path != "skipped")
    print(
        f"examples with a supporting sentence: {len(with_support)}/{n}; match among them: "
        f"{sum(r['support_match'] for r in with_support) / max(1, len(with_support)):.3f}"
    )
    print(
        f"test cases forged: {forged_total}/{2 * n}; answer kept over all {2 * n} slots: "
        f"{sum(kept.values()) / (2 * n):.3f}"
    )
    print(f"support_match={support_match:.4f} answer_kept={answer_kept:.4f} n={n}")


if __name__ == "__main__":
    asyncio.run(main())
