"""Run by test_faults.py: a step at 50% of its peak on argv[1], stepping
until it is killed; prints "stepping" once its state is on SSD."""

import sys

import cases
import ssdopt

model, batches, loss_fn = cases.mlp()
step = ssdopt.compile_step(model, cases.adamw(model), loss_fn,
                           {"memory_budget": "50%", "offload_dir": sys.argv[1],
                            "ssd_opt": sys.argv[2], "measure_peak": False})
step(**batches[0])
print("stepping", flush=True)
while True:
    for batch in batches:
        step(**batch)
