"""The one text kit below forging, grounding, metrics and judges.

- :mod:`.answers`: SQuAD answer normalisation and answer spans in a passage (EM and the
  forging checks agree on what an occurrence is);
- :mod:`.sentences`: the one sentence splitter (sentences, or their offsets in a text);
- :mod:`.markup`: the one HTML cleaner;
- :mod:`.dates`: the one month table (names, short forms, numbers) and ordinals.
"""
