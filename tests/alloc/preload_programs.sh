#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a real program twice — with glibc's malloc and with LD_PRELOAD=libkeel_malloc.so — and
# checks that both print the same. usage: preload_programs.sh PROGRAM SO WORKDIR SOURCE_DIR
# PROGRAM: python3 | sqlite3 | git | gxx. Exit 77 (skipped) when the program is not installed.
set -euo pipefail
program=$1 so=$2 work=$3 src=$4
rm -rf "$work"
mkdir -p "$work"
# Scratch files on tmpfs when there is one (git and sqlite are I/O bound on a busy disk).
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  scratch=$(mktemp -d /dev/shm/keel-alloc-XXXXXX)
  trap 'rm -rf "$scratch"' EXIT
  cd "$scratch"
else
  cd "$work"
fi

need() { command -v "$1" >/dev/null 2>&1 || { echo "skipped: $1 not installed"; exit 77; }; }

run_python() {
  local py=/usr/bin/python3
  [ -x $py ] || py=$(command -v python3)
  cat > heavy.py <<'PY'
import random
random.seed(7)
d = {}
for i in range(200000):
    k = "key%d" % random.randrange(50000)
    d.setdefault(k, []).append(str(i) * (i % 7 + 1))
total = 0
for k in sorted(d):
    v = d[k]
    total += len(v) + sum(len(s) for s in v)
    if len(v) > 5:
        d[k] = v[:2]
objs = [[j, str(j), (j, j * 2), {"a": j}] for j in range(100000)]
print(len(d), total, sum(len(o[1]) for o in objs))
PY
  "$py" heavy.py
}

run_sqlite() {
  cat > q.sql <<'SQL'
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000)
INSERT INTO t SELECT x, 'name-' || (x * 7919 % 100003), x * 0.5 FROM c;
CREATE INDEX t_name ON t(name);
SELECT count(*), sum(v), min(name), max(name) FROM t;
SELECT name, count(*) FROM t GROUP BY substr(name, 1, 7) ORDER BY 2 DESC LIMIT 5;
SELECT id FROM t WHERE name = 'name-4242';
SQL
  rm -f db.sqlite
  sqlite3 db.sqlite < q.sql
}

run_git() {
  rm -rf repo
  mkdir repo
  cd repo
  export GIT_AUTHOR_NAME=keel GIT_AUTHOR_EMAIL=keel@example.invalid GIT_COMMITTER_NAME=keel
  export GIT_COMMITTER_EMAIL=keel@example.invalid GIT_AUTHOR_DATE="2024-01-01T00:00:00Z"
  export GIT_COMMITTER_DATE="2024-01-01T00:00:00Z" GIT_CONFIG_NOSYSTEM=1 HOME="$PWD"
  git init -q -b main .
  mkdir d0 d1 d2 d3 d4 d5 d6 d7 d8 d9
  for c in 1 2 3 4 5; do
    awk -v c="$c" 'BEGIN { for (f = 1; f <= 300; f++) { out = "d" (f % 10) "/f" f ".txt";
      printf "file %d commit %d\n", f, c > out;
      for (k = 0; k < 20; k++) printf "%d ", f * c + k > out; printf "\n" > out; close(out) } }'
    git add -A
    git commit -q -m "commit $c"
  done
  git log --stat --format='%H %s' | md5sum
  git gc -q
  git rev-list --all --objects | wc -l
  git diff HEAD~3 HEAD --shortstat
  cd ..
}

run_gxx() {
  g++ -std=c++20 -O1 -I"$src/include" -I"$src/src" -c "$src/src/alloc/page.cpp" -o page.o
  md5sum < page.o
}

case $program in
  python3) need python3; fn=run_python ;;
  sqlite3) need sqlite3; fn=run_sqlite ;;
  git) need git; fn=run_git ;;
  gxx) need g++; fn=run_gxx ;;
  *) echo "unknown program $program"; exit 2 ;;
esac

$fn > plain.out
LD_PRELOAD="$so" KEEL_ALLOC_VERBOSE=0 $fn > keel.out
# The preloaded run really used keel: the same program prints keel's statistics at exit.
LD_PRELOAD="$so" KEEL_ALLOC_STATS=1 $fn 2> stats.err > /dev/null
grep -q "keel::alloc: segment bytes mapped" stats.err || { echo "keel was not loaded"; exit 1; }
cp plain.out keel.out stats.err "$work"/
if ! cmp -s plain.out keel.out; then
  echo "output differs under LD_PRELOAD=$so"
  diff plain.out keel.out | head -20
  exit 1
fi
echo "same output ($(wc -l < plain.out) lines):"
head -5 plain.out
