#!/usr/bin/env bash
# On a machine with a CUDA GPU: the tensor path against the numpy path in one run, then the GPU tests.
#
#     PARSING_DATA_DIR=/path/to/ud bash benchmarks/gpu.sh [folder]
#
# 1. speed: the exploring epoch (en_lines train, arc-hybrid, Goldberg–Nivre, batch 32) on two CPU
#    threads of the same machine (first: the ratios divide it), then on the GPU on the numpy path,
#    the graphed tensor path and the same with compiled steps, each row printed once measured;
# 2. parsing: greedy parsing of en_lines test on every path;
# 3. kernels: a step's kernels, eager and compiled (Triton), and the walk of one batch;
# 4. accuracy: 10 epochs, test UAS / LAS, three seeds on the GPU (graphs, compiled steps) and three
#    on two CPU threads each (batched path), one process a seed, all side by side (accuracy does
#    not depend on speed, so their epochs' seconds are not the speed step's), with
# 5. tests/test_cuda.py, run meanwhile, then
# 6. host: this machine's host share of a batch (encoding, reading trees back; one core, while the
#    CPU seeds train, so an upper bound), the floor under the GPU's epoch and ceiling on its parsing.
# Every step's output goes to the folder given (default: gpu-results/), the tables also to
# gpu.md there.  Each step has its own time limit, so that one that hangs leaves the others their
# time; the limits add up to under ten minutes.  The eager tensor walk (slow on a GPU) is not
# timed here: `python -m benchmarks.train --device cuda --sections gpu_eager`.
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
step speed 200 "${bench[@]}" --device cuda --sections gpu
step parsing 70 "${bench[@]}" --device cuda --sections gpu_parsing --repeat 2
step kernels 100 python3 -m benchmarks.step_kernels --device cuda --repeat 3 --systems arc-hybrid
echo "== accuracy and tests ($(date +%T))"
seeds=()
for seed in 1 2 3; do  # one process a seed: on the GPU, and on two CPU threads
    timeout 200 python3 -m benchmarks.train --device cuda --path graphs --compile-steps --sections seeds \
        --epochs 10 --seeds 1 --first-seed $seed >"$out/gpu_seed$seed.txt" 2>&1 &
    seeds+=($!)
    timeout 200 python3 -m benchmarks.train --device cpu --threads 2 --path batched --sections seeds \
        --epochs 10 --seeds 1 --first-seed $seed >"$out/cpu_seed$seed.txt" 2>&1 &
    seeds+=($!)
done
step tests 150 python3 -m pytest -q -n 0 -p no:cacheprovider --noconftest tests/test_cuda.py
step host 45 python3 -m benchmarks.host_share --repeat 5  # this host's share, beside the CPU seeds
for pid in "${seeds[@]}"; do
    wait "$pid"
    echo "seed process $pid ended with status $?"
done
for run in gpu cpu; do  # each seed's table (side by side, they print apart), into gpu.md too
    for seed in 1 2 3; do
        echo "**$run, seed $seed**"
        grep -E '^(\||### )' "$out/${run}_seed$seed.txt" || tail -n 5 "$out/${run}_seed$seed.txt"
    done
done | tee -a "$out/gpu.md"
grep -E '^(\||## )' "$out/host.txt" | tee -a "$out/gpu.md"
