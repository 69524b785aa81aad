"""DoLa decoding (Chuang et al. 2023, "Decoding by Contrasting Layers"), our own small module.

RECALL (§4) tries DoLa as an inference-time mitigation. transformers had it built in up to
4.55 (``generate(dola_layers=...)``); from 4.56 it moved to remote code on the model hub
(``custom_generate="transformers-community/dola"`` with ``trust_remote_code``), which fails
offline. This module decodes greedily with DoLa over a causal LM's hidden states, one token per
step, as the paper and the former built-in describe:

1. **Layer set** (:func:`candidate_layers`): the premature-layer candidates, indices into the
   model's hidden states (0 = embeddings, N = the last block). ``"low"`` is ``range(s, N//2,
   2)`` and ``"high"`` ``range(N//2, N, 2)`` for N <= 40 layers (``range(s, 20, 2)`` and
   ``range(N-20, N, 2)`` beyond), with s = 2 when the input and output embeddings are tied, else
   0; a list is taken as given, entries >= N dropped.
2. **Divergence choice** (:func:`choose_premature`): the output head is applied to each
   candidate's raw hidden state, and the candidate whose next-token distribution has the largest
   Jensen-Shannon divergence from the final layer's is chosen, per step.
3. **Plausibility cut** (:func:`relative_top_filter`): tokens whose final-layer probability is
   below ``relative_top`` times the most likely token's are ruled out; the next token maximises
   ``log p_final - log p_premature`` over the rest (:func:`contrast`).

Token log-probabilities are the final layer's (raw, before contrasting), so confidence figures
stay comparable with ordinary decoding. A ``repetition_penalty`` above 1 divides (or multiplies,
for negative logits) the contrasted scores of tokens already generated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

LayerSpec = str | Sequence[int]


def candidate_layers(n_layers: int, layers: LayerSpec, *, tied_embeddings: bool) -> list[int]:
    """The premature-layer candidates for a model with ``n_layers`` blocks (see the module notes)."""
    if isinstance(layers, str):
        start = 2 if tied_embeddings else 0
        if layers == "low":
            found = range(start, n_layers // 2, 2) if n_layers <= 40 else range(start, 20, 2)
        elif layers == "high":
            found = range(n_layers // 2, n_layers, 2) if n_layers <= 40 else range(n_layers - 20, n_layers, 2)
        else:
            raise ValueError(f"dola_layers must be 'low', 'high' or a list of layer indices, got {layers!r}")
        return list(found)
    return [int(i) for i in layers if 0 <= int(i) < n_layers]


def jensen_shannon(final_logits: Any, premature_logits: Any) -> Any:
    """Jensen-Shannon divergence of two logit rows' distributions (mean over the vocabulary).

    ``0.5 * KL(p || m) + 0.5 * KL(q || m)`` with ``m = (p + q) / 2``, as the DoLa paper defines
    it (transformers' former built-in summed ``KL(m || p)`` terms instead; the chosen layer is
    usually the same). The mean over the vocabulary only rescales, so the choice is unchanged.
    """
    import torch
    from torch.nn import functional

    log_p = functional.log_softmax(final_logits, dim=-1)
    log_q = functional.log_softmax(premature_logits, dim=-1)
    log_m = torch.log(0.5 * (log_p.exp() + log_q.exp()))
    kl_p = (log_p.exp() * (log_p - log_m)).mean(-1)
    kl_q = (log_q.exp() * (log_q - log_m)).mean(-1)
    return 0.5 * (kl_p + kl_q)


def choose_premature(final_logits: Any, candidates: Mapping[int, Any]) -> tuple[int, dict[int, float]]:
    """The candidate layer whose logits diverge most from the final layer's, with every divergence."""
    divergences = {layer: float(jensen_shannon(final_logits, logits)) for layer, logits in candidates.items()}
    chosen = max(divergences, key=lambda layer: (divergences[layer], -layer))
    return chosen, divergences


def relative_top_filter(
    final_logits: Any, premature_logits: Any, relative_top: float = 0.1, min_tokens: int = 1
) -> tuple[Any, Any, Any]:
    """(final log-probs, premature log-probs, kept mask) after the adaptive plausibility cut.

    A token is kept when its final-layer log-probability is at least ``log(relative_top)``
    above the best token's (and the ``min_tokens`` best are always kept); the others get
    ``-inf`` in the final row and a small constant in the premature row, as DoLa does.
    """
    import torch
    from torch.nn import functional

    final = functional.log_softmax(final_logits, dim=-1)
    premature = functional.log_softmax(premature_logits, dim=-1)
    best = final.max(dim=-1, keepdim=True).values
    kth = torch.sort(final, descending=True, dim=-1).values[..., min_tokens - 1 : min_tokens]
    threshold = torch.minimum(best + math.log(relative_top), kth)
    keep = final >= threshold
    final = final.masked_fill(~keep, float("-inf"))
    premature = premature.masked_fill(~keep, -1e-3)
    return final, premature, keep


def contrast(final_logits: Any, premature_logits: Any, relative_top: float = 0.1) -> Any:
    """The contrasted scores ``log p_final - log p_premature`` over the plausible tokens."""
    from torch.nn import functional

    if relative_top > 0:
        final, premature, _ = relative_top_filter(final_logits, premature_logits, relative_top)
    else:
        final, premature = (
            functional.log_softmax(final_logits, dim=-1),
            functional.log_softmax(premature_logits, dim=-1),
        )
    return final - premature


def _head(model: Any) -> Any:
    head = model.get_output_embeddings()
    if head is None:
        raise ValueError("DoLa needs a model with an output embedding (a causal LM head)")
    return head


def tied(model: Any) -> bool:
    """Whether the model's input and output embeddings share weights."""
    head, embed = model.get_output_embeddings(), model.get_input_embeddings()
    return head is not None and embed is not None and head.weight is embed.weight


def dola_step(model: Any, outputs: Any, layers: Sequence[int], relative_top: float) -> tuple[Any, Any, int]:
    """(contrasted scores, final-layer logits, chosen layer) for the last position of ``outputs``."""
    head = _head(model)
    final = outputs.logits[:, -1, :].float()
    hidden = outputs.hidden_states
    candidates = {layer: head(hidden[layer][:, -1, :]).float() for layer in layers}
    chosen, _ = choose_premature(final[0], {k: v[0] for k, v in candidates.items()})
    return contrast(final, candidates[chosen], relative_top), final, chosen


def cache_argument(model: Any) -> str:
    """The name under which this model's forward takes and returns its key/value cache.

    transformers 5.24 renamed ``past_key_values`` to ``cache`` (the old name warns and goes in
    5.40); older releases know only ``past_key_values``, so ask the signature rather than the
    version.
    """
    import inspect

    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"


def dola_generate(
    model: Any,
    input_ids: Any,
    *,
    layers: LayerSpec = "high",
    max_new_tokens: int = 32,
    relative_top: float = 0.1,
    repetition_penalty: float = 1.0,
    eos_token_ids: Sequence[int] = (),
) -> tuple[list[int], list[float], list[int]]:
    """Greedy DoLa decoding of one prompt: (new token ids, final-layer log-probs, chosen layers)."""
    import torch
    from torch.nn import functional

    n_layers = int(model.config.num_hidden_layers)
    chosen_set = candidate_layers(n_layers, layers, tied_embeddings=tied(model))
    if not chosen_set:
        raise ValueError(f"dola_layers {layers!r} selects no layer of this {n_layers}-layer model")
    ids: list[int] = []
    logprobs: list[float] = []
    picked: list[int] = []
    past = None
    step_input = input_ids
    cache_name = cache_argument(model)
    with torch.inference_mode():
        for _ in range(max_new_tokens):
            outputs = model(
                input_ids=step_input, use_cache=True, output_hidden_states=True, **{cache_name: past}
            )
            past = getattr(outputs, cache_name)
            scores, final, layer = dola_step(model, outputs, chosen_set, relative_top)
            if repetition_penalty != 1.0 and ids:
                seen = torch.tensor(sorted(set(ids)))
                values = scores[0, seen]
                scores[0, seen] = torch.where(
                    values < 0, values * repetition_penalty, values / repetition_penalty
                )
            token = int(scores[0].argmax())
            ids.append(token)
            logprobs.append(float(functional.log_softmax(final[0], dim=-1)[token]))
            picked.append(layer)
            if token in eos_token_ids:
                break
            step_input = torch.tensor([[token]], device=input_ids.device)
    return ids, logprobs, picked


__all__ = [
    "LayerSpec",
    "candidate_layers",
    "choose_premature",
    "contrast",
    "dola_generate",
    "dola_step",
    "jensen_shannon",
    "relative_top_filter",
    "tied",
]
