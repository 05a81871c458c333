# The two commands of the README: `make demo` and `make test`. Each installs what is missing
# (Debian packages, scripts/install-deps.sh), configures and builds in build/, then runs.
BUILD    ?= build
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build demo mm-demo retarget-demo interop test test-sanitize test-fuzz bench install clean

all: build

deps:
	@sh scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTENDON_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# The whole pipeline on tendon's generated humanoid (tendon demo): writes demo-out/ (the baked
# .glb with mesh and skin, a contact sheet, a GIF, a plot and summary.txt).
demo: build
	$(BUILD)/bin/tendon demo --out demo-out

# Motion matching on the LAFAN1 takes of the shared data (TENDON_DATA, default ../shared/data; they
# are non-commercial test inputs, read where they are and never copied): a database of the three
# takes and their mirror images (mm build finds the T-poses at each take's start and end and
# leaves them out of the search), then a character driven along examples/mm/lafan1_path.json
# for 41 s with foot locking; then the same with two CMU takes along examples/mm/cmu_path.json.
# Writes demo-out/mm/: lafan1.tdnmm, mm.glb (the baked motion), mm_trace.json, cmu.tdnmm,
# cmu.glb, cmu_trace.json.
TENDON_DATA ?= ../shared/data
# the second database: two CMU takes of one rig (cgspeed's units are 0.056444 m)
MM_CMU = $(TENDON_DATA)/bvh/cmu/cgspeed-mb/walk.bvh $(TENDON_DATA)/bvh/cmu/cgspeed-mb/01_01.bvh
MM_CMU_SCALE = 0.056444
mm-demo: build
	@test -d $(TENDON_DATA)/bvh/lafan1 || { echo "tendon: no LAFAN1 takes in $(TENDON_DATA)/bvh/lafan1 (set TENDON_DATA)" >&2; exit 2; }
	@for f in $(MM_CMU); do test -f $$f || { echo "tendon: no CMU take $$f (set TENDON_DATA)" >&2; exit 2; }; done
	mkdir -p demo-out/mm
	$(BUILD)/bin/tendon mm build demo-out/mm/lafan1.tdnmm $(TENDON_DATA)/bvh/lafan1/*.bvh --scale 0.01 --mirror
	$(BUILD)/bin/tendon mm run demo-out/mm/lafan1.tdnmm $(TENDON_DATA)/bvh/lafan1/*.bvh --scale 0.01 \
		--path examples/mm/lafan1_path.json --lock-feet --out demo-out/mm/mm.glb --trace demo-out/mm/mm_trace.json
	$(BUILD)/bin/tendon mm build demo-out/mm/cmu.tdnmm $(MM_CMU) --scale $(MM_CMU_SCALE) --mirror
	$(BUILD)/bin/tendon mm run demo-out/mm/cmu.tdnmm $(MM_CMU) --scale $(MM_CMU_SCALE) \
		--path examples/mm/cmu_path.json --lock-feet --out demo-out/mm/cmu.glb --trace demo-out/mm/cmu_trace.json

# Retargeting on the shared data (TENDON_DATA; read where it is, never copied): CMU's walk onto
# Khronos' CesiumMan and LAFAN1's walk onto three.js' Soldier with tendon retarget (each a baked
# .glb with the target's skin and meshes, a contact sheet of the source beside the target; the
# CMU one a GIF too), then motion matching on the LAFAN1 takes driving Soldier.glb live through a
# retargeted graph (examples/graphs/lafan1_soldier.json, steered by
# examples/mm/lafan1_soldier_timeline.json for 16 s; docs/retarget.md, "Driving another character
# from a graph"). The document names its files below its folder: it is copied beside a link to
# TENDON_DATA and the database (not mirrored: docs/retarget.md says why). Writes demo-out/retarget/.
RETARGET_OUT = demo-out/retarget
retarget-demo: build
	@test -d $(TENDON_DATA)/bvh/lafan1 || { echo "tendon: no LAFAN1 takes in $(TENDON_DATA)/bvh/lafan1 (set TENDON_DATA)" >&2; exit 2; }
	@test -f $(TENDON_DATA)/gltf/threejs/Soldier.glb || { echo "tendon: no $(TENDON_DATA)/gltf/threejs/Soldier.glb (set TENDON_DATA)" >&2; exit 2; }
	mkdir -p $(RETARGET_OUT)
	$(BUILD)/bin/tendon retarget $(TENDON_DATA)/bvh/cmu/cgspeed-mb/walk.bvh \
		--to $(TENDON_DATA)/gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb \
		--out $(RETARGET_OUT)/cmu_cesium.glb --render $(RETARGET_OUT)/cmu_cesium.png
	$(BUILD)/bin/tendon retarget $(TENDON_DATA)/bvh/cmu/cgspeed-mb/walk.bvh \
		--to $(TENDON_DATA)/gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb --render $(RETARGET_OUT)/cmu_cesium.gif
	$(BUILD)/bin/tendon retarget $(TENDON_DATA)/bvh/lafan1/walk4_subject1.bvh --to $(TENDON_DATA)/gltf/threejs/Soldier.glb \
		--out $(RETARGET_OUT)/lafan1_soldier.glb --render $(RETARGET_OUT)/lafan1_soldier.png
	ln -sfn $(abspath $(TENDON_DATA)) $(RETARGET_OUT)/data
	cp examples/graphs/lafan1_soldier.json $(RETARGET_OUT)/
	$(BUILD)/bin/tendon mm build $(RETARGET_OUT)/lafan1.tdnmm $(TENDON_DATA)/bvh/lafan1/*.bvh --scale 0.01
	$(BUILD)/bin/tendon run $(RETARGET_OUT)/lafan1_soldier.json --allow-files $(TENDON_DATA) \
		--params examples/mm/lafan1_soldier_timeline.json --seconds 16 --render $(RETARGET_OUT)/mm_soldier.png \
		--out $(RETARGET_OUT)/mm_soldier.glb --trace $(RETARGET_OUT)/mm_soldier_trace.json

# Blender (installed from Debian's packages when missing, by scripts/interop.sh; nothing else needs
# it) imports every kind of file tendon exports: an armature with the skin's joint count and an
# action as long as the baked clip (tests/blender_import_check.py). Writes build/interop/.
interop: build
	TENDON_DATA=$(TENDON_DATA) sh scripts/interop.sh $(BUILD)

# Every test of the release build, then the same tests built with address and undefined-behaviour
# sanitizers.
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory test-sanitize
	$(MAKE) --no-print-directory test-fuzz

# What build/ builds, named, so that a cache made another way (a subproject's defaults, a reused
# folder) cannot drop the tests or what they run.
TENDON_ALL = -DTENDON_BUILD_TOOLS=ON -DTENDON_BUILD_TESTS=ON -DTENDON_BUILD_BENCH=ON -DTENDON_BUILD_EXAMPLES=ON \
	-DTENDON_BUILD_SHARED=ON

test-sanitize: deps
	cmake -S . -B $(BUILD)/sanitize -DCMAKE_BUILD_TYPE=Debug -DTENDON_WERROR=ON -DTENDON_SANITIZE=address,undefined,float-cast-overflow \
		$(TENDON_ALL) $(CMAKE_FLAGS)
	cmake --build $(BUILD)/sanitize -j $(JOBS)
	ctest --test-dir $(BUILD)/sanitize --output-on-failure -j $(JOBS)

# Everything built with clang (warnings as errors), libFuzzer and the same sanitizers, at -O1 as
# libFuzzer advises: every test again (but the benchmark smoke test, run by test-sanitize),
# then every parser's fuzz target (fuzz/) run for FUZZ_SECONDS, one at a time.
FUZZ_SECONDS ?= 60
test-fuzz: deps
	CC=clang cmake -S . -B $(BUILD)/fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DTENDON_WERROR=ON -DTENDON_FUZZ=ON \
		-DTENDON_SANITIZE=address,undefined -DTENDON_FUZZ_SECONDS=$(FUZZ_SECONDS) $(TENDON_ALL) $(CMAKE_FLAGS)
	cmake --build $(BUILD)/fuzz -j $(JOBS)
	ctest --test-dir $(BUILD)/fuzz --output-on-failure -j $(JOBS) -E '^fuzz_|^tendon_bench_smoke$$'
	ctest --test-dir $(BUILD)/fuzz --output-on-failure -R '^fuzz_'

# The benchmark workloads with the default flags, then with an x86-64-v3 build beside them.
bench: build
	$(BUILD)/bin/tendon_bench
	cmake -S . -B $(BUILD)/v3 -DCMAKE_BUILD_TYPE=Release -DTENDON_ARCH=x86-64-v3 -DTENDON_BUILD_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)/v3 -j $(JOBS) --target tendon_bench
	$(BUILD)/v3/bin/tendon_bench

# The C API reference from the headers (docs/Doxyfile): build/docs/api/html/index.html.
.PHONY: docs
docs: deps
	mkdir -p build/docs
	doxygen docs/Doxyfile
	@echo "tendon: the C API reference is in build/docs/api/html/index.html"

# make install PREFIX=DIR: the libraries, headers, CMake package, pkg-config files and the tools,
# built in $(BUILD)/install-tree without warnings as errors (a newer compiler's new warning must
# not stop an install) and without the tests (docs/embedding.md).
PREFIX ?= /usr/local
install: deps
	cmake -S . -B $(BUILD)/install-tree -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(abspath $(PREFIX)) \
		-DTENDON_WERROR=OFF -DTENDON_BUILD_TESTS=OFF -DTENDON_BUILD_EXAMPLES=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)/install-tree -j $(JOBS)
	cmake --install $(BUILD)/install-tree --prefix $(abspath $(PREFIX))

clean:
	rm -rf $(BUILD)
