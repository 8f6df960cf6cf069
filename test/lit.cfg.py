# -*- Python -*-
# lit configuration of the ssd-opt regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SSD"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unittests", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ssd_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%ssd_src_root", config.ssd_src_root))
config.substitutions.append(("%ssd_lib_dir", config.ssd_lib_dir))
# The MLIR runner utility libraries that mlir-cpu-runner loads.
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.ssd_tools_dir, config.llvm_tools_dir]
tools = ["ssd-opt", "ssd-run", "mlir-opt", "mlir-cpu-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
