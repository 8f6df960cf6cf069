"""Command line of ssdopt.

    python -m ssdopt export MODULE:FACTORY --out step.mlir

imports MODULE, calls FACTORY() for (model, example_inputs) or (model,
example_inputs, loss_fn, optimizer), and writes the model's training step as
the input IR of ``ssd-opt`` (see ``ssdopt.exporter.export``); an ``--out``
ending in ``.mlirbc`` is written as MLIR bytecode through ``ssd-opt``, which
parses and verifies the step on the way (docs/graph-format.md, "Bytecode").

    python -m ssdopt checkpoint ls|inspect|verify PATH

lists a checkpoint root, prints one checkpoint's tensors and values, or
checks every checksum (see ``ssdopt.checkpoint``).

    python -m ssdopt calibrate [--device cpu|cuda] [-o rates.json] [--no-table]

measures the device's rates for the planner's cost model with torch (see
``ssdopt.calibrate``), for ``ssd-run --calibrate --device-rates``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import subprocess
import sys

logger = logging.getLogger("ssdopt")


class CommandError(Exception):
    """A mistake on the command line, reported without a traceback."""


def _load_factory(spec: str):
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise CommandError(f"expected MODULE:FACTORY (like models:make_mlp), got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise CommandError(f"cannot import {module_name!r}: "
                           f"{type(error).__name__}: {error}") from error
    factory = module
    for part in attr.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise CommandError(f"module {module_name!r} has no {attr!r}")
    if not callable(factory):
        raise CommandError(f"{spec} is not callable")
    return factory


def _check_writable(path: str) -> None:
    """Fails before the (long) export when `path` cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        raise CommandError(f"cannot write {path}: {folder} is no directory")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise CommandError(f"cannot write {path}: permission denied")


def _write_bytecode(text: str, path: str) -> None:
    """Writes the step `text` to `path` as MLIR bytecode: ssd-opt parses it,
    verifies it and writes it with --emit-bytecode."""
    from ssdopt.planning import PlanningError, find_ssd_opt

    try:
        binary = find_ssd_opt()
    except PlanningError as error:
        raise CommandError(f"cannot write {path} as bytecode: {error}") from error
    result = subprocess.run([binary, "-", "--emit-bytecode", "-o", path], input=text,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise CommandError(f"ssd-opt could not write {path} as bytecode: "
                           f"{result.stderr.strip()}")


def _export(args: argparse.Namespace) -> None:
    from ssdopt.exporter import ExportError, export

    factory = _load_factory(args.factory)
    _check_writable(args.out)
    made = factory()
    if not isinstance(made, tuple) or len(made) not in (2, 4):
        shape = f"a tuple of {len(made)}" if isinstance(made, tuple) else type(made).__name__
        raise CommandError(f"{args.factory}() must return (model, example_inputs) or "
                           f"(model, example_inputs, loss_fn, optimizer), got {shape}")
    try:
        text = export(*made)
    except ExportError as error:
        raise CommandError(str(error)) from error
    header = (f"// Written by `python -m ssdopt export {args.factory}`: the training\n"
              "// step of its model as the input IR of ssd-opt (docs/graph-format.md).\n")
    if args.out.endswith(".mlirbc"):
        _write_bytecode(header + text, args.out)
        logger.info("wrote %s", args.out)
        return
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(header + text)
    except OSError as error:
        raise CommandError(f"cannot write {args.out}: {error.strerror}") from error
    logger.info("wrote %s", args.out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ssdopt")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser(
        "export", help="write a model's training step as the input IR of ssd-opt")
    export.add_argument("factory", metavar="MODULE:FACTORY",
                        help="FACTORY() returns (model, example_inputs) or "
                             "(model, example_inputs, loss_fn, optimizer)")
    export.add_argument("--out", required=True,
                        help="the .mlir file to write (.mlirbc: MLIR bytecode, through ssd-opt)")
    checkpoint = commands.add_parser(
        "checkpoint", help="list, inspect or verify checkpoints (docs/checkpoint-python.md)")
    checkpoint.add_argument("action", choices=["ls", "inspect", "verify"])
    checkpoint.add_argument("path", help="a checkpoint root or one step's directory, local or "
                            "an fsspec URL (s3://bucket/run)")
    calibrate = commands.add_parser(
        "calibrate", help="measure the device's compute, memory rate and per-op overhead with "
                          "torch, as target fields for ssd-run --calibrate --device-rates")
    calibrate.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")
    calibrate.add_argument("-o", "--out", help="the JSON file to write (default: stdout)")
    calibrate.add_argument("--batch-seconds", type=float, default=0.05,
                           help="each time is the least of 5 batches of about this long")
    calibrate.add_argument("--no-table", action="store_true",
                           help="leave out the op_time_table (measured op times by kind and size)")
    args = parser.parse_args(argv)
    if args.command == "calibrate":
        from ssdopt.calibrate import main as calibrate_main

        calibrate_main(args.device, args.out, args.batch_seconds, not args.no_table)
        return 0
    if args.command == "checkpoint":
        from ssdopt.checkpoint import CheckpointError, command

        try:
            return command(args.action, args.path)
        except CheckpointError as error:
            parser.exit(1, f"ssdopt checkpoint {args.action}: error: {error}\n")
    sys.path.insert(0, "")  # MODULE may live in the working directory
    try:
        _export(args)
    except CommandError as error:
        parser.exit(2, f"ssdopt {args.command}: error: {error}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
