#!/usr/bin/env bash
# Closed-loop `balance` throughput of the same workloads on two deployments of one machine: the
# embedded stack (DevStackMain, one JVM, the development Workload API) and Docker Compose (five
# containers with one CPU each, real SPIRE, PostgreSQL, Prometheus; deploy/compose/offline.yaml).
# Per pooling profile: every mode's `balance` for WARM_ALL seconds in turn (the JIT of the shared
# paths), then per mode: wrk keeps C connections busy with one user's `balance` for WARM seconds (not
# measured), then for DURATION seconds (measured): requests/s, p50 and p99 (ms), non-2xx answers and
# socket errors; the stack's CPU time per request (the JVM's, or the sum of the workload, IdP and
# PostgreSQL containers') and its resident memory after the run; for Compose also each workload's
# idle CPU with Prometheus scraping every 5 s and every 100 ms (the thesis' interval).
# The generator runs on the same machine: measure on a quiet one and say what ran beside.
#
#   ./mvnw install -DskipTests && SPIRE_BIN=... deploy/compose-it/run.sh   # once: builds the images
#   perf/scripts/compose-vs-embedded.sh [profile...]                        # default: pooled thesis
#   C=8 WARM_ALL=30 WARM=20 DURATION=20 STACKS="embedded compose" MODES="lsvid dvid" perf/scripts/compose-vs-embedded.sh pooled
set -euo pipefail
cd "$(dirname "$0")/../.."
C=${C:-8}
WARM=${WARM:-20}
WARM_ALL=${WARM_ALL:-30}
SECS=${DURATION:-20}
MODES=${MODES:-dvid id-mode anon-mode lsvid}
STACKS=${STACKS:-embedded compose}
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(pooled thesis)
command -v wrk > /dev/null || { echo "compose-vs-embedded: wrk missing (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d /tmp/spiffeidt-cve.XXXXXX)
compose=(docker compose -p spiffeidt -f deploy/compose/compose.yaml -f deploy/compose/offline.yaml)
stack_pid=""
cleanup() {
  devstack_stop
  [ -z "${compose_up:-}" ] || "${compose[@]}" down -v > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=../../deploy/lib/cgroup.sh
source deploy/lib/cgroup.sh
# shellcheck source=lib/devstack.sh
source perf/scripts/lib/devstack.sh
cat > "$work/post.lua" << 'EOF'
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("WRK_TOKEN")
EOF

# CPU time (ms) of the stack: the JVM, or the containers named in $cpu_containers
cpu_ms() {
  if [ -n "$stack_pid" ]; then
    awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$stack_pid/stat"
    return
  fi
  local c sum=0
  for c in $cpu_containers; do sum=$((sum + $(container_cpu_ms "spiffeidt-$c-1"))); done
  echo "$sum"
}
rss_mb() {
  if [ -n "$stack_pid" ]; then
    awk '/VmRSS/ {print int($2/1024)}' "/proc/$stack_pid/status"
  else
    docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' $(for c in $cpu_containers; do echo "spiffeidt-$c-1"; done) \
      | awk '{v=$2; u=v; gsub(/[0-9.]/,"",u); gsub(/[A-Za-z]/,"",v); m=(u=="GiB")?v*1024:(u=="KiB")?v/1024:v; s+=m; printf "%s=%d ", $1, m} END {printf "sum=%d", s}' \
      | sed 's/spiffeidt-//g; s/-1=/=/g'
  fi
}

run_modes() { # STACK PROFILE
  local mode out rps p50 p99 non2xx errs cpu0 cpu1 n
  token=$(curl -sf -d username=user0001 -d password=password "$idp_url/dev/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  for mode in $MODES; do
    curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" "$sub_url/api/$mode/mint" \
      || curl -sf -o /dev/null --max-time 60 -X POST -H "Authorization: Bearer $token" "$sub_url/api/$mode/mint"
  done
  # every mode warms the JIT first: the code paths the modes share (TLS, HTTP, JSON) would
  # otherwise be compiled during the first mode's measurement and make it look slow
  for mode in $MODES; do
    WRK_TOKEN=$token wrk -t2 -c"$C" -d"${WARM_ALL}s" -s "$work/post.lua" "$sub_url/api/$mode/balance" > /dev/null
  done
  for mode in $MODES; do
    WRK_TOKEN=$token wrk -t2 -c"$C" -d"${WARM}s" -s "$work/post.lua" "$sub_url/api/$mode/balance" > /dev/null
    cpu0=$(cpu_ms)
    out=$(WRK_TOKEN=$token wrk -t2 -c"$C" -d"${SECS}s" --timeout 10s --latency -s "$work/post.lua" "$sub_url/api/$mode/balance")
    cpu1=$(cpu_ms)
    rps=$(awk '/^Requests\/sec/ {print $2}' <<< "$out")
    n=$(awk '/requests in/ {print $1}' <<< "$out")
    p50=$(awk '$1 == "50%" {print $2}' <<< "$out")
    p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<< "$out")
    errs=$(awk '/Socket errors/ {print $0}' <<< "$out" | sed 's/ *Socket errors: *//')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$mode" "$rps" "$p50" "$p99" "${non2xx:-0}" "${errs:-none}" \
      "$(awk -v d=$((cpu1 - cpu0)) -v n="$n" 'BEGIN {printf "%.2f", n ? d / n : 0}')"
  done
  echo "  resident memory after the run ($1, $2): $(rss_mb) MB"
}

echo "compose-vs-embedded: $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), C=$C, ${WARM}s warm-up, ${SECS}s measured"
echo "| stack | profile | mode | req/s | p50 | p99 | non-2xx | socket errors | CPU ms / request |"
echo "|---|---|---|---|---|---|---|---|---|"
# the thesis reproduction remembers nothing (spiffeidt.memo.enabled=false); every other profile does
memo_for() { [ "$1" = thesis ] && echo false || echo true; }
for profile in "${profiles[@]}"; do
  for stack in $STACKS; do
    if [ "$stack" = embedded ]; then
      PROFILE=$profile MEMO=$(memo_for "$profile") devstack_start "$work/stack.log"
      stack_pid=$devstack_pid
      run_modes embedded "$profile"
      devstack_stop; stack_pid=""
    else
      cpu_containers="subject-wl asserting-wl m-tier target-wl idp postgres"
      compose_up=1
      SPIFFEIDT_POOLING_PROFILE=$profile SPIFFEIDT_MEMO_ENABLED=$(memo_for "$profile") "${compose[@]}" up -d --wait --wait-timeout 300 > "$work/up.log" 2>&1 \
        || { tail -20 "$work/up.log"; exit 1; }
      sub_url=http://127.0.0.1:8080 idp_url=http://127.0.0.1:9000
      run_modes compose "$profile"
      # idle: every workload's CPU with Prometheus every 5 s, then every 100 ms
      for cfg in prometheus.yml prometheus-thesis.yml; do
        SPIFFEIDT_POOLING_PROFILE=$profile SPIFFEIDT_MEMO_ENABLED=$(memo_for "$profile") SPIFFEIDT_PROMETHEUS_CONFIG=$cfg "${compose[@]}" up -d --wait prometheus > /dev/null 2>&1
        sleep 10
        cpu_containers="subject-wl asserting-wl m-tier target-wl"; a=$(cpu_ms)
        cpu_containers="prometheus"; pa=$(cpu_ms)
        sleep 30
        cpu_containers="subject-wl asserting-wl m-tier target-wl"; b=$(cpu_ms)
        cpu_containers="prometheus"; pb=$(cpu_ms)
        echo "  idle, Prometheus with $cfg: the four workloads $(awk -v d=$((b - a)) 'BEGIN {printf "%.1f", d / 300}') % of a core in all, Prometheus $(awk -v d=$((pb - pa)) 'BEGIN {printf "%.1f", d / 300}') %"
      done
      "${compose[@]}" down -v > /dev/null 2>&1; compose_up=""
    fi
  done
done
