#!/bin/sh
# Installs the Debian packages tendon's build and tests need, only those missing.
# Runs apt-get as root (or through sudo when available); changes nothing when all are there.
set -eu

missing=""
need() { # need COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}
need cc gcc
need make make
need cmake cmake
need ctest cmake
need python3 python3   # the benchmark smoke test and the CLI test read JSON
need pkg-config pkgconf
# The graph schema test validates documents with python3-jsonschema.
python3 -c 'import jsonschema' >/dev/null 2>&1 || missing="$missing python3-jsonschema"
# The glTF export test runs the Khronos glTF validator, an npm package, with node.
need node nodejs
need npm npm

# make docs (and the api_docs test) build the C API reference with Doxygen.
need doxygen doxygen

# libtendon_io parses JSON with cJSON.
[ -f /usr/include/cjson/cJSON.h ] || missing="$missing libcjson-dev"
# The tendon tool writes PNG pictures (tendon weights --png) with libpng.
[ -f /usr/include/png.h ] || missing="$missing libpng-dev"
# ... and animated GIF previews (tendon run --render OUT.gif) with giflib.
[ -f /usr/include/gif_lib.h ] || missing="$missing libgif-dev"
# Fuzz targets build with clang's libFuzzer (runtime in libclang-rt-*-dev).
need clang clang
# The cxx_headers test compiles every public header as C++ (clang++ comes with clang).
need g++ g++
# The clang_format test checks the layout with Debian 12's clang-format (version 14).
need clang-format clang-format
if command -v clang >/dev/null 2>&1; then
    probe=$(mktemp -d)
    echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}' > "$probe/f.c"
    clang -fsanitize=fuzzer "$probe/f.c" -o "$probe/f" 2>/dev/null || missing="$missing libclang-rt-dev"
    rm -rf "$probe"
fi

# The sanitizer runtimes ship with gcc on Debian, but check the link works.
if command -v cc >/dev/null 2>&1; then
    probe=$(mktemp -d)
    echo 'int main(void){return 0;}' > "$probe/p.c"
    cc -fsanitize=address,undefined "$probe/p.c" -o "$probe/p" 2>/dev/null || missing="$missing libasan8 libubsan1"
    rm -rf "$probe"
fi

# shellcheck disable=SC2086
[ -z "$missing" ] || sh "$(dirname "$0")/apt_install.sh" tendon $missing

# The Khronos glTF validator (npm package gltf-validator, a pinned version) in build/npm, which
# is git-ignored and found there by the ctest gltf_export_valid. Nothing to do when it is there;
# a failed install only warns (that test then fails under CI=true and skips elsewhere).
GLTF_VALIDATOR_VERSION=2.0.0-dev.3.10
npm_dir="$(cd "$(dirname "$0")/.." && pwd)/build/npm"
if ! grep -q "\"version\": *\"$GLTF_VALIDATOR_VERSION\"" "$npm_dir/node_modules/gltf-validator/package.json" 2>/dev/null; then
    echo "tendon: installing gltf-validator $GLTF_VALIDATOR_VERSION into $npm_dir"
    mkdir -p "$npm_dir"
    npm install --prefix "$npm_dir" --no-audit --no-fund --save-exact --loglevel=error "gltf-validator@$GLTF_VALIDATOR_VERSION" ||
        echo "tendon: warning: could not install gltf-validator (the glTF validation test will not run)" >&2
fi
