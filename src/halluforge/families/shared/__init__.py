"""What several families' generators share: answer kinds, span replacement, donors, plausibility.

- :mod:`.answer_types`: the coarse type of an answer (person, place, date, number, other);
- :mod:`.kinds`: its fine kind (a writer, a river) and the bundled kind lexicon;
- :mod:`.numbers`: numbers in digits or words, and the windows a believable wrong amount or
  date stays inside;
- :mod:`.passage`: where the answer stands in a passage and what the passage says outside it;
- :mod:`.spans`: span replacement, the rule fallback of every evidence edit;
- :mod:`.validate`: parsing a small model's replies and the checks every edited text passes;
- :mod:`.donors`: the pool of same-kind answers and the MiniLM neighbour donors;
- :mod:`.restatements` and :mod:`.conflicts`: whether a passage restates its answer, and
  whether a candidate wrong answer contradicts the rest of the passage;
- :mod:`.wrong_answer`: the one set of checks and fallbacks that picks a plausible wrong answer.

``answer_swap`` and ``counterfactual`` (RECALL) draw their wrong answers through these modules,
so one check serves both.
"""
