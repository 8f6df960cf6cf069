#!/usr/bin/env python3
"""Full-size training steps exported through `ssdopt.exporter`, for the
planner's benchmarks, without allocating their memory.

Each model is built on PyTorch's meta device (shapes and dtypes, no storage),
with its example inputs and an AdamW optimizer there too; the exporter traces
with fake tensors only, so a 1B-parameter step exports on a laptop. Random
initialisation, nothing downloaded. Models:

  gpt2-124m   GPT-2 small, batch 4, sequence 1024 (transformers)
  gpt2-355m   GPT-2 medium, batch 4, sequence 1024 (transformers)
  llama-1b    a Llama-style decoder of about 1.1B parameters (TinyLlama's
              shape: 22 layers, width 2048, 32 heads, 4 key/value heads),
              batch 1, sequence 2048 (transformers)
  resnet50    ResNet-50, batch 64, 224x224 (torchvision)
  vit-b16     ViT-B/16, batch 64, 224x224 (torchvision)

Exports are cached in --cache (default ~/.cache/ssd-opt/exports, outside the
tree), keyed by the model's recipe and the versions of torch, transformers,
torchvision and the exporter's source, so a rerun takes seconds. A model whose
library is missing is skipped with a line saying so.

Usage: bench/planner/export_models.py [--cache DIR] [--only NAME,...] [--force]
Prints one line per model (its path, ops, parameters, seconds) and, last, one
JSON object {name: path}.
"""

import argparse
import hashlib
import importlib.util
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

DEFAULT_CACHE = os.path.join(os.path.expanduser("~"), ".cache", "ssd-opt", "exports")


def _with_loss(model, language_model):
    """`model` as a module whose forward takes the inputs and the labels and
    returns the cross-entropy loss, written as log-softmax and a gather
    (through `F.cross_entropy`, or a transformers model's own loss, AOTAutograd
    finds parameters without gradients on meta tensors)."""
    import torch

    class WithLoss(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, inputs, labels):
            if language_model:
                logits = self.model(input_ids=inputs).logits
            else:
                logits = self.model(inputs)
            log_probs = torch.log_softmax(logits, -1)
            return -log_probs.gather(-1, labels.unsqueeze(-1)).mean()

    return WithLoss()


def _gpt2(layers, width, heads, batch=4, seq=1024):
    def make():
        import torch
        from transformers import GPT2Config, GPT2LMHeadModel

        config = GPT2Config(n_layer=layers, n_embd=width, n_head=heads,
                            n_positions=seq, vocab_size=50257)
        model = _with_loss(GPT2LMHeadModel(config), True)
        ids = torch.randint(0, config.vocab_size, (batch, seq))
        labels = torch.randint(0, config.vocab_size, (batch, seq))
        return model, (ids, labels), None
    return make, "transformers", dict(layers=layers, width=width, heads=heads,
                                      batch=batch, seq=seq)


def _llama(batch=1, seq=2048):
    def make():
        import torch
        from transformers import LlamaConfig, LlamaForCausalLM

        config = LlamaConfig(hidden_size=2048, intermediate_size=5632,
                             num_hidden_layers=22, num_attention_heads=32,
                             num_key_value_heads=4, vocab_size=32000,
                             max_position_embeddings=seq)
        model = _with_loss(LlamaForCausalLM(config), True)
        ids = torch.randint(0, config.vocab_size, (batch, seq))
        labels = torch.randint(0, config.vocab_size, (batch, seq))
        return model, (ids, labels), None
    return make, "transformers", dict(layers=22, width=2048, batch=batch, seq=seq)


def _vision(name, batch=64):
    def make():
        import torch
        import torchvision

        model = _with_loss(getattr(torchvision.models, name)(weights=None), False)
        images = torch.randn(batch, 3, 224, 224)
        target = torch.randint(0, 1000, (batch,))
        return model, (images, target), None
    return make, "torchvision", dict(model=name, batch=batch, image=224)


MODELS = {
    "gpt2-124m": _gpt2(12, 768, 12),
    "gpt2-355m": _gpt2(24, 1024, 16),
    "llama-1b": _llama(),
    "resnet50": _vision("resnet50"),
    "vit-b16": _vision("vit_b_16"),
}


def _versions(library):
    import torch

    versions = {"torch": torch.__version__}
    if importlib.util.find_spec(library):
        versions[library] = importlib.import_module(library).__version__
    with open(os.path.join(ROOT, "python", "ssdopt", "exporter.py"), "rb") as f:
        versions["exporter"] = hashlib.sha256(f.read()).hexdigest()[:16]
    return versions


def export_model(name, cache, force=False):
    """The path of `name`'s exported step (exported now unless cached) and
    facts about it; None when its library is missing."""
    make, library, recipe = MODELS[name]
    if importlib.util.find_spec(library) is None:
        return None
    key = hashlib.sha256(json.dumps([name, recipe, _versions(library)],
                                    sort_keys=True).encode()).hexdigest()[:16]
    path = os.path.join(cache, f"{name}.mlir")
    meta_path = os.path.join(cache, f"{name}.json")
    if not force and os.path.exists(path) and os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get("key") == key:
            return path, meta, True

    import torch
    from ssdopt.exporter import export

    start = time.monotonic()
    with torch.device("meta"):
        model, inputs, loss_fn = make()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    parameters = sum(p.numel() for p in model.parameters())
    text = export(model, inputs, loss_fn, optimizer)
    os.makedirs(cache, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    meta = {"key": key, "recipe": recipe, "parameters": parameters,
            "ops": text.count("ssd.kernel") + text.count("linalg."),
            "export_seconds": round(time.monotonic() - start, 1)}
    with open(meta_path, "w") as f:
        json.dump(meta, f)
    return path, meta, False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", default=DEFAULT_CACHE)
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--force", action="store_true", help="export again")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    paths = {}
    for name in names:
        start = time.monotonic()
        made = export_model(name, args.cache, args.force)
        if made is None:
            print(f"{name:<10} skipped: {MODELS[name][1]} is not installed")
            continue
        path, meta, cached = made
        paths[name] = path
        print(f"{name:<10} {path}  {meta['ops']} ops, {meta['parameters'] / 1e6:.0f}M "
              f"parameters, {time.monotonic() - start:.1f} s"
              f"{' (cached)' if cached else ''}", flush=True)
    print(json.dumps(paths))


if __name__ == "__main__":
    main()
