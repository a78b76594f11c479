#!/usr/bin/env bash
# SVID rotation under load with real SPIRE (deploy/README.md "SVID rotation under load").
#
# Starts what deploy/spire-it starts (deploy/lib/spire.sh: SPIRE server and agent on loopback, one user,
# process and registration entry per workload) with a short X.509-SVID TTL (ROTATION_SVID_TTL, 120 s; the
# agent renews at half-life, so every workload gets a new SVID every 60 s), every workload `pooled` with the
# memos on and the JVM's default JIT. Then, with perf's Gatling simulation against this deployment:
#   1. unless ROTATION_RATE is set, the capacity of `balance` in one mode (ROTATION_CAPACITY_MODE, dvid):
#      the capacity profile's staircase (ROTATION_CAPACITY_START 25/s, x1.5 per ROTATION_CAPACITY_STEP 10 s,
#      up to ROTATION_CAPACITY_MAX 1500/s); the highest step held (every answer 200, p99 <= 100 ms,
#      ROTATION_CAPACITY_P99_MS);
#   2. the rotation profile: `balance` of the four modes round robin at ROTATION_SHARE (0.5) of it, open
#      model, latency counted from each request's due time, for ROTATION_DURATION seconds (TTL + 30) after a
#      20 s ramp;
#   3. deploy/rotation-load/analyse.py: each workload's SVID changes (the Workload API update in its log;
#      the serial on the wire of the three mTLS workloads is checked to change too), a window from 2 s before
#      to ROTATION_WINDOW (10) s after each change, p50/p99 per window and of the steady rest.
# Exit 1 when a request failed, a workload's SVID did not change during the load, or p99 of a rotation
# window exceeds 2 x the steady p99. The summary goes to stdout and to target/rotation-load/summary.txt,
# beside the answers (rotation.csv), the changes (events.csv) and per-second percentiles (per-second.csv).
#
#   ./mvnw -o -q -pl idp,subject-wl,asserting-wl,m-tier,target-wl -am package -DskipTests
#   SPIRE_BIN=/dir/with/spire-server+spire-agent deploy/rotation-load/run.sh          (root)
#
# Needs useradd, setpriv, curl, jq, openssl, python3, and perf's dependencies for Gatling (./mvnw -o).
# Takes 8-12 minutes on two busy cores; not part of .ci/run. ROTATION_KEEP=1 keeps the workloads' logs.
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
if [ -z "${SPIRE_BIN:-}" ]; then
  echo "rotation-load: cannot measure: SPIRE_BIN is not set (spire-server and spire-agent 1.15.x binaries)" >&2
  exit 2
fi
started=$(date +%s)
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
td=example.org
svid_ttl=${ROTATION_SVID_TTL:-120}
share=${ROTATION_SHARE:-0.5}
cap_mode=${ROTATION_CAPACITY_MODE:-dvid}
duration=${ROTATION_DURATION:-$((svid_ttl + 30))}
window_ms=$(( ${ROTATION_WINDOW:-10} * 1000 ))
out=$root_dir/target/rotation-load
work=$(mktemp -d /tmp/spiffeidt-rotation-load.XXXXXX)
chmod 755 "$work"
mkdir -p "$out"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 2
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  if [ "${ROTATION_KEEP:-0}" != 1 ]; then rm -rf "$work"; else echo "rotation-load: logs kept in $work"; fi
}
trap cleanup EXIT
log() { echo "rotation-load [$(( $(date +%s) - started ))s]: $*"; }
fail() { for f in "$work"/*.log; do echo "--- $f"; tail -15 "$f"; done; log "FAILED: $*"; exit 1; } # why, last
# shellcheck source=../lib/spire.sh
source "$root_dir/deploy/lib/spire.sh"

spire_start rotation-load
java_opts=(-Xss512k)   # the default tiered JIT: a load test measures the compiled code
workloads_start --spiffeidt.pooling.profile=pooled --spiffeidt.memo.enabled=true
log "idp and 4 workloads up (pooled, memos on), each under its own user, SVIDs from SPIRE"
base=http://127.0.0.1:${port[subject-wl]}
idp=http://127.0.0.1:$idp_port
# shellcheck source=../lib/walkthrough.sh
source "$root_dir/deploy/lib/walkthrough.sh"
warm_up "$(token_for user0001)"

metrics=""
for wl in "${spire_workloads[@]}"; do metrics+="${metrics:+,}$wl=http://127.0.0.1:${mport[$wl]}/actuator/prometheus"; done
gatling() { # LOG PROPERTIES...: perf's simulation against this deployment
  local file=$1
  shift
  ./mvnw -o -q -B -pl perf gatling:test -Dspiffeidt.base-url="$base" -Dspiffeidt.idp-url="$idp" \
    -Dspiffeidt.metrics-urls="$metrics" -Dspiffeidt.perf.deployment=rotation-load \
    -Dspiffeidt.pooling.profile=pooled -Dspiffeidt.oauth.jwks-cache=refresh-ahead "$@" > "$file" 2>&1
}

# --- 1. capacity of balance in one mode ---
if [ -n "${ROTATION_RATE:-}" ]; then
  rate=$ROTATION_RATE
  log "rate from ROTATION_RATE: $rate/s"
else
  log "capacity of $cap_mode balance (staircase from ${ROTATION_CAPACITY_START:-25}/s, x1.5 per ${ROTATION_CAPACITY_STEP:-10} s step, up to ${ROTATION_CAPACITY_MAX:-1500}/s)"
  gatling "$out/gatling-capacity.log" -Dspiffeidt.perf.profile=capacity -Dspiffeidt.perf.modes="$cap_mode" \
    -Dspiffeidt.perf.capacity.requests=balance -Dspiffeidt.perf.capacity.past=0 \
    -Dspiffeidt.perf.capacity.start="${ROTATION_CAPACITY_START:-25}" -Dspiffeidt.perf.capacity.max="${ROTATION_CAPACITY_MAX:-1500}" \
    -Dspiffeidt.perf.capacity.step="${ROTATION_CAPACITY_STEP:-10}" -Dspiffeidt.perf.capacity.jfr=false \
    -Dspiffeidt.perf.capacity.p99-ms="${ROTATION_CAPACITY_P99_MS:-100}" \
    || log "the capacity run failed (the stack collapsed instead of shedding?): $(grep -m1 -i 'exception\|collapsed' "$out/gatling-capacity.log" || true)"
  steps=perf/target/capacity/rotation-load/steps.csv
  [ -f "$steps" ] || fail "no capacity steps ($out/gatling-capacity.log)"
  cp "$steps" "$out/capacity-steps.csv"
  grep '^capacity:' "$out/gatling-capacity.log" | sed 's/^/  /' || true
  capacity=$(awk -F, 'NR > 1 && $7 == "true" && $4 > c { c = $4 } END { print c + 0 }' "$steps")
  [ "$capacity" != 0 ] || fail "no step of the staircase held: set ROTATION_RATE, or measure on a quieter machine"
  rate=$(python3 -c "print(round($capacity * $share, 1))")
  log "capacity of $cap_mode balance: $capacity/s held; the rotation load runs at $rate/s ($share of it)"
fi

# --- 2. constant load through the SVID rotations ---
declare -A serial_before
for wl in asserting-wl m-tier target-wl; do
  serial_before[$wl]=$(serial "$wl")
  [ -n "${serial_before[$wl]}" ] || fail "no SVID seen on $wl's port"
done
load_before=$(cut -d' ' -f1 /proc/loadavg)
log "rotation load: $rate/s balance, 4 modes round robin, 20 s ramp then ${duration} s (TTL ${svid_ttl} s: a new SVID every $((svid_ttl / 2)) s)"
gatling "$out/gatling-rotation.log" -Dspiffeidt.perf.profile=rotation -Dspiffeidt.perf.rotation.rate="$rate" \
  -Dspiffeidt.perf.rotation.duration="$duration" -Dspiffeidt.perf.warm-up=20 \
  -Dspiffeidt.perf.modes=dvid,id-mode,anon-mode,lsvid \
  || fail "the rotation run did not complete ($out/gatling-rotation.log): $(tail -5 "$out/gatling-rotation.log")"
cp perf/target/rotation/rotation-load/rotation.csv "$out/rotation.csv"
for wl in asserting-wl m-tier target-wl; do
  now=$(serial "$wl")
  [ "$now" != "${serial_before[$wl]}" ] || fail "$wl presents the SVID it had before the load: ${serial_before[$wl]}"
  log "  $wl on the wire: ${serial_before[$wl]}-> $now"
done

# --- 3. when each SVID changed, and the verdict ---
{
  echo "workload,epoch_ms"
  for wl in "${spire_workloads[@]}"; do
    grep "Received X509Context update" "$work/$wl.log" | python3 -c '
import sys, datetime
for line in sys.stdin:
    t = datetime.datetime.fromisoformat(line.split()[0].replace("Z", "+00:00"))
    print(sys.argv[1] + "," + str(round(t.timestamp() * 1000)))' "$wl"
  done
} > "$out/events.csv"
python3 "$root_dir/deploy/rotation-load/analyse.py" --answers "$out/rotation.csv" --events "$out/events.csv" \
  --after-ms "$window_ms" --per-second "$out/per-second.csv" --summary "$out/summary.txt" \
  --header "rotation-load $(date -u +%FT%TZ), $(nproc) cores, load average $load_before before the load and $(cut -d' ' -f1 /proc/loadavg) after it, SVID TTL ${svid_ttl} s, pooled + memos, ${capacity:+capacity of $cap_mode balance $capacity/s, }rate $rate/s" \
  || fail "the goal was missed (summary in $out/summary.txt)"
log "summary in $out/summary.txt"
log "PASSED in $(( $(date +%s) - started ))s"
