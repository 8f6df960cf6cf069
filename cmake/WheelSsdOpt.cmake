#===- cmake/WheelSsdOpt.cmake - the ssd-opt that the wheel carries --------===//
#
# Included by the top level when SSD_PYTHON_PACKAGE=ON. A wheel
# (scikit-build-core's SKBUILD_STATE "wheel") installs a statically linked
# ssd-opt as ssdopt/bin/ssd-opt, which ssdopt.planning.find_ssd_opt prefers
# to one on PATH, so the backend plans with no MLIR/LLVM on the machine:
#
#   SSD_WHEEL_SSD_OPT=PATH       that binary (built before with
#                                `ninja -C build ssd-opt-static`); also read
#                                from the environment variable of that name
#   SSD_WHEEL_SSD_OPT=OFF        none: the backend uses ssd-opt from PATH
#   unset                        built here: a nested configuration of this
#                                repository builds only the target
#                                ssd-opt-static (the compiler's libraries,
#                                minutes on two cores; needs Debian's MLIR 19)
#
# Editable installs (scripts/setup) carry none: they plan with the
# checkout's build/bin/ssd-opt as before.
#
#===----------------------------------------------------------------------===//
if(NOT DEFINED SSD_WHEEL_SSD_OPT AND DEFINED ENV{SSD_WHEEL_SSD_OPT})
  set(SSD_WHEEL_SSD_OPT "$ENV{SSD_WHEEL_SSD_OPT}")
endif()
set(SSD_WHEEL_SSD_OPT "${SSD_WHEEL_SSD_OPT}" CACHE STRING
    "ssd-opt for the wheel: a static binary, OFF for none, empty to build it")

if(NOT SKBUILD_STATE STREQUAL "wheel" OR SSD_WHEEL_SSD_OPT STREQUAL "OFF")
  return()
endif()

if(SSD_WHEEL_SSD_OPT)
  if(NOT EXISTS "${SSD_WHEEL_SSD_OPT}")
    message(FATAL_ERROR "SSD_WHEEL_SSD_OPT=${SSD_WHEEL_SSD_OPT} does not exist")
  endif()
  message(STATUS "ssdopt: the wheel carries ${SSD_WHEEL_SSD_OPT} as bin/ssd-opt")
  install(PROGRAMS "${SSD_WHEEL_SSD_OPT}" DESTINATION ssdopt/bin RENAME ssd-opt)
  return()
endif()

if(NOT EXISTS /usr/lib/llvm-19/lib/cmake/mlir/MLIRConfig.cmake OR
   NOT EXISTS /usr/lib/llvm-19/lib/libMLIRIR.a)
  message(FATAL_ERROR
    "ssdopt: the wheel builds a static ssd-opt, which needs Debian's MLIR 19 "
    "with its static archives (libmlir-19-dev, mlir-19-tools); or pass "
    "-Ccmake.define.SSD_WHEEL_SSD_OPT=PATH (a built ssd-opt-static) or =OFF")
endif()
include(ExternalProject)
set(_ssd_static_dir "${CMAKE_BINARY_DIR}/ssd-opt-static")
ExternalProject_Add(ssd-opt-static-build
  SOURCE_DIR "${PROJECT_SOURCE_DIR}"
  BINARY_DIR "${_ssd_static_dir}"
  CMAKE_GENERATOR Ninja
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release
             -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
             -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
  BUILD_COMMAND ${CMAKE_COMMAND} --build "${_ssd_static_dir}" --target ssd-opt-static
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  USES_TERMINAL_BUILD ON)
add_custom_target(ssd-opt-static-wheel ALL DEPENDS ssd-opt-static-build)
install(PROGRAMS "${_ssd_static_dir}/bin/ssd-opt-static" DESTINATION ssdopt/bin
        RENAME ssd-opt)
