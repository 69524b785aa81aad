"""The one text kit below forging, grounding, metrics and judges.

Every rule that reads text goes through these modules, so that two parts of the tree never
disagree about what a word, a stop word, a sentence or an answer is:

- :mod:`.tokens`: :func:`~.tokens.words`, the one tokenizer (case-folded runs of letters and
  digits), :func:`~.tokens.norm`, and :data:`~.tokens.WRITTEN_WORD` (a word as written, for
  the checks that look at capitals);
- :mod:`.stopwords`: the one stop-word list, the articles, :func:`~.stopwords.content_words`;
- :mod:`.overlap`: word Jaccard and :func:`~.overlap.restates`, the one restatement test;
- :mod:`.answers`: the one answer normaliser (SQuAD's) and answer spans in a passage;
- :mod:`.sentences`: the one sentence splitter (sentences or their offsets);
- :mod:`.markup`: the one HTML cleaner;
- :mod:`.dates`: the one month table, and ordinals.

It imports nothing else from halluforge. What changed when the copies were merged, with the
figures it moved: ``docs/textkit.md``.
"""
