"""The torch side of the one table of element types.

include/ssd/Runtime/DTypes.def is the table: SSDRT_DTYPE_* codes, sizes, the
MLIR element types, which types checkpoints hold. This module adds only what
it cannot say, the torch dtype of each row, plus the torch dtypes that the
exporter writes but the runtime does not move (no code). The exporter and
ssdopt.checkpoint read it; test/python/test_dtypes.py checks every column
against DTypes.def.
"""

from __future__ import annotations

from typing import NamedTuple

import torch


class DType(NamedTuple):
    mlir: str  # the MLIR element type, in MLIR's syntax
    code: int | None = None  # SSDRT_DTYPE_*, where the runtime has one
    in_checkpoints: bool = False


TORCH_DTYPES: dict[torch.dtype, DType] = {
    torch.float32: DType("f32", 0, True),
    torch.float16: DType("f16", 1, True),
    torch.bfloat16: DType("bf16", 2, True),
    torch.float64: DType("f64", 3, True),
    torch.int8: DType("i8", 4, True),
    torch.uint8: DType("ui8", 5, True),
    torch.int16: DType("i16", 6, True),
    torch.int32: DType("i32", 7, True),
    torch.int64: DType("i64", 8, True),
    torch.bool: DType("i1", 9, True),
    torch.float8_e4m3fn: DType("f8E4M3FN", 10),
    torch.float8_e5m2: DType("f8E5M2", 11),
    torch.uint16: DType("ui16"),
    torch.uint32: DType("ui32"),
    torch.uint64: DType("ui64"),
    torch.complex32: DType("complex<f16>"),
    torch.complex64: DType("complex<f32>"),
    torch.complex128: DType("complex<f64>"),
    torch.float8_e4m3fnuz: DType("f8E4M3FNUZ"),
    torch.float8_e5m2fnuz: DType("f8E5M2FNUZ"),
}

MLIR_ELEMENT_TYPES = {dtype: row.mlir for dtype, row in TORCH_DTYPES.items()}
CHECKPOINT_CODES = {dtype: row.code for dtype, row in TORCH_DTYPES.items() if row.in_checkpoints}
