#!/usr/bin/env bash
# Docker Compose for real: the deployment a user starts with `docker compose up`, on this machine's
# Docker engine, with every image built here (deploy/compose/offline.yaml, nothing pulled).
#
#   ./mvnw install -DskipTests
#   SPIRE_BIN=/dir/with/spire-server+spire-agent deploy/compose-it/run.sh        # as root
#
# Steps: start dockerd unless one answers (and stop it by its PID at the end); build the third-party
# images (build-offline-deps.sh) and the five project images (build-offline.sh, load-images.sh);
# `docker compose up --wait`; the walk-through in the four modes after a warm-up; each container's CPU and
# memory idle; a pooling profile switch by environment variable (seen on the wire: under `thesis`
# target-wl calls /dvid/validate per DVID request, under `pooled` it does not) that recreates the
# workloads, asserting-wl keeping the DVID signing key the dvid-key service made; the Gatling CI profile
# against the deployment with zero failed requests, with each container's CPU time and memory during it;
# `docker compose down -v`.
# Skips with a message and exit 0 when SPIRE_BIN is unset, no Docker engine can start, or the compose
# plugin is missing (DOCKER_CONFIG names a directory with cli-plugins/docker-compose).
# COMPOSE_IT_KEEP=1 leaves the deployment up.
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
started=$(date +%s)
log() { echo "compose-it [$(($(date +%s) - started))s]: $*"; }
skip() { log "skipped: $*"; exit 0; }
work=$(mktemp -d /tmp/spiffeidt-compose-it.XXXXXX)
compose=(docker compose -p spiffeidt -f deploy/compose/compose.yaml -f deploy/compose/offline.yaml)
up=0
# shellcheck source=../lib/docker.sh
source "$root_dir/deploy/lib/docker.sh"

cleanup() {
  local rc=$?
  if [ "$up" = 1 ] && [ -z "${COMPOSE_IT_KEEP:-}" ]; then
    [ "$rc" -eq 0 ] || "${compose[@]}" logs --no-color --tail 40 > "$work/compose.log" 2>&1 || true
    [ "$rc" -eq 0 ] || tail -200 "$work/compose.log"
    "${compose[@]}" down -v --remove-orphans > /dev/null 2>&1 || true
    log "docker compose down -v"
  fi
  docker_engine_down
  rm -rf "$work"
}
trap cleanup EXIT

fail() { log "FAILED: $*"; exit 1; }

[ -n "${SPIRE_BIN:-}" ] || skip "SPIRE_BIN is unset (the SPIRE images are built from its binaries)"
docker_engine_up

# --- images ---
bash deploy/images/build-offline-deps.sh | sed 's/^/  /'
# the project's image tars (made again when one is missing or older than a jar it holds: the module's own
# and the project's libraries; the exec jar is no guide, its file time is the reproducible build's fixed one)
stale=0
for m in idp subject-wl asserting-wl m-tier target-wl; do
  ls "$m"/target/"$m"-*-exec.jar > /dev/null 2>&1 || fail "$m/target has no runnable jar: run ./mvnw install -DskipTests first"
  for jar in "$m"/target/"$m"-*.jar assertion-core/target/assertion-core-*.jar workload-support/target/workload-support-*.jar; do
    [ -f "$m/target/jib-image.tar" ] && [ "$m/target/jib-image.tar" -nt "$jar" ] || stale=1
  done
done
[ -f devstack/target/zipkin/zipkin-image.tar ] || stale=1
[ "$stale" = 0 ] || bash deploy/images/build-offline.sh | sed 's/^/  /'
bash deploy/images/load-images.sh | sed 's/^/  /'
log "images ready"

# --- up ---
compose_up 300
"${compose[@]}" ps --format '{{.Service}}: {{.Status}}' | sed 's/^/  /'
for wl in subject-wl asserting-wl m-tier target-wl; do
  "${compose[@]}" logs --no-color "$wl" > "$work/$wl.log" 2>&1
  grep -q "runs as spiffe://example.org/$wl" "$work/$wl.log" || fail "$wl did not get its SVID from SPIRE"
done
log "the four workloads run as their SPIFFE IDs, SVIDs from the SPIRE agent (docker workload attestor)"
dvid_kid() { # the key id asserting-wl's log names for its DVID signing key read from the dvid-key volume
  "${compose[@]}" logs --no-color asserting-wl 2>&1 | sed -n 's/.*DVID signing key: DvidSigningKey\[RSA, from file\], key id \([^ ]*\).*/\1/p' | tail -1
}
kid=$(dvid_kid)
[ -n "$kid" ] || fail "asserting-wl did not read its DVID signing key from the dvid-key volume"
log "asserting-wl signs DVIDs with the key made once by the dvid-key service (key id $kid)"

# --- the walk-through ---
base=http://127.0.0.1:8080
idp=http://127.0.0.1:9000
# shellcheck source=../lib/walkthrough.sh
source "$root_dir/deploy/lib/walkthrough.sh"
# the four documents, then the standards track: the Txn-Token with each call's WIT and WPT
modes+=(wimse)
log "warm-up (the first DVID call after start may exceed the request deadline on two cores)"
warm_up "$(token_for user0002)"
log "walk-through (user0001), profile thesis"
walk_through user0001

# --- traces: a deposit's trace in Zipkin, through subject-wl, m-tier and target-wl ---
CALL_HEADERS=$work/trace-headers
call lsvid deposit "$(token_for user0003)" '{"amount": 1}' > /dev/null || fail "lsvid deposit for the trace"
unset CALL_HEADERS
trace_id=$(sed -n 's/^traceresponse: 00-\([0-9a-f]\{32\}\)-.*/\1/Ip' "$work/trace-headers" | head -1)
[ -n "$trace_id" ] || fail "the answer carries no traceresponse header"
services=""
for _ in $(seq 30); do # each workload reports its spans in its own batches: wait for all four
  services=$(curl -s "http://127.0.0.1:9411/api/v2/trace/$trace_id" | jq -r '[.[].localEndpoint.serviceName] | unique | join(",")' 2> /dev/null || true)
  [ "$services" = "asserting-wl,m-tier,subject-wl,target-wl" ] && break
  sleep 2
done
for wl in subject-wl asserting-wl m-tier target-wl; do
  case ",$services," in *",$wl,"*) ;; *) fail "trace $trace_id in Zipkin lacks $wl (has: $services)" ;; esac
done
log "trace $trace_id in Zipkin spans $services"

# --- resources: each container's CPU (cgroup cpuacct, ms) and memory (docker stats) ---
# shellcheck source=../lib/cgroup.sh
source "$root_dir/deploy/lib/cgroup.sh"
containers=(spiffeidt-subject-wl-1 spiffeidt-asserting-wl-1 spiffeidt-m-tier-1 spiffeidt-target-wl-1 spiffeidt-idp-1
  spiffeidt-postgres-1 spiffeidt-prometheus-1 spiffeidt-spire-server-1 spiffeidt-spire-agent-1)
snapshot() { # FILE: container cpu_ms mem (the CPU times read together, then the memory of all at once)
  local c
  for c in "${containers[@]}"; do echo "$c $(container_cpu_ms "$c")"; done | sort > "$1.cpu"
  docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' "${containers[@]}" | awk '{print $1, $2}' | sort > "$1.mem"
  join "$1.cpu" "$1.mem" > "$1"
}
report() { # TITLE BEFORE AFTER SECONDS [REQUESTS]
  log "$1"
  printf '  %-26s %12s %10s %12s\n' container "CPU %" "CPU ms" "memory"
  join "$2" "$3" | while read -r c cpu0 _ cpu1 mem1; do
    printf '  %-26s %12s %10s %12s\n' "${c#spiffeidt-}" "$(awk -v d=$((cpu1 - cpu0)) -v s="$4" 'BEGIN {printf "%.1f", d / s / 10}')" \
      $((cpu1 - cpu0)) "$mem1"
  done
}
sleep 5
snapshot "$work/idle0"
t0=$(date +%s)
sleep 30
snapshot "$work/idle1"
report "idle after the walk-through (Prometheus scraping every 5 s):" "$work/idle0" "$work/idle1" $(($(date +%s) - t0))

# --- a pooling profile switch by environment variable ---
CALL_HEADERS=$work/headers
t=$(token_for user0004)
call dvid balance "$t" > /dev/null || fail "dvid balance under thesis"
grep -qi '^server-timing:.*m-tier\.target-wl\.validate_call' "$work/headers" \
  || fail "under thesis target-wl should call /dvid/validate per request (no m-tier.target-wl.validate_call in Server-Timing)"
SPIFFEIDT_POOLING_PROFILE=pooled SPIFFEIDT_MEMO_ENABLED=true "${compose[@]}" up -d --wait --wait-timeout 300 > "$work/up.log" 2>&1 \
  || { tail -30 "$work/up.log"; fail "docker compose up with SPIFFEIDT_POOLING_PROFILE=pooled"; }
log "SPIFFEIDT_POOLING_PROFILE=pooled docker compose up: the workloads were recreated"
[ "$(dvid_kid)" = "$kid" ] || fail "the recreated asserting-wl signs with another DVID key ($(dvid_kid), was $kid)"
log "the recreated asserting-wl kept its DVID signing key (key id $kid): DVIDs minted before still verify"
warm_up "$(token_for user0002)"
t=$(token_for user0004)
call dvid balance "$t" > /dev/null || fail "dvid balance under pooled"
! grep -qi '^server-timing:.*m-tier\.target-wl\.validate_call' "$work/headers" \
  || fail "under pooled target-wl verifies the DVID itself, but Server-Timing still shows m-tier.target-wl.validate_call"
unset CALL_HEADERS
log "the profile took effect: DVID requests no longer make target-wl call /dvid/validate"
walk_through user0005

# --- Gatling's CI profile against the deployment ---
snapshot "$work/load0"
t0=$(date +%s)
# its figures become the report's compose column (perf/target/runs/compose), beside an embedded run's
./mvnw -B -q -pl perf gatling:test -Dspiffeidt.perf.profile=ci -Dspiffeidt.base-url=$base -Dspiffeidt.idp-url=$idp \
  -Dspiffeidt.perf.deployment=compose -Dspiffeidt.pooling.profile=pooled -Dspiffeidt.oauth.jwks-cache=refresh-ahead \
  -Dspiffeidt.perf.containers=subject-wl=spiffeidt-subject-wl-1,asserting-wl=spiffeidt-asserting-wl-1,m-tier=spiffeidt-m-tier-1,target-wl=spiffeidt-target-wl-1 \
  > "$work/gatling.log" 2>&1 || { tail -60 "$work/gatling.log"; fail "Gatling CI profile against the Compose deployment"; }
t1=$(date +%s)
snapshot "$work/load1"
grep -E "request count|OK=|KO=|failed" "$work/gatling.log" | head -8 | sed 's/^/  /' || true
report "during the Gatling CI profile ($((t1 - t0)) s, profile pooled):" "$work/load0" "$work/load1" $((t1 - t0))
[ -f perf/target/report/report.md ] && log "report with the compose column: perf/target/report/report.md"
log "PASSED in $(($(date +%s) - started)) s"
