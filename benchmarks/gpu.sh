#!/usr/bin/env bash
# On a machine with a CUDA GPU: the GPU tests, then the training benchmark's tables on the GPU and,
# for comparison, on the same machine's CPU (two training threads, as on the project's 2-core
# reference machine).  Every step's output goes to the folder given (default: gpu-results/).
#
#     PARSING_DATA_DIR=/path/to/ud bash benchmarks/gpu.sh [folder]
#
# Each step has its own time limit, so that one that hangs leaves the others their time.
set -uo pipefail
out="${1:-gpu-results}"
mkdir -p "$out"
export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-/tmp/numba-cache}"
step() {  # step NAME SECONDS COMMAND...: run, keep its output in $out/NAME.txt, say how it ended
    local name=$1 limit=$2
    shift 2
    echo "== $name ($(date +%T))"
    timeout "$limit" "$@" 2>&1 | tee "$out/$name.txt"
    echo "== $name ended with status ${PIPESTATUS[0]}"
}
cuda=(python3 -m benchmarks.train --device cuda)
runs=(--systems arc-hybrid,arc-standard --oracles goldberg-nivre,thesis-approx,exact)
step tests 150 python3 -m pytest -q -p no:cacheprovider --noconftest tests/test_cuda.py
step speed_cuda 240 "${cuda[@]}" --sections speed --repeat 1 "${runs[@]}" --batch-sizes 32,128,512
step profile_cuda 60 "${cuda[@]}" --sections profile --limit 800
step accuracy_cuda 150 "${cuda[@]}" --sections en_lines --epochs 10 --upos-dim 0 \
    --systems arc-hybrid --oracles goldberg-nivre --batch-sizes 32,128
step speed_cpu 150 python3 -m benchmarks.train --device cpu --threads 2 --sections speed --repeat 1 \
    --systems arc-hybrid --oracles goldberg-nivre --batch-sizes 32,128
