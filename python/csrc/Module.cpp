//===- Module.cpp - The ssdopt._C extension: torch.ops.ssdopt and stores --===//
//
// Registers the operators torch.ops.ssdopt.{offload,prefetch,wait,sync,discard}
// (their fake implementations, for tracing, are in ssdopt/_ops.py) and the
// Python functions behind ssdopt.runtime: open_store, close_store,
// close_all_stores, reserve, stats, reset_stats.
//
//===----------------------------------------------------------------------===//
#include "OffloadStore.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <system_error>
#include <torch/library.h>

namespace py = pybind11;

TORCH_LIBRARY(ssdopt, m) {
  m.def("offload(Tensor x, int store) -> Tensor");
  m.def("prefetch(Tensor handle) -> Tensor");
  m.def("wait(Tensor ticket, SymInt[] size, SymInt[] stride, "
        "ScalarType dtype, Device device, bool keep=False) -> Tensor");
  m.def("sync(Tensor handle) -> ()");
  m.def("discard(Tensor handle) -> ()");
}

// The handles and tickets are CPU tensors; the offloaded tensor may be on
// the CPU or a CUDA device.
TORCH_LIBRARY_IMPL(ssdopt, CPU, m) {
  m.impl("offload", &ssdopt::offload);
  m.impl("prefetch", &ssdopt::prefetch);
  m.impl("wait", &ssdopt::wait);
  m.impl("sync", &ssdopt::sync);
  m.impl("discard", &ssdopt::discard);
}

TORCH_LIBRARY_IMPL(ssdopt, CUDA, m) { m.impl("offload", &ssdopt::offload); }

PYBIND11_MODULE(_C, m) {
  m.doc() = "ssdopt's torch extension: runtime ops on the ssdrt runtime";
  // An unusable directory is an OSError with its errno (so FileNotFoundError,
  // NotADirectoryError, PermissionError...); other failures RuntimeError,
  // without the C++ backtrace.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const std::system_error &e) {
      py::object error = py::reinterpret_borrow<py::object>(PyExc_OSError)(
          e.code().value(), e.what());
      PyErr_SetObject(PyExc_OSError, error.ptr());
    } catch (const c10::Error &e) {
      PyErr_SetString(PyExc_RuntimeError, e.what_without_backtrace());
    }
  });
  m.attr("torch_version") = SSDOPT_TORCH_VERSION;
  m.def("open_store", &ssdopt::openStore, py::arg("directory"));
  m.def("close_store", &ssdopt::closeStore, py::arg("store"));
  m.def("close_all_stores", &ssdopt::closeAllStores);
  m.def("reserve", &ssdopt::reserve, py::arg("store"), py::arg("device"),
        py::arg("sizes"));
  m.def("reset_stats", &ssdopt::resetStats);
  m.def("stats", [] {
    ssdopt::Stats s = ssdopt::stats();
    py::dict d;
    d["bytes_written"] = s.bytesWritten;
    d["bytes_read"] = s.bytesRead;
    d["offloads"] = s.offloads;
    d["reloads"] = s.reloads;
    d["failures"] = s.failures;
    d["stall_seconds"] = s.stallSeconds;
    d["write_stall_seconds"] = s.writeStallSeconds;
    d["live_handles"] = s.liveHandles;
    d["open_stores"] = s.openStores;
    return d;
  });
}
