#!/usr/bin/env python3
"""Pictures of the planner's results (PNG, matplotlib).

    plots.py timeline TRACE.json OUT.png [--title T]
        the memory timeline of one planned step from its Chrome trace
        (ssd-offload-pipeline{report-trace=...}): live bytes with and without
        the plan against time (ms, bottom axis) and op index (top axis), the
        budget, where the backward pass starts, and one lane per link (D2H,
        H2D, SSD read, SSD write) with its transfers, plus compute's stalls.
    plots.py budgets ROWS.json OUTDIR
        predicted step time against the memory budget, every policy and the
        recomputation baseline, one PNG per model (a panel per target), from
        the rows bench/planner/models --rows writes.

Every number drawn comes from ssd-opt (the trace and the reports); nothing
is recomputed here.
"""

import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

LANES = ["d2h", "h2d", "ssd_read", "ssd_write"]
LANE_LABELS = {"d2h": "D2H", "h2d": "H2D", "ssd_read": "SSD read",
               "ssd_write": "SSD write", "stall": "stalls"}
POLICY_STYLE = {
    "ssd": ("tab:blue", "o", "-"),
    "reload-on-use": ("tab:orange", "s", "--"),
    "stash-window": ("tab:green", "^", "--"),
    "aot-prefetch": ("tab:red", "v", "--"),
    "fixed-depth": ("tab:purple", "D", "--"),
    "recompute": ("black", "*", "-"),
}


def _read_trace(path):
    with open(path) as f:
        trace = json.load(f)
    tracks, slices, memory = {}, {}, []
    for event in trace["traceEvents"]:
        if event.get("ph") == "M" and event["name"] == "thread_name":
            tracks[event["tid"]] = event["args"]["name"]
    for event in trace["traceEvents"]:
        if event.get("ph") == "X":
            name = tracks[event["tid"]]
            if name == "compute" and event["name"] == "stall":
                name = "stall"
            slices.setdefault(name, []).append(event)
        elif event.get("ph") == "C" and event["name"] == "device memory":
            memory.append(event)
    memory.sort(key=lambda e: e["ts"])
    return trace.get("otherData", {}), slices, memory


def timeline(trace_path, out_path, title=""):
    """The memory timeline of one planned step; returns `out_path`."""
    info, slices, memory = _read_trace(trace_path)
    ms = [e["ts"] / 1e3 for e in memory]
    planned = [e["args"]["planned"] / 1e9 for e in memory]
    unplanned = [e["args"]["unplanned"] / 1e9 for e in memory]
    step_ms = info.get("step_seconds", 0) * 1e3 or (ms[-1] if ms else 1)
    ops = [e for e in slices.get("compute", [])]
    op_start_ms = sorted(e["ts"] / 1e3 for e in ops)

    lanes = [lane for lane in LANES if slices.get(lane)] + ["stall"]
    fig, axes = plt.subplots(
        1 + len(lanes), 1, sharex=True, figsize=(11, 4.2 + 0.42 * len(lanes)),
        gridspec_kw={"height_ratios": [7] + [1] * len(lanes), "hspace": 0.08})
    top = axes[0]
    # Steps: each op's live bytes from its start to the next op's.
    top.step(ms + [step_ms], unplanned + unplanned[-1:], where="post",
             color="tab:gray", lw=1, label="unplanned (op by op, same times)")
    top.step(ms + [step_ms], planned + planned[-1:], where="post",
             color="tab:blue", lw=1.3, label="planned")
    budget = info.get("memory_budget_bytes")
    if budget:
        top.axhline(budget / 1e9, color="tab:red", ls="--", lw=1,
                    label=f"budget {budget / 1e9:.2f} GB")
    backward = info.get("backward_start")
    if backward is not None and backward < len(ms):
        for ax in axes:
            ax.axvline(ms[backward], color="tab:green", ls=":", lw=1)
        top.text(ms[backward], top.get_ylim()[1] * 0.98, "  backward starts",
                 color="tab:green", va="top", fontsize=8)
    top.set_ylabel("device memory (GB)")
    top.set_ylim(bottom=0)
    top.legend(loc="upper left", fontsize=8)
    top.set_title(title or f"{info.get('policy', '')}: step {step_ms:.1f} ms, "
                  f"compute {info.get('compute_seconds', 0) * 1e3:.1f} ms")

    # Op index on the top axis: the time each op starts (monotonic).
    if len(op_start_ms) > 1:
        index = np.arange(len(op_start_ms), dtype=float)
        secondary = top.secondary_xaxis(
            "top", functions=(lambda x: np.interp(x, op_start_ms, index),
                              lambda i: np.interp(i, index, op_start_ms)))
        # Ticks evenly spaced in time (ops bunch where compute is fast).
        ticks = sorted({int(v) for v in np.interp(np.linspace(0, step_ms, 9),
                                                  op_start_ms, index)})
        secondary.set_xticks(ticks)
        secondary.set_xlabel("op index")

    for ax, lane in zip(axes[1:], lanes):
        spans = [(e["ts"] / 1e3, max(e["dur"] / 1e3, step_ms * 1e-4))
                 for e in slices.get(lane, [])]
        color = "tab:red" if lane == "stall" else "tab:blue"
        ax.broken_barh(spans, (0.1, 0.8), facecolors=color, edgecolor="none")
        busy = sum(d for _, d in spans)
        ax.set_yticks([0.5])
        ax.set_yticklabels([LANE_LABELS[lane]], fontsize=8)
        ax.set_ylim(0, 1)
        ax.text(1.002, 0.5, f"{len(spans)} · {busy:.0f} ms", transform=ax.transAxes,
                fontsize=7, va="center")
    axes[-1].set_xlabel("time (ms)")
    axes[-1].set_xlim(0, step_ms)
    fig.savefig(out_path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out_path


def step_time_against_budget(rows, out_dir):
    """One PNG per model: predicted step time (ms, log) against the budget
    (GB) for every policy on each target; returns the paths written."""
    os.makedirs(out_dir, exist_ok=True)
    written = []
    models = sorted({r["model"] for r in rows})
    for model in models:
        mine = [r for r in rows if r["model"] == model]
        targets = sorted({r["target"] for r in mine})
        fig, axes = plt.subplots(1, len(targets), figsize=(5.2 * len(targets), 4.2),
                                 squeeze=False)
        for ax, target in zip(axes[0], targets):
            here = [r for r in mine if r["target"] == target]
            compute = here[0]["compute_seconds"] * 1e3
            peak = here[0]["peak_bytes_before"] / 1e9
            for policy, (color, marker, style) in POLICY_STYLE.items():
                points = sorted((r["budget_bytes"] / 1e9, r["predicted_step_seconds"] * 1e3,
                                 r.get("fits", True))
                                for r in here if r["policy"] == policy)
                if not points:
                    continue
                ax.plot([p[0] for p in points], [p[1] for p in points], color=color,
                        ls=style, lw=1, label=policy)
                fit = [p for p in points if p[2]]
                miss = [p for p in points if not p[2]]
                ax.scatter([p[0] for p in fit], [p[1] for p in fit], color=color,
                           marker=marker, s=40 if policy == "recompute" else 22, zorder=3)
                if miss:
                    ax.scatter([p[0] for p in miss], [p[1] for p in miss],
                               facecolors="white", edgecolors=color, marker=marker,
                               s=60, zorder=4, label="recompute: does not fit")
            ax.axhline(compute, color="gray", ls=":", lw=1, label="compute only")
            ax.axvline(peak, color="gray", ls="-.", lw=0.8)
            ax.text(peak, 0.02, "unplanned peak ", rotation=90, fontsize=7,
                    va="bottom", ha="right", color="gray",
                    transform=ax.get_xaxis_transform())
            ax.set_yscale("log")
            ax.set_xlabel("memory budget (GB)")
            ax.set_ylabel("predicted step (ms)")
            ax.set_title(target, fontsize=10)
            ax.grid(True, which="both", alpha=0.25)
        handles, labels = axes[0][0].get_legend_handles_labels()
        seen = {}
        for h, label in zip(handles, labels):
            seen.setdefault(label, h)
        fig.legend(seen.values(), seen.keys(), loc="lower center", ncol=len(seen),
                   fontsize=8, bbox_to_anchor=(0.5, -0.06))
        fig.suptitle(f"{model}: predicted step time against the memory budget")
        path = os.path.join(out_dir, f"budget-{model}.png")
        fig.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(fig)
        written.append(path)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("timeline")
    t.add_argument("trace")
    t.add_argument("out")
    t.add_argument("--title", default="")
    b = sub.add_parser("budgets")
    b.add_argument("rows")
    b.add_argument("out_dir")
    args = parser.parse_args()
    if args.command == "timeline":
        print(timeline(args.trace, args.out, args.title))
    else:
        with open(args.rows) as f:
            for path in step_time_against_budget(json.load(f), args.out_dir):
                print(path)


if __name__ == "__main__":
    main()
