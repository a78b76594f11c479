#!/usr/bin/env bash
# Sequential end-to-end latency of `balance`, per mode and pooling profile, on the embedded stack
# started here in its own JVM with a normally optimising JIT (not spring-boot:run, which passes
# -XX:TieredStopAtLevel=1). One user, curl over a fresh connection to subject-wl per call (as the
# thesis measured): per mode, WARMUP_SECONDS of back-to-back calls and WARMUP curl calls first (four
# workloads share one JVM, and on a 2-core machine its C2 compiler kept one core busy for a minute
# or more of load per mode, hence 90 s by default), then N measured calls; prints p50 / p90 of
# curl's total time (ms), the stack's start-up time and its resident memory after the run (the heap
# as in the Gatling run: -Xms512m -Xmx1g). Measure on a quiet machine.
# Beside curl's figures, the same N calls from one client process over one kept-alive connection
# (python3 http.client), back to back and 5 ms apart: curl spawns a process per call and the stack
# idles in between; on a small virtual machine the work after a pause runs slower (IdleBenchmarks
# measures by how much), and the 5 ms column shows that the pause, not the new connection, makes
# the difference.
#
#   perf/scripts/e2e-balance.sh [profile...]        (default: pooled thesis; after ./mvnw install)
#   JAVA_HOME=/path/to/jdk-25 perf/scripts/e2e-balance.sh pooled      (the stack on JDK 25)
#   N=200 WARMUP=300 WARMUP_SECONDS=90 MODES="dvid id-mode anon-mode lsvid" perf/scripts/e2e-balance.sh pooled
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-200}
WARMUP=${WARMUP:-300}
WARMUP_SECONDS=${WARMUP_SECONDS:-90}
MODES=${MODES:-dvid id-mode anon-mode lsvid}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java  # the JDK Maven (./mvnw) uses too
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(pooled thesis)
cp_file=devstack/target/e2e-classpath.txt
./mvnw -q -B -pl devstack dependency:build-classpath -Dmdep.outputFile="$(pwd)/$cp_file" >/dev/null
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pct() { sort -n | awk -v p="$1" '{v[NR]=$1} END {i=int((NR*p+99)/100); if (i<1) i=1; printf "%.1f", v[i]*1000}'; }
# N balance calls of $mode over one kept-alive connection after N unmeasured ones, $1 seconds apart
kept() {
  python3 - "$sub" "$mode" "$token" "$N" "$1" <<'PY'
import http.client, sys, time
port, mode, token, n, pause = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
c = http.client.HTTPConnection("127.0.0.1", port)
h = {"Authorization": "Bearer " + token}
for i in range(2 * n):  # the first n warm the connection, the last n are measured
    if pause:
        time.sleep(pause)
    t = time.perf_counter()
    c.request("POST", "/api/%s/balance" % mode, headers=h)
    r = c.getresponse()
    r.read()
    if r.status != 200:
        sys.exit("balance answered %d" % r.status)
    if i >= n:
        print("%.6f" % (time.perf_counter() - t))
PY
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| profile | mode | curl p50 (ms) | curl p90 (ms) | back-to-back p50 (ms) | back-to-back p90 (ms) | 5 ms apart p50 (ms) |\n|---|---|---|---|---|---|---|\n'
# the thesis reproduction remembers nothing (spiffeidt.memo.enabled=false); every other profile does
memo_for() { [ "$1" = thesis ] && echo false || echo true; }
for profile in "${profiles[@]}"; do
  sub=$(free_port); idp=$(free_port); log=$(mktemp)
  start=$(date +%s%N)
  "$java" -Xms512m -Xmx1g -Xss512k -cp "devstack/target/classes:$(cat "$cp_file")" io.spiffeidt.devstack.DevStackMain \
    --spiffeidt.devstack.ports.subject-wl="$sub" --spiffeidt.devstack.ports.idp="$idp" \
    --spiffeidt.devstack.ports.asserting-wl=0 --spiffeidt.devstack.ports.target-wl=0 --spiffeidt.devstack.ports.m-tier=0 \
    --spiffeidt.devstack.ports.subject-wl.management=0 --spiffeidt.devstack.ports.asserting-wl.management=0 \
    --spiffeidt.devstack.ports.target-wl.management=0 --spiffeidt.devstack.ports.m-tier.management=0 \
    --spiffeidt.pooling.profile="$profile" --spiffeidt.memo.enabled="$(memo_for "$profile")" --logging.level.root=WARN > "$log" 2>&1 &
  pid=$!
  for _ in $(seq 180); do grep -q "SPIFFE-IdT devstack is up" "$log" && break; sleep 0.5; done
  grep -q "SPIFFE-IdT devstack is up" "$log" || { echo "stack did not start, see $log"; kill $pid; exit 1; }
  up_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  token=$(curl -s -d username=user0001 -d password=password "http://127.0.0.1:$idp/dev/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  for mode in $MODES; do
    url="http://127.0.0.1:$sub/api/$mode/balance"
    curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" "http://127.0.0.1:$sub/api/$mode/mint"
    python3 - "$sub" "$mode" "$token" "$WARMUP_SECONDS" <<'PY'
import http.client, sys, time
port, mode, token, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
c = http.client.HTTPConnection("127.0.0.1", port)
end = time.monotonic() + seconds
while time.monotonic() < end:
    c.request("POST", "/api/%s/balance" % mode, headers={"Authorization": "Bearer " + token})
    r = c.getresponse()
    r.read()
    if r.status != 200:
        sys.exit("balance answered %d" % r.status)
PY
    for _ in $(seq "$WARMUP"); do curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" "$url"; done
    times=$(for _ in $(seq "$N"); do curl -sf -o /dev/null -w '%{time_total}\n' -X POST -H "Authorization: Bearer $token" "$url"; done)
    b2b=$(kept 0)
    paused=$(kept 0.005)
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$profile (memo $(memo_for "$profile"))" "$mode" "$(pct 50 <<<"$times")" "$(pct 90 <<<"$times")" \
      "$(pct 50 <<<"$b2b")" "$(pct 90 <<<"$b2b")" "$(pct 50 <<<"$paused")"
  done
  rss=$(awk '/VmRSS/ {print int($2/1024)}' /proc/$pid/status)
  echo "stack ($profile): up in ${up_ms} ms (JVM start to 'devstack is up'), RSS ${rss} MB after the run"
  kill $pid; wait $pid 2>/dev/null || true; rm -f "$log"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
