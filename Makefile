# ssd-opt: the README's commands.
#   make demo   set up what is missing, build, plan GPT-2 355M to fit a 24 GB GPU
#   make test   set up what is missing, build, run every test suite
#   make build  build only
# Builds use clang-19 and lld from Debian, two jobs (the project's machines
# have two cores); JOBS=N overrides.

BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -G Ninja -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19

.PHONY: setup build test demo docs format clean

setup:
	scripts/setup

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD) -j$(JOBS)

test: setup
	$(MAKE) --no-print-directory build
	scripts/run-tests $(BUILD)

demo: setup
	$(MAKE) --no-print-directory build
	scripts/demo $(BUILD)

# Regenerates the committed dialect and pass references from the TableGen
# sources; a test fails while they are stale.
docs: build
	cp $(BUILD)/docs/SSD/SSDDialect.md docs/dialect.md
	cp $(BUILD)/docs/SSD/SSDPasses.md docs/passes.md
	cp $(BUILD)/docs/SSD/SSDConversionPasses.md docs/conversion.md

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format-19 -i

clean:
	rm -rf $(BUILD) $(BUILD)-address $(BUILD)-thread
