from halluforge.records import Example, FieldProvenance, Provenance, SeedCase


def test_used_llm_only_needs_an_llm_field() -> None:
    source_only = Provenance(fields={"context": FieldProvenance(path="source")})
    mixed = Provenance(
        fields={"expected": FieldProvenance(path="llm"), "context": FieldProvenance(path="fallback")}
    )
    llm = Provenance(
        fields={"expected": FieldProvenance(path="llm"), "context": FieldProvenance(path="source")}
    )
    assert not source_only.used_llm_only
    assert not mixed.used_llm_only
    assert llm.used_llm_only


def test_seed_bucket_follows_the_two_answers() -> None:
    example = Example.build("q", ["a"], "evidence text", source="s")
    seed = SeedCase(
        id="s1", example=example, generator_model="m", closed_book_correct=False, open_book_correct=True
    )
    assert seed.bucket == "closed_wrong_open_right"
    assert SeedCase(id="s2", example=example, generator_model="m").bucket is None


def test_example_ids_hash_their_content() -> None:
    a = Example.build("q", ["a"], "e", source="s")
    assert a.id == Example.build("q", ["a"], "e", source="s").id
    assert a.id != Example.build("q", ["b"], "e", source="s").id


def test_id_maker_gives_the_ids_stable_id_gives() -> None:
    from halluforge.records import id_maker, stable_id

    identity = {"metric": "em", "nli": None, "options": {"b": 1, "a": [1, "é"]}}
    score_id = id_maker("score", tail=(identity,))
    # plain hex ids take the fast path; other strings and values go through json.dumps
    for middle in ("3f2a9c01bb7e4d10", "response with spaces", 'quote " and é', "", 7, None, ["x", 1]):
        assert score_id(middle) == stable_id("score", middle, identity)
    two = id_maker("response", "case-1", tail=())
    assert two("llamacpp/smollm2-135m", "open_book") == stable_id(
        "response", "case-1", "llamacpp/smollm2-135m", "open_book"
    )
    assert id_maker("a", tail=("b",))() == stable_id("a", "b")
    assert id_maker("a", length=8)("x") == stable_id("a", "x", length=8)
