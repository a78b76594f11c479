#!/usr/bin/env bash
# The closed-loop goal on its own terms: the embedded stack, `pooled` with the memos, the generator on the same
# machine keeping C (16) connections busy (wrk, a closed loop: a connection sends its next request when the
# answer is in), USERS (20) users' requests in turn. Per round a freshly started stack; every mode's `balance` for WARM_ALL seconds in turn
# (the JIT of the paths the modes share), then per mode and request (`balance` for every mode, `mint` for
# MINT_MODES) WARM seconds not measured and DURATION seconds measured: requests/s, p50, p99 and the slowest (ms),
# non-2xx answers and socket errors, and the CPU time per request of each tier (the stack's threads,
# `jcmd Thread.print` before and after, by the port in a thread's name: a tier's Tomcat threads, which also
# make its outgoing calls) and of the whole JVM ("all": the tiers plus GC, JIT, the Workload API and
# threads that ended). The last column checks the issue's goal for the four document modes: `balance`
# LSVID >= 1,500/s and <= 1 ms CPU, the others >= 750/s and <= 2 ms, p99 <= 50 ms, no error; `mint`
# >= 100/s for ID-Mode and Anon-Mode (DVID: its ceiling, bounded by the proof).
#
#   ./mvnw install -DskipTests && perf/scripts/closed-loop.sh
#   ROUNDS=2 C=16 USERS=20 WARM_ALL=30 WARM=15 DURATION=20 MODES="lsvid dvid" MINT_MODES="dvid" perf/scripts/closed-loop.sh
#   JVM_OPTIONS="-XX:+UseG1GC" perf/scripts/closed-loop.sh     (the stack's JVM options, word-split; default
#   -XX:+UseParallelGC, the cheaper collector on two cores and a 1 GB heap: docs/measurement.md; "" for the
#   JVM's own choice, G1 on this machine)
# Writes perf/target/closed-loop/summary.md. Measure on a quiet machine: the script prints the load average
# before and after; say what ran beside.
set -euo pipefail
cd "$(dirname "$0")/../.."
C=${C:-16}
USERS=${USERS:-20}
ROUNDS=${ROUNDS:-2}
WARM_ALL=${WARM_ALL:-30}
WARM=${WARM:-15}
SECS=${DURATION:-20}
MODES=${MODES:-dvid id-mode anon-mode lsvid txn-token mtls-only bearer-forward wimse}
MINT_MODES=${MINT_MODES-dvid id-mode anon-mode lsvid}   # MINT_MODES="" for none
export PROFILE=${PROFILE:-pooled} MEMO=${MEMO:-true}
JVM_OPTIONS=${JVM_OPTIONS--XX:+UseParallelGC}
command -v wrk > /dev/null || { echo "closed-loop: wrk missing (apt-get install wrk)" >&2; exit 1; }
jcmd=${JAVA_HOME:+$JAVA_HOME/bin/}jcmd
# shellcheck source=lib/devstack.sh
source perf/scripts/lib/devstack.sh
out=perf/target/closed-loop
mkdir -p "$out"
work=$(mktemp -d /tmp/spiffeidt-closed-loop.XXXXXX)
trap 'devstack_stop; rm -rf "$work"' EXIT
# every request carries the next user's token (each wrk thread goes round the users on its own)
cat > "$work/post.lua" << 'EOF'
local tokens = {}
for t in string.gmatch(os.getenv("WRK_TOKENS"), "[^ ]+") do tokens[#tokens + 1] = t end
local turn = 0
request = function()
  turn = turn % #tokens + 1
  return wrk.format("POST", nil, { ["Authorization"] = "Bearer " .. tokens[turn] })
end
EOF

jvm_cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$devstack_pid/stat"; }
threads() { "$jcmd" "$devstack_pid" Thread.print > "$1"; }

# CPU ms per request by tier: thread dumps before and after, the tiers' ports, the whole JVM's CPU, requests
per_tier() {
  python3 - "$@" << 'PY'
import re, sys
before, after, ports, all_ms, n = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
line = re.compile(r'^"(.*)" .*\bcpu=([0-9.]+)(ms|s)\b')
def read(path):
    out = {}
    for l in open(path):
        m = line.match(l)
        if m:
            out[m.group(1)] = float(m.group(2)) * (1000 if m.group(3) == "s" else 1)
    return out
b, a = read(before), read(after)
tiers = dict(p.split("=") for p in ports.split())  # component=port
ms = {t: 0.0 for t in ["subject-wl", "asserting-wl", "m-tier", "target-wl"]}
for name, cpu in a.items():
    for tier, port in tiers.items():
        if tier in ms and ("-%s-" % port in name or name.endswith("-" + port)):
            ms[tier] += max(0.0, cpu - b.get(name, 0.0))
print(" ".join("%.2f" % (ms[t] / n) for t in ms) + " %.2f" % (all_ms / n))
PY
}

goal() { # mode request rps p99_ms errors all_cpu_ms
  python3 - "$@" << 'PY'
import sys
mode, req, rps, p99, errors, cpu = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], float(sys.argv[6])
docs = ["dvid", "id-mode", "anon-mode", "lsvid"]
missed = []
if mode not in docs or (req == "mint" and mode in ("dvid", "lsvid")):
    print("–"); sys.exit()
if req == "balance":
    want_rps, want_cpu = (1500, 1.0) if mode == "lsvid" else (750, 2.0)
    if rps < want_rps: missed.append("%.0f/s < %d/s" % (rps, want_rps))
    if p99 > 50: missed.append("p99 %.0f ms > 50" % p99)
    if cpu > want_cpu: missed.append("CPU %.2f ms > %.0f" % (cpu, want_cpu))
else:
    if rps < 100: missed.append("%.0f/s < 100/s" % rps)
if errors != "0": missed.append("errors")
print("met" if not missed else "missed: " + ", ".join(missed))
PY
}

to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; printf "%.1f", v}' <<< "$1"; }

summary="$out/summary.md"
{
  echo "closed-loop: $(date -u +%FT%TZ), $(nproc) cores, load before $(cut -d' ' -f1-3 /proc/loadavg), JDK $("${JAVA_HOME:+$JAVA_HOME/bin/}java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.version = //p'), profile $PROFILE, memo $MEMO, JVM options '${JVM_OPTIONS:-}', C=$C, $USERS users, ${WARM_ALL} s warm-up per mode, then ${WARM} s warm and ${SECS} s measured per row, $ROUNDS rounds"
  echo
  echo "| round | mode | request | req/s | p50 | p99 | max (ms) | non-2xx | socket errors | CPU ms/request subject, asserting, m-tier, target; all | goal |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} > "$summary"
cat "$summary"
for round in $(seq "$ROUNDS"); do
  # shellcheck disable=SC2086
  devstack_start "$work/stack.log" ${JVM_OPTIONS:-}
  ports=""
  for c in subject-wl asserting-wl m-tier target-wl; do ports+="$c=${devstack_port[$c]} "; done
  WRK_TOKENS=""
  for u in $(seq "$USERS"); do
    token=$(devstack_token "$(printf 'user%04d' "$u")")
    WRK_TOKENS+="$token "
    for mode in $MODES; do
      curl -sf -o /dev/null --max-time 60 -X POST -H "Authorization: Bearer $token" "$sub_url/api/$mode/mint"
    done
  done
  export WRK_TOKENS
  for mode in $MODES; do
    wrk -t2 -c"$C" -d"${WARM_ALL}s" -s "$work/post.lua" "$sub_url/api/$mode/balance" > /dev/null
  done
  for mode in $MODES; do
    requests=balance
    [[ " $MINT_MODES " == *" $mode "* ]] && requests="balance mint"
    for request in $requests; do
      url=$sub_url/api/$mode/$request
      wrk -t2 -c"$C" -d"${WARM}s" -s "$work/post.lua" "$url" > /dev/null
      threads "$work/before.txt"
      cpu0=$(jvm_cpu_ms)
      res=$(wrk -t2 -c"$C" -d"${SECS}s" --timeout 10s --latency -s "$work/post.lua" "$url")
      cpu1=$(jvm_cpu_ms)
      threads "$work/after.txt"
      n=$(awk '/requests in/ {print $1}' <<< "$res")
      rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' <<< "$res")
      p50=$(to_ms "$(awk '$1 == "50%" {print $2}' <<< "$res")")
      p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<< "$res")")
      non2xx=$(awk '/Non-2xx/ {print $NF}' <<< "$res")
      errs=$(awk '/Socket errors/' <<< "$res" | sed 's/ *Socket errors: *//')
      max=$(to_ms "$(awk '$1 == "Latency" {print $4}' <<< "$res")")
      read -r s a m t all <<< "$(per_tier "$work/before.txt" "$work/after.txt" "$ports" $((cpu1 - cpu0)) "$n")"
      errors=0
      [ -z "$non2xx" ] && [ -z "$errs" ] || errors=1
      verdict=$(goal "$mode" "$request" "$rps" "$p99" "$errors" "$all")
      echo "| $round | $mode | $request | $rps | $p50 | $p99 | $max | ${non2xx:-0} | ${errs:-none} | $s, $a, $m, $t; $all | $verdict |" | tee -a "$summary"
    done
  done
  echo "  round $round: resident memory $(awk '/VmRSS/ {print int($2/1024)}' "/proc/$devstack_pid/status") MB, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$summary"
  devstack_stop
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$summary"
echo "summary: $summary"
