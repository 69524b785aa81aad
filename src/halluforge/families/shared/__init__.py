"""What several families' generators share: answer kinds, span replacement, donors, plausibility.

- :mod:`.answer_types`: the coarse type of an answer (person, place, date, number, other);
- :mod:`.kinds`: its fine kind (a writer, a river) and the bundled kind lexicon;
- :mod:`.validate`: span replacement, answer parsing, the checks every edited text passes;
- :mod:`.donors`: the pool of same-kind answers and the MiniLM neighbour donors;
- :mod:`.restatements` and :mod:`.conflicts`: whether a passage restates its answer, and
  whether a candidate wrong answer contradicts the rest of the passage.

``answer_swap``, ``counterfactual`` (RECALL) and ``false_premise`` (INVITE) draw their wrong
answers through these modules, so one check serves all three.
"""
