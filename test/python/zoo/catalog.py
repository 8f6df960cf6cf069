"""The model zoo: families of `transformers` (from PyTorch's dynamo benchmark
list of Hugging Face models) and `torchvision`, built from configs with random
weights (nothing is downloaded), scaled down to train in seconds on a CPU.

Proportions stay realistic: sequences of 128 tokens or more, the families'
own dropout (on: the models train), heads of 16 features, feed-forward 4x
the width. All transformers share one width, so inductor compiles many
kernels once for the whole zoo.

    from catalog import ZOO
    spec = ZOO["gpt2"]
    model = spec.build()                      # seeded: the same weights each time
    loss = spec.loss(model, spec.batch(step=0))

Used by test/python/zoo/test_zoo.py and bench/python/zoo.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import torch
import torch.nn.functional as F

WIDTH = 64
HEADS = 4
FEED_FORWARD = 4 * WIDTH
LAYERS = 2
VOCAB = 1024
BATCH = 2
SEQUENCE = 128
# The second input size of the variable-size case.
OTHER_SEQUENCE = 160


@dataclasses.dataclass(frozen=True)
class ZooModel:
    """How to build, feed and train one model of the zoo.

    `build()` returns the model in training mode with seeded weights;
    `batch(step, size)` the inputs of one step (seeded by the step), at the
    default size (tokens, or image side) when `size` is None; `loss(model,
    batch)` runs the (possibly compiled) model and returns the loss."""

    name: str
    source: str  # "transformers" or "torchvision"
    make: Callable[[], torch.nn.Module]
    inputs: Callable[[torch.Generator, int], dict[str, torch.Tensor]]
    size: int
    other_size: int
    loss_of: Callable[[Any, dict[str, torch.Tensor]], torch.Tensor]
    # In test_zoo.py (else only in bench/python/zoo: a near copy of a family
    # the suite has, left out to keep the suite within CI's time).
    in_suite: bool = True

    def build(self) -> torch.nn.Module:
        torch.manual_seed(0)
        model = self.make()
        model.train()
        return model

    def batch(self, step: int, size: int | None = None) -> dict[str, torch.Tensor]:
        generator = torch.Generator().manual_seed(1000 + step)
        return self.inputs(generator, self.size if size is None else size)

    def loss(self, model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        return self.loss_of(model, batch)


# -- inputs -------------------------------------------------------------------


def tokens(generator: torch.Generator, length: int) -> dict[str, torch.Tensor]:
    ids = torch.randint(0, VOCAB, (BATCH, length), generator=generator)
    return {"input_ids": ids, "labels": ids}


def masked_tokens(generator: torch.Generator, length: int) -> dict[str, torch.Tensor]:
    """BERT-style: labels only at the 15% of positions that are masked."""
    ids = torch.randint(1, VOCAB, (BATCH, length), generator=generator)
    masked = torch.rand((BATCH, length), generator=generator) < 0.15
    masked[:, 0] = True  # at least one label per row
    return {"input_ids": ids.masked_fill(masked, 0), "labels": ids.masked_fill(~masked, -100)}


def translation(generator: torch.Generator, length: int) -> dict[str, torch.Tensor]:
    source = torch.randint(0, VOCAB, (BATCH, length), generator=generator)
    target = torch.randint(0, VOCAB, (BATCH, length // 2), generator=generator)
    return {"input_ids": source, "labels": target}


def images(side: int, classes: int = 10):
    def make(generator: torch.Generator, size: int) -> dict[str, torch.Tensor]:
        return {
            "pixel_values": torch.randn((BATCH, 3, size, size), generator=generator),
            "labels": torch.randint(0, classes, (BATCH,), generator=generator),
        }

    return make


def speech(generator: torch.Generator, frames: int) -> dict[str, torch.Tensor]:
    """Whisper: log-mel features of `frames` frames (its encoder halves them)."""
    return {
        "input_features": torch.randn((BATCH, 16, frames), generator=generator),
        "labels": torch.randint(0, VOCAB, (BATCH, 32), generator=generator),
    }


# -- losses -------------------------------------------------------------------


def hf_loss(model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """Hugging Face models compute their own loss from `labels`."""
    return model(**batch).loss


def classifier_loss(model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    return F.cross_entropy(model(batch["pixel_values"]), batch["labels"])


# -- the families -------------------------------------------------------------


def _hf(class_name: str, config_name: str, **config: Any) -> Callable[[], torch.nn.Module]:
    def make() -> torch.nn.Module:
        import transformers

        settings = getattr(transformers, config_name)(**config)
        return getattr(transformers, class_name)(settings)

    return make


_DECODER = dict(vocab_size=VOCAB, hidden_size=WIDTH, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                intermediate_size=FEED_FORWARD, max_position_embeddings=512, attention_dropout=0.1)
_ENCODER = dict(vocab_size=VOCAB, hidden_size=WIDTH, num_hidden_layers=LAYERS, num_attention_heads=HEADS,
                intermediate_size=FEED_FORWARD, max_position_embeddings=512)
_SEQ2SEQ = dict(vocab_size=VOCAB, d_model=WIDTH, encoder_layers=LAYERS, decoder_layers=LAYERS,
                encoder_attention_heads=HEADS, decoder_attention_heads=HEADS, encoder_ffn_dim=FEED_FORWARD,
                decoder_ffn_dim=FEED_FORWARD, max_position_embeddings=512, dropout=0.1, attention_dropout=0.1,
                decoder_start_token_id=2, pad_token_id=1)


def _torchvision(name: str, **kwargs: Any) -> Callable[[], torch.nn.Module]:
    def make() -> torch.nn.Module:
        import torchvision

        return getattr(torchvision.models, name)(weights=None, **kwargs)

    return make


def _torchvision_vit() -> torch.nn.Module:
    from torchvision.models.vision_transformer import VisionTransformer

    return VisionTransformer(image_size=96, patch_size=8, num_layers=LAYERS, num_heads=HEADS, hidden_dim=WIDTH,
                             mlp_dim=FEED_FORWARD, dropout=0.1, attention_dropout=0.1, num_classes=10)


def _models() -> list[ZooModel]:
    text = dict(size=SEQUENCE, other_size=OTHER_SEQUENCE, loss_of=hf_loss)
    return [
        # Decoder language models.
        ZooModel("gpt2", "transformers", _hf(
            "GPT2LMHeadModel", "GPT2Config", vocab_size=VOCAB, n_embd=WIDTH, n_layer=LAYERS, n_head=HEADS,
            n_positions=512, bos_token_id=0, eos_token_id=0), tokens, **text),
        ZooModel("llama", "transformers", _hf(
            "LlamaForCausalLM", "LlamaConfig", num_key_value_heads=HEADS // 2, **_DECODER), tokens, **text),
        ZooModel("mistral", "transformers", _hf(
            "MistralForCausalLM", "MistralConfig", num_key_value_heads=HEADS // 2, sliding_window=96,
            **_DECODER), tokens, **text, in_suite=False),
        ZooModel("qwen2", "transformers", _hf(
            "Qwen2ForCausalLM", "Qwen2Config", num_key_value_heads=HEADS // 2, **_DECODER), tokens, **text),
        ZooModel("opt", "transformers", _hf(
            "OPTForCausalLM", "OPTConfig", vocab_size=VOCAB, hidden_size=WIDTH, num_hidden_layers=LAYERS,
            num_attention_heads=HEADS, ffn_dim=FEED_FORWARD, word_embed_proj_dim=WIDTH,
            max_position_embeddings=512, dropout=0.1, attention_dropout=0.1), tokens, **text),
        ZooModel("gpt_neo", "transformers", _hf(
            "GPTNeoForCausalLM", "GPTNeoConfig", vocab_size=VOCAB, hidden_size=WIDTH, num_layers=LAYERS,
            attention_types=[[["global", "local"], LAYERS // 2]], num_heads=HEADS, intermediate_size=FEED_FORWARD,
            window_size=64, max_position_embeddings=512, bos_token_id=0, eos_token_id=0), tokens, **text),
        # Encoder masked language models.
        ZooModel("bert", "transformers", _hf("BertForMaskedLM", "BertConfig", **_ENCODER), masked_tokens, **text),
        ZooModel("roberta", "transformers", _hf(
            "RobertaForMaskedLM", "RobertaConfig", **_ENCODER), masked_tokens, **text, in_suite=False),
        ZooModel("distilbert", "transformers", _hf(
            "DistilBertForMaskedLM", "DistilBertConfig", vocab_size=VOCAB, dim=WIDTH, n_layers=LAYERS,
            n_heads=HEADS, hidden_dim=FEED_FORWARD, max_position_embeddings=512), masked_tokens, **text),
        ZooModel("albert", "transformers", _hf(
            "AlbertForMaskedLM", "AlbertConfig", embedding_size=32, hidden_dropout_prob=0.1,
            attention_probs_dropout_prob=0.1, **_ENCODER), masked_tokens, **text),
        ZooModel("electra", "transformers", _hf(
            "ElectraForMaskedLM", "ElectraConfig", embedding_size=32, **_ENCODER), masked_tokens, **text,
            in_suite=False),
        ZooModel("mobilebert", "transformers", _hf(
            "MobileBertForMaskedLM", "MobileBertConfig", vocab_size=VOCAB, hidden_size=WIDTH,
            num_hidden_layers=LAYERS, num_attention_heads=HEADS, intermediate_size=FEED_FORWARD,
            embedding_size=32, true_hidden_size=WIDTH // 2, intra_bottleneck_size=WIDTH // 2,
            num_feedforward_networks=2, max_position_embeddings=512), masked_tokens, **text),
        # Encoder-decoder.
        ZooModel("t5", "transformers", _hf(
            "T5ForConditionalGeneration", "T5Config", vocab_size=VOCAB, d_model=WIDTH, d_kv=WIDTH // HEADS,
            d_ff=FEED_FORWARD, num_layers=LAYERS, num_decoder_layers=LAYERS, num_heads=HEADS,
            dropout_rate=0.1, decoder_start_token_id=0, pad_token_id=0), translation, **text),
        ZooModel("bart", "transformers", _hf("BartForConditionalGeneration", "BartConfig", **_SEQ2SEQ),
                 translation, **text),
        # Speech: Whisper's encoder sees 256 frames of 16 mel bins (128 positions).
        ZooModel("whisper", "transformers", _hf(
            "WhisperForConditionalGeneration", "WhisperConfig", num_mel_bins=16, max_source_positions=128,
            max_target_positions=64, **{k: v for k, v in _SEQ2SEQ.items() if k != "max_position_embeddings"}),
            speech, size=256, other_size=256, loss_of=hf_loss),
        # Vision transformer: 96x96 images in 8x8 patches, 144 positions.
        ZooModel("vit", "transformers", _hf(
            "ViTForImageClassification", "ViTConfig", hidden_size=WIDTH, num_hidden_layers=LAYERS,
            num_attention_heads=HEADS, intermediate_size=FEED_FORWARD, image_size=96, patch_size=8,
            hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1, num_labels=10), images(96),
            size=96, other_size=96, loss_of=hf_loss),
        # torchvision, scaled by the input size (the models are the real ones).
        ZooModel("resnet50", "torchvision", _torchvision("resnet50", num_classes=10), images(64),
                 size=64, other_size=96, loss_of=classifier_loss),
        ZooModel("mobilenet_v3", "torchvision", _torchvision("mobilenet_v3_small", num_classes=10),
                 images(64), size=64, other_size=96, loss_of=classifier_loss),
        ZooModel("vit_b", "torchvision", _torchvision_vit, images(96), size=96, other_size=96,
                 loss_of=classifier_loss),
    ]


ZOO: dict[str, ZooModel] = {model.name: model for model in _models()}


# -- training -----------------------------------------------------------------

STEPS = 3


@dataclasses.dataclass
class Run:
    """What a few training steps left: each step's loss and the parameters."""

    losses: list[torch.Tensor]
    parameters: list[torch.Tensor]

    def bitwise_equal(self, other: "Run") -> bool:
        return len(self.losses) == len(other.losses) and all(
            torch.equal(a, b) for a, b in zip(self.losses + self.parameters, other.losses + other.parameters)
        )


def train(spec: ZooModel, backend: Any, sizes: list[int] | None = None, steps: int = STEPS) -> Run:
    """`steps` AdamW steps of a fresh `spec.build()` compiled with `backend`
    (dynamo's caches reset first), the RNG seeded so dropout repeats; the
    step's inputs at `sizes[step]` if given."""
    torch._dynamo.reset()
    model = spec.build()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    compiled = torch.compile(model, backend=backend)
    torch.manual_seed(1)
    losses = []
    for step in range(steps):
        optimizer.zero_grad(set_to_none=True)
        loss = spec.loss(compiled, spec.batch(step, sizes[step] if sizes else None))
        loss.backward()
        optimizer.step()
        losses.append(loss.detach().clone())
    return Run(losses, [parameter.detach().clone() for parameter in model.parameters()])
