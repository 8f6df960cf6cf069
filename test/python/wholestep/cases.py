"""Models of the whole-step tests: factories () -> (model, batches, loss_fn),
`batches` a list of keyword batches for `step(**batch)`.

The transformers are built from configs at realistic proportions (sequence
256, hidden 256, 4 layers) with a small vocabulary, so a step takes about a
second on an idle CPU core. Weights are untied: compile_step refuses shared
parameters."""

import torch
import torch.nn.functional as F

STEPS = 5


def _token_batches(vocab: int, seq: int, seed: int):
    generator = torch.Generator().manual_seed(seed)
    batches = []
    for _ in range(STEPS):
        ids = torch.randint(0, vocab, (1, seq), generator=generator)
        batches.append({"input_ids": ids, "labels": ids})
    return batches


def gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(n_layer=4, n_head=4, n_embd=256, vocab_size=256, n_positions=256,
                        use_cache=False, tie_word_embeddings=False, bos_token_id=0,
                        eos_token_id=0, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    return GPT2LMHeadModel(config), _token_batches(256, 256, 1), None


def llama():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(num_hidden_layers=4, hidden_size=256, intermediate_size=688,
                         num_attention_heads=8, num_key_value_heads=4, vocab_size=256,
                         max_position_embeddings=256, use_cache=False, bos_token_id=0,
                         eos_token_id=0, pad_token_id=0)
    return LlamaForCausalLM(config), _token_batches(256, 256, 2), None


def cnn():
    """The project's ResNet (test/python/models.py), wide enough that its
    state is a good part of the step."""
    from models import ResNet

    torch.manual_seed(0)
    model = ResNet(widths=(32, 64, 128))
    generator = torch.Generator().manual_seed(3)
    batches = [{"x": torch.randn(4, 3, 32, 32, generator=generator),
                "target": torch.randint(0, 10, (4,), generator=generator)} for _ in range(STEPS)]
    return model, batches, lambda output, batch: F.cross_entropy(output, batch["target"])


def mlp():
    """Small and fast: the tests of the step's mechanics."""
    from models import MLP

    torch.manual_seed(0)
    model = MLP((512, 1024, 1024, 10))
    generator = torch.Generator().manual_seed(4)
    batches = [{"x": torch.randn(64, 512, generator=generator),
                "target": torch.randint(0, 10, (64,), generator=generator)} for _ in range(STEPS)]
    return model, batches, lambda output, batch: F.cross_entropy(output, batch["target"])


def adamw(model):
    return torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)


def schedule(optimizer):
    """An LR scheduler that changes the rate every step."""
    return torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 / (1 + step))
