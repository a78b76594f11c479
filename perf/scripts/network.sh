#!/usr/bin/env bash
# What a mode costs when the tiers are apart: each workload, the IdP and the load generator on its own
# host (a network namespace whose one interface leads to a switch process in a namespace of its own,
# perf/scripts/network/switch.py: netem's delay, jitter, loss and rate in user space, as kernels without
# sch_netem need), a round-trip time between any two hosts, and sequential `balance` calls timed
# per mode, pooling profile and round-trip time. Beside each measured p50 it prints the p50 a model
# predicts, p50(0) + round_trips x RTT, with the round trips on the critical path of one `balance` taken
# from the code paths (perf/scripts/network/round-trips.tsv) and checked against the wire (the Wire-Bytes
# entries of the answers, the clients' TLS handshake counters, and the SYNs and ClientHellos the switch
# forwarded). docs/measurement.md "Network" says how to read it.
#
#   ./mvnw install -DskipTests && perf/scripts/network.sh
#   RTTS="0 5" MODES="lsvid dvid txn-token" perf/scripts/network.sh
#   RTTS=5 LOSS=1 DURATION=120 MODES=dvid PROFILES=pooled perf/scripts/network.sh   (1 % loss, 2 minutes)
#
# Settings:
#   RTTS      round-trip times in ms between any two hosts (default "0 1 5 30"; 0 is always measured first,
#             the prediction needs it). Every packet waits RTT/2 in the switch, so every link, the
#             generator's to subject-wl included, has that round-trip time.
#   JITTER    ms of jitter, uniform, on each packet's one-way delay (default 0)
#   LOSS      % of packets dropped, in both directions of every link (default 0)
#   RATE      Mbit/s into each host (default 0: no limit)
#   MODES     default: all seven; PROFILES pooling profiles, default "pooled thesis" (thesis: Table 7's
#             connections and no memo, spiffeidt.memo.enabled=false; every other profile keeps the memos)
#   N         measured calls per mode, profile and RTT (default 100); DURATION: seconds of calls per RTT instead
#   WARM      seconds of calls per mode at RTT 0 before anything is measured (default 30; the JIT)
#   SUBNET    the first three octets of the hosts' addresses (default 10.77.0; nothing routes out of it)
#   JVM_OPTIONS  for each of the five JVMs (default "-Xms128m -Xmx512m -XX:+UseParallelGC")
# Needs root, iproute2 (ip netns), /dev/net/tun and chrt (util-linux). Writes perf/target/network/: results.tsv,
# summary.md with p50-vs-rtt.svg, wire.txt, one log per process. Starts nothing outside its namespaces and removes every namespace and
# process it started on exit, failure or interrupt. Measure on a quiet machine: it prints the load average.
set -euo pipefail
cd "$(dirname "$0")/../.."
RTTS=${RTTS:-0 1 5 30}
JITTER=${JITTER:-0}
LOSS=${LOSS:-0}
RATE=${RATE:-}
MODES=${MODES:-dvid id-mode anon-mode lsvid txn-token mtls-only bearer-forward}
PROFILES=${PROFILES:-pooled thesis}
N=${N:-100}
DURATION=${DURATION:-0}
WARM=${WARM:-30}
SUBNET=${SUBNET:-10.77.0}
JVM_OPTIONS=${JVM_OPTIONS--Xms128m -Xmx512m -XX:+UseParallelGC}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java

[ "$(id -u)" = 0 ] || { echo "network: needs root (ip netns)" >&2; exit 1; }
ip netns list > /dev/null && [ -c /dev/net/tun ] && command -v chrt > /dev/null || { echo "network: needs iproute2 (ip netns), /dev/net/tun and chrt" >&2; exit 1; }
declare -A jar=()
for m in idp subject-wl asserting-wl m-tier target-wl; do
  jar[$m]=$(ls "$m"/target/"$m"-*-exec.jar 2> /dev/null | head -1)
  [ -n "${jar[$m]}" ] || { echo "network: $m/target/$m-*-exec.jar missing (./mvnw install -DskipTests)" >&2; exit 1; }
done
# shellcheck source=lib/devstack.sh
source perf/scripts/lib/devstack.sh   # devstack_classpath: the development Workload API's class path
devstack_classpath

out=perf/target/network
mkdir -p "$out"
work=$(mktemp -d /tmp/spiffeidt-network.XXXXXX)
tag=sidt$$                              # namespace names: <tag>-<host>
hosts=(sw idp asserting-wl target-wl m-tier subject-wl gen)
switch_pid=""
declare -A addr=([idp]=$SUBNET.5 [asserting-wl]=$SUBNET.10 [target-wl]=$SUBNET.11 [m-tier]=$SUBNET.12
  [subject-wl]=$SUBNET.13 [gen]=$SUBNET.20)
declare -A port=([idp]=9000 [asserting-wl]=8443 [target-wl]=8444 [m-tier]=8445 [subject-wl]=8080)
declare -A mgmt=([asserting-wl]=18443 [target-wl]=18444 [m-tier]=18445 [subject-wl]=18080)
pids=()
made=()

ns() { echo "$tag-$1"; }
in_ns() { local h=$1; shift; ip netns exec "$(ns "$h")" "$@"; }   # (background processes call ip directly: $! is then their pid)

stop_processes() {
  local p _
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  for _ in $(seq 100); do
    local alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2> /dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2> /dev/null || true; wait "$p" 2> /dev/null || true; done
  pids=()
}
cleanup() {
  local rc=$? h p
  trap - EXIT INT TERM
  stop_processes
  for h in "${made[@]}"; do
    # anything still running in a namespace made here was started here
    for p in $(ip netns pids "$(ns "$h")" 2> /dev/null); do kill -9 "$p" 2> /dev/null || true; done
    ip netns del "$(ns "$h")" 2> /dev/null || true
  done
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the hosts: one namespace each, with one TUN interface whose other end is the switch (network/switch.py,
# in a namespace of its own): the delay, jitter, loss and rate of every link are the switch's; the only route
# is the subnet's own, so an address outside it is unreachable from every host ----
for h in "${hosts[@]}"; do
  ip netns add "$(ns "$h")"
  made+=("$h")
  in_ns "$h" ip link set lo up
  in_ns "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
echo "0 0 0 0" > "$work/link"
specs=()
i=0
for h in "${hosts[@]}"; do
  [ "$h" = sw ] && continue
  i=$((i + 1))
  specs+=("h$i=${addr[$h]}")
done
# real-time priority: on a busy machine a late wake-up of the switch would add to every packet's delay
ip netns exec "$(ns sw)" chrt -f 50 python3 perf/scripts/network/switch.py "$work/link" "${specs[@]}" > "$work/switch.out" 2> "$out/switch.log" &
switch_pid=$!
pids+=($switch_pid)
for _ in $(seq 50); do grep -q ready "$work/switch.out" 2> /dev/null && break; sleep 0.1; done
grep -q ready "$work/switch.out" || { echo "network: the switch did not start" >&2; cat "$out/switch.log" >&2; exit 1; }
i=0
for h in "${hosts[@]}"; do
  [ "$h" = sw ] && continue
  i=$((i + 1))
  ip -n "$(ns sw)" link set "h$i" netns "$(ns "$h")"
  in_ns "$h" ip link set "h$i" name eth0
  in_ns "$h" ip addr add "${addr[$h]}/24" dev eth0
  in_ns "$h" ip link set eth0 up
  [ -z "$(in_ns "$h" ip route show default)" ] || { echo "network: $h has a default route" >&2; exit 1; }
done

set_link() { # RTT_MS: every packet waits RTT/2 in the switch, with the jitter, loss and rate asked for
  awk -v r="$1" -v j="$JITTER" -v l="$LOSS" -v rate="${RATE:-0}" 'BEGIN {printf "%g %g %g %g\n", r / 2, j, l, rate}' > "$work/link"
  kill -HUP "$switch_pid"
  sleep 0.2
}
set_link 0

wait_for() { # SECONDS HOST CMD...: until CMD succeeds in HOST's namespace
  local s=$1 h=$2 _
  shift 2
  for _ in $(seq $((s * 2))); do
    in_ns "$h" "$@" > /dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}

# ---- the system: the development Workload API (unix sockets, files: they reach every namespace) and the IdP
# in the IdP's host, each workload in its own ----
mkdir -p "$work/sockets"
# shellcheck disable=SC2086
ip netns exec "$(ns idp)" "$java" $JVM_OPTIONS -cp "$devstack_cp" io.spiffeidt.devstack.workloadapi.DevWorkloadApiMain "$work/sockets" \
  > "$out/workload-api.log" 2>&1 &
pids+=($!)
issuer=http://${addr[idp]}:${port[idp]}
# shellcheck disable=SC2086
ip netns exec "$(ns idp)" "$java" $JVM_OPTIONS -jar "${jar[idp]}" --spiffeidt.idp.issuer="$issuer" \
  --logging.level.root=WARN > "$out/idp.log" 2>&1 &
pids+=($!)
wait_for 120 gen curl -sf "$issuer/.well-known/openid-configuration" || { tail -20 "$out/idp.log" >&2; echo "network: the IdP did not start" >&2; exit 1; }
for w in asserting-wl target-wl m-tier subject-wl; do
  wait_for 60 idp test -S "$work/sockets/$w.sock" || { echo "network: no Workload API socket for $w" >&2; exit 1; }
done

start_workloads() { # PROFILE
  local w args
  for w in asserting-wl target-wl m-tier subject-wl; do
    args=(--spiffeidt.oauth.issuers[0].issuer="$issuer" --spiffeidt.oauth.issuers[0].audience=spiffeidt
      --spiffeidt.endpoints.asserting-wl="https://${addr[asserting-wl]}:${port[asserting-wl]}"
      --spiffeidt.endpoints.target-wl="https://${addr[target-wl]}:${port[target-wl]}"
      --spiffeidt.endpoints.m-tier="https://${addr[m-tier]}:${port[m-tier]}"
      --spiffeidt.workload-api.init-timeout=120s --logging.level.root=WARN)
    [ "$w" = subject-wl ] && args+=(--spring.security.oauth2.client.provider.idp.issuer-uri="$issuer")
    # the two settings the Spring profile `thesis` would set: that profile's file (application-thesis.properties)
    # is not read by the exec jars, whose spring.config.name is the workload's name
    args+=(--spiffeidt.pooling.profile="$1" --spiffeidt.memo.enabled="$([ "$1" = thesis ] && echo false || echo true)")
    # shellcheck disable=SC2086
    SPIFFE_ENDPOINT_SOCKET=unix:$work/sockets/$w.sock ip netns exec "$(ns "$w")" "$java" $JVM_OPTIONS -jar "${jar[$w]}" \
      "${args[@]}" > "$out/$w-$1.log" 2>&1 &
    pids+=($!)
    workload_pid[$w]=$!
  done
  for w in asserting-wl target-wl m-tier subject-wl; do
    wait_for 180 "$w" curl -sf "http://127.0.0.1:${mgmt[$w]}/actuator/health" \
      || { tail -20 "$out/$w-$1.log" >&2; echo "network: $w did not start ($1)" >&2; exit 1; }
  done
}
declare -A workload_pid=()
stop_workloads() {
  local w p keep=()
  for w in "${!workload_pid[@]}"; do kill "${workload_pid[$w]}" 2> /dev/null || true; done
  for w in "${!workload_pid[@]}"; do wait "${workload_pid[$w]}" 2> /dev/null || true; done
  for p in "${pids[@]}"; do
    for w in "${!workload_pid[@]}"; do [ "$p" = "${workload_pid[$w]}" ] && continue 2; done
    keep+=("$p")
  done
  pids=("${keep[@]}")
  workload_pid=()
}

# the switch's own count of what it forwarded: "forwarded lost syn client_hello" (a capture, not the workloads' word)
switch_stats() {
  rm -f "$work/link.stats"
  kill -USR1 "$switch_pid"
  for _ in $(seq 50); do [ -s "$work/link.stats" ] && break; sleep 0.02; done
  cat "$work/link.stats"
}

# TLS handshakes the four workloads' clients completed so far (spiffeidt.client.handshakes)
handshakes() {
  local w sum=0 v
  for w in asserting-wl target-wl m-tier subject-wl; do
    v=$(in_ns "$w" curl -sf "http://127.0.0.1:${mgmt[$w]}/actuator/prometheus" \
      | awk '/^spiffeidt_client_handshakes_total/ {s += $NF} END {printf "%d", s}')
    sum=$((sum + v))
  done
  echo "$sum"
}

token=$(in_ns gen curl -sf -d username=user0001 -d password=password "$issuer/dev/token" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
export BALANCE_TOKEN=$token
measure() { # MODE ARGS...: balance.py's JSON
  local mode=$1
  shift
  in_ns gen python3 perf/scripts/network/balance.py "${addr[subject-wl]}" "${port[subject-wl]}" "$mode" "$@"
}
json() { python3 -c 'import json,sys; v=json.loads(sys.argv[1]).get(sys.argv[2]); print("" if v is None else (round(v, 1) if isinstance(v, float) else v))' "$1" "$2"; }

rtt_list=(0)
for r in $RTTS; do [ "$r" = 0 ] || rtt_list+=("$r"); done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "network: $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2> /dev/null || echo unknown), $(nproc) cores, load ${load_before}"
echo "network: RTTs ${rtt_list[*]} ms, jitter ${JITTER} ms, loss ${LOSS} %, rate ${RATE:-none}; $([ "$DURATION" = 0 ] && echo "$N calls" || echo "${DURATION} s") per row, fresh connection per call"
printf 'mode\tprofile\trtt_ms\tround_trips\twire_round_trips\tpredicted_ms\tmeasured_ms\tp99_ms\tcalls\tfailed\tdeviation_pct\n' > "$out/results.tsv"
: > "$out/wire.txt"
failed_total=0
for profile in $PROFILES; do
  started=$(date +%s)
  start_workloads "$profile"
  echo "network: $profile up in $(($(date +%s) - started)) s"
  for mode in $MODES; do
    in_ns gen curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" "http://${addr[subject-wl]}:${port[subject-wl]}/api/$mode/mint" \
      || { echo "network: $mode mint failed ($profile)" >&2; exit 1; }
    measure "$mode" --seconds "$WARM" > /dev/null
  done
  printf '\n| mode | profile | RTT (ms) | round trips (model / wire) | predicted p50 (ms) | measured p50 (ms) | p99 (ms) | calls | failed |\n|---|---|---|---|---|---|---|---|---|\n'
  for mode in $MODES; do
    n=$(awk -F'\t' -v m="$mode" -v p="$profile" '$1 == m && $2 == p {print $3}' perf/scripts/network/round-trips.tsv)
    [ -n "$n" ] || { echo "network: no round-trip count for $mode $profile" >&2; exit 1; }
    hs_before=$(handshakes)
    read -r _ _ syn_before hello_before <<< "$(switch_stats)"
    # every RTT in rounds of 10 calls, RTT 0 included: the prediction's p50(0) and each p50(RTT) come from
    # the same minutes, whatever else the machine runs meanwhile
    count=(--count "$N")
    [ "$DURATION" = 0 ] || count=(--seconds "$DURATION")
    results=$(measure "$mode" "${count[@]}" --rtts "$(tr ' ' , <<< "${rtt_list[*]}")" --batch 10 \
      --switch "$work/link:$switch_pid" --link "$JITTER $LOSS ${RATE:-0}")
    hs_after=$(handshakes)
    read -r _ _ syn_after hello_after <<< "$(switch_stats)"
    all_calls=0
    while read -r r; do all_calls=$((all_calls + $(json "$r" calls))); done <<< "$results"
    hs_per_call=$(awk -v h=$((hs_after - hs_before)) -v c="$all_calls" 'BEGIN {printf "%.2f", h / c}')
    # on the switch: TCP connection opens (the generator's one per call included) and TLS ClientHellos per call
    captured=$(awk -v s=$((syn_after - syn_before)) -v h=$((hello_after - hello_before)) -v c="$all_calls" \
      'BEGIN {printf "syn/call=%.2f client_hello/call=%.2f", s / c, h / c}')
    p50_zero=""
    while read -r r; do
      rtt=$(json "$r" rtt_ms | sed 's/\.0$//')
      calls=$(json "$r" calls)
      failed=$(json "$r" failed)
      failed_total=$((failed_total + failed))
      p50=$(json "$r" p50_ms)
      p99=$(json "$r" p99_ms)
      ex=$(json "$r" exchanges)
      # on the wire: the client's connect and exchange, every downstream exchange (Wire-Bytes), and TCP + TLS
      # for every handshake the clients made
      wire_n=$(awk -v e="${ex:-0}" -v h="$hs_per_call" 'BEGIN {printf "%.1f", 2 + e + 2 * h}')
      [ "$rtt" = 0 ] && p50_zero=$p50
      predicted=$(awk -v z="$p50_zero" -v n="$n" -v r="$rtt" 'BEGIN {printf "%.1f", z + n * r}')
      dev=$(awk -v m="${p50:-0}" -v p="$predicted" 'BEGIN {printf "%.1f", (p > 0) ? 100 * (m - p) / p : 0}')
      printf '| %s | %s | %s | %s / %s | %s | %s | %s | %s | %s |\n' "$mode" "$profile" "$rtt" "$n" "$wire_n" "$predicted" "$p50" "$p99" "$calls" "$failed"
      echo "network: mode=$mode profile=$profile rtt_ms=$rtt round_trips=$n predicted_ms=$predicted measured_ms=$p50"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$profile" "$rtt" "$n" "$wire_n" "$predicted" "$p50" "$p99" "$calls" "$failed" "$dev" >> "$out/results.tsv"
      printf '%s %s rtt=%s handshakes/call=%s (switch: %s) statuses=%s calls: %s\n  server-timing medians: %s\n' "$mode" "$profile" "$rtt" \
        "$hs_per_call" "$captured" "$(json "$r" statuses)" "$(json "$r" endpoints)" "$(json "$r" server_timing_ms)" >> "$out/wire.txt"
    done <<< "$results"
  done
  set_link 0
  stop_workloads
done
echo "network: load after $(cut -d' ' -f1-3 /proc/loadavg); results in $out/results.tsv, wire details in $out/wire.txt"
[ ! -f perf/scripts/network/report.py ] || python3 perf/scripts/network/report.py "$out/results.tsv" "$out" || echo "network: no report written" >&2
[ "$failed_total" = 0 ] || { echo "network: $failed_total failed requests" >&2; exit 1; }
