"""The torch side of the element types (python/ssdopt/_dtypes.py) agrees with
the runtime's one table, include/ssd/Runtime/DTypes.def: every row has one
torch dtype with the row's MLIR element type, code, size and checkpoint
flag; no torch dtype claims a code the table does not give it; the exporter
and ssdopt.checkpoint read that module."""

import pathlib
import re

import pytest
import torch

from ssdopt import _dtypes, checkpoint, exporter

ROOT = pathlib.Path(__file__).resolve().parents[2]
ROW = re.compile(
    r'^SSD_DTYPE\((\w+), (\w+), (\d+), (\d+), "([^"]+)", "([^"]+)", "([^"]+)", ([01])\)$'
)


def table_rows():
    rows = []
    for line in (ROOT / "include" / "ssd" / "Runtime" / "DTypes.def").read_text().splitlines():
        if line.startswith("SSD_DTYPE("):
            match = ROW.match(line)
            assert match, f"DTypes.def row this test cannot read: {line}"
            rows.append(match.groups())
    return rows


def test_table_is_read():
    rows = table_rows()
    assert [int(row[2]) for row in rows] == list(range(len(rows)))
    assert {row[6] for row in rows} >= {"f32", "bf16", "i1", "ui8"}


@pytest.mark.parametrize("row", table_rows(), ids=lambda row: row[0])
def test_python_row_is_the_table_s(row):
    c_name, _, code, size, _, _, mlir, in_ckpt = row
    matches = [(dtype, entry) for dtype, entry in _dtypes.TORCH_DTYPES.items() if entry.mlir == mlir]
    assert len(matches) == 1, f"_dtypes.py spells {mlir} ({c_name}) {len(matches)} times"
    ((dtype, entry),) = matches
    assert entry.code == int(code), f"{dtype}: code {entry.code}, DTypes.def says {code} for {c_name}"
    assert entry.in_checkpoints == (in_ckpt == "1"), f"{dtype}: checkpoint flag differs from {c_name}'s"
    assert torch.empty((), dtype=dtype).element_size() == int(size), f"{dtype}: not {size} bytes as {c_name}"


def test_no_code_outside_the_table():
    codes = {int(row[2]) for row in table_rows()}
    claimed = [entry.code for entry in _dtypes.TORCH_DTYPES.values() if entry.code is not None]
    assert sorted(claimed) == sorted(codes)


def test_consumers_read_the_module():
    assert exporter._DTYPES is _dtypes.MLIR_ELEMENT_TYPES
    assert checkpoint.DTYPE_CODES is _dtypes.CHECKPOINT_CODES
