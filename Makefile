# Thin wrapper around CMake. `make demo` and `make test` install the Debian packages they
# need (only if missing; needs root or sudo), configure, build and run.
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=

# Debian packages: build (cmake, compiler, libxml2, libccd, libfclib + HDF5, Assimp for COLLADA
# meshes) and anchors/plots used by tests/demo.
DEPS_BUILD = cmake gcc make pkg-config libxml2-dev libccd-dev libfclib-dev libhdf5-dev libassimp-dev
DEPS_TEST  = libmujoco-dev libsiconos-numerics-dev hdf5-tools
DEPS_DEMO  = gnuplot-nox

.PHONY: all deps deps-test deps-demo build build-asan test test-fast demo bench install clean format

all: build

deps:
	@./.ci/install-deps.sh $(DEPS_BUILD)

deps-test: deps
	@./.ci/install-deps.sh $(DEPS_TEST)

deps-demo: deps
	@./.ci/install-deps.sh $(DEPS_DEMO)

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCS_WERROR=ON $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DCS_WERROR=ON -DCS_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)

# The whole suite twice: optimised build with warnings as errors, then ASan/UBSan.
test: deps-test
	$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory build-asan
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

# Optimised build only (quick local iteration).
test-fast: deps-test build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: deps-demo build
	./$(BUILD)/contactsim demo

bench: deps-test build
	./$(BUILD)/contactsim bench dynamics --model models/anymal_c.xml --json

# bin/contactsim, the libraries, headers, models, CMake package and contactsim.pc under
# PREFIX (docs/install.md). The benchmark executables stay in the build tree.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

format:
	clang-format -i $$(git ls-files "*.c" "*.h")

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
