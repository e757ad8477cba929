#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark driver under LD_PRELOAD=libkeel_malloc.so at a small scale: the deterministic
# workloads must print the same checksum as with glibc's malloc, the threaded ones must finish.
# usage: driver_check.sh DRIVER SO
set -euo pipefail
driver=$1 so=$2
for w in random-mixed rm-heavy rm-tiny rm-medium realloc-growth realloc-single; do
  plain=$("$driver" "$w" --scale 0.02 | cut -d' ' -f2-3)
  keel=$(LD_PRELOAD="$so" "$driver" "$w" --scale 0.02 | cut -d' ' -f2-3)
  [ "$plain" = "$keel" ] || { echo "$w: glibc '$plain' but keel '$keel'"; exit 1; }
  echo "$w: $keel"
done
for w in larson prodcons false-sharing thread-churn; do
  for t in 1 2 4; do
    out=$(LD_PRELOAD="$so" "$driver" "$w" --threads "$t" --scale 0.02)
    echo "$w/$t: $out"
  done
done
