#!/usr/bin/env bash
# A workload's start-up in its image: with the offline Compose deployment up, each workload
# container is stopped and started again (`docker stop`, `docker start`: the container alone, as the engine
# restarts it; `docker compose start` would also run its one-shot dependencies again), ROUNDS times, and timed
# from `docker start` to
#   - Spring's "Started ... in X seconds (process running for Y)" (the JVM's own view), and
#   - the first 200 of its readiness endpoint, polled every 50 ms from the host (what an orchestrator sees);
# and at that moment reads the CPU time of the container (its cgroup) and of the JVM's threads, split into
# the JIT compilers (C1/C2 "CompilerThread"), the main thread (where Spring starts the application; it is
# named "java") and the rest (GC, the VM thread, pools).
# Output: perf/target/image-startup/startup.csv and summary.md (median and range per workload).
#
#   deploy/images/build-offline.sh && deploy/images/load-images.sh   # once (and build-offline-deps.sh once)
#   perf/scripts/image-startup.sh                                     # ROUNDS=3 by default
#   JAVA_OPTIONS="-XX:TieredStopAtLevel=1" OUT=tiered perf/scripts/image-startup.sh
#       JVM options for the four workloads (JDK_JAVA_OPTIONS, through a Compose file of its own, so they add
#       to the JAVA_TOOL_OPTIONS of COMPOSE_EXTRA's files), e.g. to see what the JIT costs; OUT names the
#       output directory under perf/target/image-startup
#   SPIFFEIDT_TAG=0.1.0-SNAPSHOT-jdk25 COMPOSE_EXTRA=deploy/compose/aot-cache.yaml OUT=jdk25-aot perf/scripts/image-startup.sh
#       more Compose files (space-separated), here JDK 25's AOT cache on images built on a JDK 25 base
#
# Needs a running Docker engine with the Compose plugin, the ports of the deployment free, and a quiet
# machine (the figures are wall-clock times on the deployment's CPU limits: one CPU per workload).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../../deploy/lib/cgroup.sh
source deploy/lib/cgroup.sh
rounds=${ROUNDS:-3}
out=perf/target/image-startup${OUT:+/$OUT}
mkdir -p "$out"
compose=(docker compose -p spiffeidt -f deploy/compose/compose.yaml -f deploy/compose/offline.yaml)
for f in ${COMPOSE_EXTRA:-}; do compose+=(-f "$f"); done
if [ -n "${JAVA_OPTIONS:-}" ]; then
  {
    echo "services:"
    for wl in asserting-wl target-wl m-tier subject-wl; do
      printf '  %s:\n    environment:\n      JDK_JAVA_OPTIONS: "%s"\n' "$wl" "$JAVA_OPTIONS"
    done
  } > "$out/java-options.yaml"
  compose+=(-f "$out/java-options.yaml")
fi
declare -A ready_url=(
  [idp]=http://127.0.0.1:9000/.well-known/openid-configuration
  [subject-wl]=http://127.0.0.1:18080/actuator/health/readiness
  [asserting-wl]=http://127.0.0.1:18443/actuator/health/readiness
  [target-wl]=http://127.0.0.1:18444/actuator/health/readiness
  [m-tier]=http://127.0.0.1:18445/actuator/health/readiness
)
ms() { date +%s%3N; }
# CPU ms of a process's threads: "jit,main,other" (from /proc/PID/task/*/stat; the host sees the container's
# processes; ",," if unreadable)
thread_cpu_ms() {
  python3 - "$1" << 'EOF' 2> /dev/null || echo ",,"
import os, sys
pid, hz = sys.argv[1], os.sysconf("SC_CLK_TCK")
cpu = {"jit": 0, "main": 0, "other": 0}
for task in os.listdir(f"/proc/{pid}/task"):
    stat = open(f"/proc/{pid}/task/{task}/stat").read()
    name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
    kind = "jit" if "CompilerThre" in name else "main" if name == "java" else "other"
    cpu[kind] += (int(fields[11]) + int(fields[12])) * 1000 // hz
print(f"{cpu['jit']},{cpu['main']},{cpu['other']}")
EOF
}

echo "image-startup: $(date -u +%FT%TZ), git $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
"${compose[@]}" up -d --wait --wait-timeout 300 > "$out/up.log" 2>&1 || { tail -20 "$out/up.log"; exit 1; }
trap '"${compose[@]}" down -v > /dev/null 2>&1 || true' EXIT
echo "image-startup: JAVA_OPTIONS=${JAVA_OPTIONS:-} COMPOSE_EXTRA=${COMPOSE_EXTRA:-} SPIFFEIDT_TAG=${SPIFFEIDT_TAG:-}" | tee "$out/options.txt"
echo "workload,round,ready_ms,cpu_ms,jit_cpu_ms,main_cpu_ms,other_cpu_ms,spring_started_s,jvm_running_s" > "$out/startup.csv"
for round in $(seq 1 "$rounds"); do
  for wl in idp asserting-wl target-wl m-tier subject-wl; do
    docker stop "spiffeidt-$wl-1" > /dev/null
    sleep 2
    since=$(date -u +%FT%T.%3NZ)
    t0=$(ms)
    docker start "spiffeidt-$wl-1" > /dev/null
    ready=""
    for _ in $(seq 1 1200); do # at most 60 s
      if curl -fs -o /dev/null --max-time 1 "${ready_url[$wl]}"; then
        ready=$(($(ms) - t0))
        break
      fi
      sleep 0.05
    done
    [ -n "$ready" ] || { echo "image-startup: $wl not ready within 60 s" >&2; exit 1; }
    cpu=$(container_cpu_ms "spiffeidt-$wl-1") # the container's cgroup is made anew by each start
    threads=$(thread_cpu_ms "$(docker inspect -f '{{.State.Pid}}' "spiffeidt-$wl-1")")
    line=$("${compose[@]}" logs --no-color --since "$since" "$wl" 2> /dev/null | grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds (process running for [0-9.]*)' || true)
    spring=$(sed -n 's/.* in \([0-9.]*\) seconds.*/\1/p' <<< "$line")
    jvm=$(sed -n 's/.*running for \([0-9.]*\))/\1/p' <<< "$line")
    echo "$wl,$round,$ready,$cpu,$threads,${spring:-},${jvm:-}" >> "$out/startup.csv"
    echo "  round $round $wl: ready after ${ready} ms, ${cpu} ms of CPU (JIT,main,other: $threads; Spring ${spring:-?} s, JVM ${jvm:-?} s)"
    sleep 3 # let the others settle before the next start
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" << 'EOF'
import csv, statistics, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/startup.csv")))
lines = ["| workload | ready (ms): median [min–max] | CPU until ready (ms) | of it JIT / main / other (ms) | Spring started (s) | JVM running (s) |", "|---|---|---|---|---|---|"]
for wl in dict.fromkeys(r["workload"] for r in rows):
    rs = [r for r in rows if r["workload"] == wl]
    ready = [int(r["ready_ms"]) for r in rs]
    def med(key):
        v = [float(r[key]) for r in rs if r[key]]
        return f"{statistics.median(v):.2f}" if v else "–"
    split = " / ".join(med(k) for k in ("jit_cpu_ms", "main_cpu_ms", "other_cpu_ms"))
    lines.append(f"| {wl} | {statistics.median(ready):.0f} [{min(ready)}–{max(ready)}] | {med('cpu_ms')} | {split} | {med('spring_started_s')} | {med('jvm_running_s')} |")
open(f"{out}/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
