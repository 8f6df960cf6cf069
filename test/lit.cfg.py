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

# A fresh machine's view: tests see the system's directories, the project's
# environment and the build only, and %python is the environment's
# interpreter (lit.site.cfg.py). A tool installed by hand anywhere else (a
# pyenv or /usr/local Python with numpy, say) cannot make a test pass here
# that fails for a newcomer; test/Environment checks it.
venv_bin = os.path.dirname(config.python_executable)
if not os.access(config.python_executable, os.X_OK):
    lit_config.fatal(f"the tests' Python {config.python_executable} is missing: run scripts/setup")
config.environment["PATH"] = os.pathsep.join([venv_bin, "/usr/sbin", "/usr/bin", "/sbin", "/bin"])
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%ssd_obj_root", config.ssd_obj_root))
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
