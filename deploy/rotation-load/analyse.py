#!/usr/bin/env python3
"""Judges a rotation-under-load run (deploy/rotation-load/run.sh).

Reads the generator's answers (perf's rotation profile, rotation.csv: phase, mode, due, end, latency from
the due time, Gatling's own time, status) and the times at which each workload received a new X.509-SVID
(events.csv: workload, epoch ms, from the Workload API update in its log). Every SVID change opens a
rotation window [change - before, change + after]; overlapping windows of the four workloads make one
round (a round cut by the start or the end of the load is judged on the answers it has). Steady is every measured answer due outside every window. Latency percentiles are nearest-rank
over the answers due in a window.

Prints the summary (and writes it to --summary) and exits 1 when an answer was not 200, when a workload's
SVID did not change inside the measured load, when the steady part is shorter than --min-steady seconds,
or when p99 of a round exceeds --goal x p99 of the steady part.
"""
import argparse
import csv
import math
import sys


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, math.ceil(p / 100.0 * len(s)) - 1)]


def fmt(v):
    return "-" if v != v else f"{v:.0f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--answers", required=True)
    ap.add_argument("--events", required=True)
    ap.add_argument("--before-ms", type=int, default=2000)
    ap.add_argument("--after-ms", type=int, default=10000)
    ap.add_argument("--goal", type=float, default=2.0)
    ap.add_argument("--min-steady", type=float, default=20.0)
    ap.add_argument("--per-second", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--header", default="")
    a = ap.parse_args()

    load, warm = [], []
    with open(a.answers) as f:
        for r in csv.DictReader(f):
            row = (int(r["due_epoch_ms"]), int(r["latency_ms"]), int(r["status"]), r["mode"])
            (load if r["phase"] == "load" else warm).append(row)
    events = []
    with open(a.events) as f:
        for r in csv.DictReader(f):
            events.append((r["workload"], int(r["epoch_ms"])))
    lines = [a.header] if a.header else []
    failures = []
    if not load:
        print("rotation-load: no measured answers", file=sys.stderr)
        sys.exit(1)
    start, end = min(r[0] for r in load), max(r[0] for r in load)
    dur = (end - start) / 1000.0
    errors = [r for r in load + warm if r[2] != 200]
    by_status = {}
    for r in errors:
        by_status[r[2]] = by_status.get(r[2], 0) + 1
    lines.append(
        f"load: {len(load)} balance requests due in {dur:.0f} s ({len(load) / max(dur, 1):.1f}/s offered, modes "
        f"{', '.join(sorted({r[3] for r in load}))} round robin), after a ramp of {len(warm)} requests")
    lines.append(f"errors (any answer but 200, ramp included): {len(errors)}"
                 + (f" {dict(sorted(by_status.items()))}" if errors else ""))
    if errors:
        failures.append(f"{len(errors)} requests failed")

    # every window that overlaps the measured load is kept out of the steady part and judged; a workload
    # counts as rotated under load when one of its windows lies wholly inside the load
    inside = [(w, t) for w, t in events if start + a.before_ms <= t <= end - a.after_ms]
    windows = sorted((t - a.before_ms, t + a.after_ms, w, t) for w, t in events
                     if t + a.after_ms >= start and t - a.before_ms <= end)
    rounds = []
    for lo, hi, w, t in windows:
        if rounds and lo <= rounds[-1]["hi"]:
            rounds[-1]["hi"] = max(rounds[-1]["hi"], hi)
            rounds[-1]["changes"].append((w, t))
        else:
            rounds.append({"lo": lo, "hi": hi, "changes": [(w, t)]})
    workloads = sorted({w for w, _ in events})
    for w in workloads:
        if not any(x == w for x, _ in inside):
            failures.append(f"{w}: no SVID change inside the measured load (lengthen ROTATION_DURATION)")

    def due_in(lo, hi):
        return [r[1] for r in load if lo <= r[0] <= hi]

    steady = [r[1] for r in load if not any(x["lo"] <= r[0] <= x["hi"] for x in rounds)]
    steady_s = len(steady) / max(len(load) / max(dur, 1), 1e-9)
    s50, s99 = pct(steady, 50), pct(steady, 99)
    lines.append(
        f"steady (answers due outside every rotation window, about {steady_s:.0f} s): n={len(steady)} "
        f"p50={fmt(s50)} ms p99={fmt(s99)} ms max={fmt(max(steady) if steady else float('nan'))} ms")
    if steady_s < a.min_steady:
        failures.append(f"only {steady_s:.0f} s of steady load (at least {a.min_steady:.0f} s needed)")
    first = rounds[0]["lo"] if rounds else end
    before = [r[1] for r in load if r[0] < first]
    lines.append(
        f"  of which before the first rotation ({max(0, first - start) / 1000:.0f} s): n={len(before)} "
        f"p50={fmt(pct(before, 50))} ms p99={fmt(pct(before, 99))} ms")
    lines.append(
        f"rotation windows: {a.before_ms / 1000:g} s before to {a.after_ms / 1000:g} s after each SVID change; "
        f"goal p99(window) <= {a.goal:g} x p99(steady)")
    worst = 0.0
    for i, x in enumerate(rounds, 1):
        lat = due_in(x["lo"], x["hi"])
        p99 = pct(lat, 99)
        ratio = p99 / s99 if s99 == s99 and s99 > 0 else float("inf")
        worst = max(worst, ratio)
        changes = ", ".join(f"{w} +{(t - start) / 1000:.1f} s" for w, t in sorted(x["changes"], key=lambda c: c[1]))
        lines.append(
            f"round {i} ({changes}): n={len(lat)} p50={fmt(pct(lat, 50))} ms p99={fmt(p99)} ms "
            f"max={fmt(max(lat) if lat else float('nan'))} ms, p99 ratio {ratio:.2f}"
            + ("" if ratio <= a.goal else "  ** over the goal"))
        for w, t in sorted(x["changes"], key=lambda c: c[1]):
            wl = due_in(t - a.before_ms, t + a.after_ms)
            lines.append(f"    {w:<13} changed at +{(t - start) / 1000:.1f} s: n={len(wl)} p50={fmt(pct(wl, 50))} ms "
                         f"p99={fmt(pct(wl, 99))} ms")
        if ratio > a.goal:
            failures.append(f"round {i}: p99 {fmt(p99)} ms > {a.goal:g} x steady p99 {fmt(s99)} ms")
    if not rounds:
        failures.append("no SVID change inside the measured load")
    lines.append(f"worst p99(rotation)/p99(steady): {worst:.2f} (goal <= {a.goal:g})")

    # per-second p50/p99 by due time, with the changes marked, for a plot
    per = {}
    for r in load:
        per.setdefault((r[0] - start) // 1000, []).append(r[1])
    marks = {}
    for w, t in events:
        if start <= t <= end:
            marks.setdefault((t - start) // 1000, []).append(w)
    with open(a.per_second, "w") as f:
        f.write("second,requests,p50_ms,p99_ms,max_ms,svid_changes\n")
        for sec in sorted(per):
            v = per[sec]
            f.write(f"{sec},{len(v)},{pct(v, 50)},{pct(v, 99)},{max(v)},{' '.join(marks.get(sec, []))}\n")

    lines.append("PASSED" if not failures else "FAILED: " + "; ".join(failures))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(a.summary, "w") as f:
        f.write(text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
