"""The Python side's element types agree with the runtime's one table,
include/ssd/Runtime/DTypes.def: the exporter spells each of the table's
types as the table's MLIR column says, and torch gives it the table's size."""

import pathlib
import re

import pytest
import torch

from ssdopt import exporter

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
def test_exporter_spells_the_table(row):
    c_name, _, _, size, _, _, mlir, _ = row
    torch_dtypes = [dtype for dtype, spelling in exporter._DTYPES.items() if spelling == mlir]
    assert len(torch_dtypes) == 1, f"the exporter spells {mlir} ({c_name}) {len(torch_dtypes)} times"
    (dtype,) = torch_dtypes
    assert torch.empty((), dtype=dtype).element_size() == int(size), (
        f"{dtype} is {torch.empty((), dtype=dtype).element_size()} bytes, DTypes.def says {size} for {c_name}"
    )
