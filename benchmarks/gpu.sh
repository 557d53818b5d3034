#!/usr/bin/env bash
# On a machine with a CUDA GPU: the tensor path against the numpy path in one run, then the GPU tests.
#
#     PARSING_DATA_DIR=/path/to/ud bash benchmarks/gpu.sh [folder]
#
# 1. speed: the exploring epoch (en_lines train, arc-hybrid, Goldberg–Nivre, batch 32) on the GPU
#    on the numpy path, the graphed tensor path and the same with compiled steps, and on two CPU
#    threads of the same machine, then greedy parsing on every path;
# 2. kernels: a step's kernels, eager and compiled (Triton), and the walk of one batch;
# 3. accuracy: 10 epochs, 3 seeds, test UAS / LAS on the GPU (graphs, compiled steps) and, at the
#    same time, on two CPU threads a seed (batched path, one process a seed), to compare the two;
# 4. tests/test_cuda.py (run while the CPU seeds finish).
# Every step's output goes to the folder given (default: gpu-results/), the tables also to
# gpu.md there.  Each step has its own time limit, so that one that hangs leaves the others their
# time; their limits (and the CPU seeds that run beside the third) add up to ten minutes.
set -uo pipefail
out="${1:-gpu-results}"
mkdir -p "$out"
export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-/tmp/numba-cache}"
step() {  # step NAME SECONDS COMMAND...: run, keep its output in $out/NAME.txt, say how it ended
    local name=$1 limit=$2
    shift 2
    echo "== $name ($(date +%T))"
    timeout "$limit" "$@" >"$out/$name.txt" 2>&1
    local status=$?
    cat "$out/$name.txt"
    echo "== $name ended with status $status"
}
bench=(python3 -m benchmarks.train --write "$out/gpu.md")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.md"
step speed 230 "${bench[@]}" --device cuda --sections gpu --repeat 2
step kernels 120 python3 -m benchmarks.step_kernels --device cuda --repeat 3 --systems arc-hybrid
for seed in 1 2 3; do  # the CPU's accuracy runs, in the background: one process and two threads a seed
    timeout 250 python3 -m benchmarks.train --device cpu --threads 2 --path batched --sections seeds \
        --epochs 10 --seeds 1 --first-seed $seed >"$out/cpu_seed$seed.txt" 2>&1 &
done
step accuracy_gpu 150 "${bench[@]}" --device cuda --path graphs --compile-steps --sections seeds \
    --epochs 10 --seeds 3
step tests 100 python3 -m pytest -q -n 0 -p no:cacheprovider --noconftest tests/test_cuda.py
wait
tail -n 8 "$out"/cpu_seed*.txt
