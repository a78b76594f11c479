#!/usr/bin/env python3
"""Two profiles of one mode (perf/scripts/profile.sh) compared frame by frame: for every frame, the samples
per 1,000 requests of the stacks it is in, before and after, and the difference; the frames that lost most,
then those that gained most. A lambda's generated name is folded to `$$Lambda`, so the same lambda compares
across runs.

    perf/scripts/profile-compare.py MODE BEFORE_DIR AFTER_DIR [ROWS]
"""
import collections
import re
import sys

LAMBDA = re.compile(r"\$\$Lambda\$?[0-9]*[./]0x[0-9a-f]+")


def load(directory, mode):
    with open(f"{directory}/{mode}.wrk") as wrk:
        requests = next(int(line.split()[0]) for line in wrk if "requests in" in line)
    inclusive = collections.Counter()
    total = 0
    with open(f"{directory}/{mode}.collapsed") as collapsed:
        for line in collapsed:
            stack, count = line.rsplit(" ", 1)
            count = int(count)
            total += count
            for frame in {LAMBDA.sub("$$Lambda", f) for f in stack.split(";")}:
                inclusive[frame] += count
    return requests, total, inclusive


def main():
    mode, before, after = sys.argv[1:4]
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    nb, tb, ib = load(before, mode)
    na, ta, ia = load(after, mode)
    print(f"samples per 1,000 requests: before {tb / nb * 1000:.1f}, after {ta / na * 1000:.1f}")
    diff = sorted(((ia[f] / na - ib[f] / nb) * 1000, ib[f] / nb * 1000, ia[f] / na * 1000, f) for f in set(ia) | set(ib))
    print("   diff  before   after  frame")
    for d, b, a, f in diff[:rows] + diff[-rows:]:
        print(f"{d:+7.1f} {b:7.1f} {a:7.1f}  {f[:140]}")


if __name__ == "__main__":
    main()
