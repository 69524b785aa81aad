"""The load stage: read every data source, apply the filters, store examples and ready-made cases."""

from __future__ import annotations

from halluforge.config import DataSource
from halluforge.data import LOADERS, ready_family
from halluforge.errors import ConfigError, DataError
from halluforge.limits import DEFAULT_MAX_TEXT_CHARS, check_json_value, text_limit, text_problem
from halluforge.records import Example, FieldProvenance, Provenance, Skip, TestCase, stable_id
from halluforge.stages.context import RunContext, StageCounts


def check_example_text(example: Example, position: int, where: str) -> None:
    """Every text of one loaded example within the bounds of :mod:`halluforge.limits`.

    The loaders that read rows check each row with its line; this is the net under every other
    loader (bundled files, Hugging Face datasets, knowledge bases), naming the example's place.
    """
    texts = [("question", example.question), ("evidence", example.evidence), ("title", example.title)]
    texts += [(f"answers[{i}]", a) for i, a in enumerate(example.answers)]
    for field, text in texts:
        problem = None if text is None else text_problem(text)
        if problem is not None:
            raise DataError(f"example {position}: {problem[0]}", path=where, field=field, hint=problem[1])
    check_json_value(example.metadata, path=f"{where}: example {position} metadata")


def read_source(source: DataSource, max_text_chars: int = DEFAULT_MAX_TEXT_CHARS) -> list[Example]:
    """Every example of one data source, up to its ``limit``; an empty source is an error.

    No text longer than ``max_text_chars`` (the run's ``limits.max_text_chars``), nor a NUL
    character or a lone surrogate, gets past this point.
    """
    if source.loader != "bundled" and not source.path:
        raise ConfigError(f"data source with loader {source.loader!r} has no path", hint="add path: FILE")
    loader = LOADERS.get(source.loader)
    with text_limit(max_text_chars):
        examples = list(loader(source))
        if source.limit is not None:
            examples = examples[: source.limit]
        for position, example in enumerate(examples, start=1):
            check_example_text(example, position, source.path or source.loader)
    if not examples:
        raise DataError("no examples", path=source.path or source.loader, hint="check the file and fields")
    return examples


def ready_case(family: str, example: Example) -> TestCase:
    """A test case taken as it is from a source (e.g. ReEval's released Category 1 file).

    A loader that knows more of the case (RGB's options and original passages) passes those
    test-case fields in ``metadata["case"]``.
    """
    metadata = dict(example.metadata)
    fields = dict(metadata.pop("case", None) or {})
    provenance = Provenance(
        fields={
            "context": FieldProvenance(path="source", method=example.source),
            "expected": FieldProvenance(path="source", method=example.source),
        }
    )
    case = TestCase(
        id=stable_id("ready", family, example.id),
        family=family,
        question=example.question,
        context=example.evidence,
        expected=list(example.answers),
        parent_example=example.id,
        provenance=provenance,
        checks={"from_source": True},
        metadata={"source": example.source, **metadata},
    )
    return TestCase.model_validate({**case.model_dump(), **fields}) if fields else case


async def load_stage(ctx: RunContext) -> StageCounts:
    """Store the examples to forge from, the ready-made test cases, and every filtered-out item."""
    from halluforge.data.filters import apply_filters

    ctx.progress.start("load", len(ctx.config.data))
    examples: list[Example] = []
    ready: list[TestCase] = []
    skips: list[Skip] = []
    for index, source in enumerate(ctx.config.data):
        loaded = read_source(source, ctx.config.limits.max_text_chars)
        family = ready_family(source)
        if family:
            spec = ctx.families[family]
            for case in (ready_case(family, e) for e in loaded):
                spec.check_metadata(case)
                ready.append(case)
        else:
            kept, dropped = apply_filters(loaded, ctx.config.filters)
            examples.extend(kept)
            skips.extend(dropped)
        ctx.progress.update("load", index + 1)
    ctx.store.put(examples)
    ctx.store.put(ready)
    ctx.store.put(skips)
    ctx.progress.finish("load")
    return {"examples": len(examples), "ready_test_cases": len(ready), "load_skips": len(skips)}


__all__ = ["load_stage", "read_source", "ready_case"]
