#!/usr/bin/env bash
# System test with real SPIRE: SPIRE server and agent on loopback (join-token node attestation, unix
# workload attestor, one system user per workload, registration entries by uid), the IdP and the four
# workloads each as its own `java -jar` process under its own user, the walk-through for all four
# modes, then an SVID rotation (X.509-SVID TTL 2 minutes; the agent renews at half-life) with calls
# running all the time and not one failing, then the walk-through again.
#
#   SPIRE_BIN=/dir/with/spire-server+spire-agent deploy/spire-it/run.sh     (root; after ./mvnw install)
#
# Skipped, with a message and exit 0, when SPIRE_BIN is not set. Needs useradd, setpriv, curl, jq.
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
if [ -z "${SPIRE_BIN:-}" ]; then
  echo "spire-it: SKIPPED (SPIRE_BIN is not set; point it at spire-server and spire-agent 1.15.x binaries)"
  exit 0
fi
started=$(date +%s)
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
td=example.org
svid_ttl=${SPIRE_IT_SVID_TTL:-120}
work=$(mktemp -d /tmp/spiffeidt-spire-it.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 2
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  if [ "${SPIRE_IT_KEEP:-0}" != 1 ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
log() { echo "spire-it [$(( $(date +%s) - started ))s]: $*"; }
fail() { for f in "$work"/*.log; do echo "--- $f"; tail -15 "$f"; done; log "FAILED: $*"; exit 1; } # why, last
# shellcheck source=../lib/spire.sh
source "$root_dir/deploy/lib/spire.sh"

for m in idp subject-wl asserting-wl m-tier target-wl; do
  [ -f "$m/target/$m-$version-exec.jar" ] || fail "$m/target/$m-$version-exec.jar missing (./mvnw install -DskipTests)"
done

# --- SPIRE server and agent on loopback ---
spire_start spire-it

# --- the IdP and the four workloads, one process and one user each ---
# with a PostgreSQL server at hand (SPIFFEIDT_TEST_POSTGRES_URL, as .ci/postgres.sh prints), asserting-wl
# keeps its introspection entries there (the JDBC store of replicated deployments)
declare -A extra
if [ -n "${SPIFFEIDT_TEST_POSTGRES_URL:-}" ]; then
  extra[asserting-wl]="--spiffeidt.asserting.introspection.store=jdbc
--spiffeidt.asserting.introspection.jdbc.url=$SPIFFEIDT_TEST_POSTGRES_URL
--spiffeidt.asserting.introspection.jdbc.username=${SPIFFEIDT_TEST_POSTGRES_USER:-}
--spiffeidt.asserting.introspection.jdbc.password=${SPIFFEIDT_TEST_POSTGRES_PASSWORD:-}"
fi
workloads_start
if [ -n "${extra[asserting-wl]:-}" ]; then
  grep -q "introspection store: JDBC" "$work/asserting-wl.log" || fail "asserting-wl did not use the JDBC introspection store"
  log "asserting-wl keeps its introspection entries in PostgreSQL (JDBC store)"
fi
log "idp and 4 workloads up, each under its own user, SVIDs from SPIRE"

# --- the walk-through ---
base=http://127.0.0.1:${port[subject-wl]}
idp=http://127.0.0.1:$idp_port
# shellcheck source=../lib/walkthrough.sh
source "$root_dir/deploy/lib/walkthrough.sh"
log "walk-through (user0001)"
walk_through user0001

# --- SVID rotation with calls running ---
declare -A first
for wl in subject-wl asserting-wl m-tier target-wl; do first[$wl]=$(updates "$wl"); done
log "rotation: waiting for every workload's SVID to be renewed (TTL ${svid_ttl}s) while calling"
t=$(token_for user0002)
calls=0; failures=0
deadline=$(( $(date +%s) + svid_ttl * 2 + 60 ))
while :; do
  rotated=1
  for wl in subject-wl asserting-wl m-tier target-wl; do
    [ "$(updates "$wl")" -gt "${first[$wl]}" ] || rotated=0
  done
  [ "$rotated" = 1 ] && [ "$calls" -gt 0 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || fail "not every SVID was renewed within $(( svid_ttl * 2 + 60 ))s"
  for mode in "${modes[@]}"; do
    calls=$((calls + 1))
    call "$mode" balance "$t" >/dev/null || failures=$((failures + 1))
  done
done
grep -q "Renew\|renew" "$work/spire-agent.log" && log "agent log: $(grep -c -i 'renew' "$work/spire-agent.log") renewal lines"
[ "$failures" = 0 ] || fail "$failures of $calls calls failed during the rotation"
log "rotation: every workload received a renewed SVID; $calls calls during it, 0 failed"
log "walk-through after the rotation (user0003)"
walk_through user0003
log "PASSED in $(( $(date +%s) - started ))s"
