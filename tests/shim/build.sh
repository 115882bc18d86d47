#!/usr/bin/env bash
# Builds the AX/CF/CG shim the macOS backend's tests load on Linux:
#   tests/shim/build.sh   ->   tests/shim/build/libaxshim.so
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
"${CC:-cc}" -shared -fPIC -O1 -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror \
  -fvisibility=hidden -o build/libaxshim.so.tmp src/cf.c src/json.c src/tree.c src/ax.c src/cg.c
mv build/libaxshim.so.tmp build/libaxshim.so
