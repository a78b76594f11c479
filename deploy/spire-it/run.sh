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
fail() { log "FAILED: $*"; for f in "$work"/*.log; do echo "--- $f"; tail -15 "$f"; done; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

for m in idp subject-wl asserting-wl m-tier target-wl; do
  [ -f "$m/target/$m-$version-exec.jar" ] || fail "$m/target/$m-$version-exec.jar missing (./mvnw install -DskipTests)"
done

# --- SPIRE server and agent on loopback ---
server_port=$(free_port)
mkdir -p "$work/server" "$work/agent/data" "$work/agent/public"
chmod 755 "$work/agent" "$work/agent/public"
cat > "$work/server/server.conf" <<CONF
server {
  bind_address = "127.0.0.1"
  bind_port = "$server_port"
  socket_path = "$work/server/api.sock"
  trust_domain = "$td"
  data_dir = "$work/server"
  log_level = "INFO"
  ca_key_type = "ec-p256"
  ca_ttl = "1h"
  default_x509_svid_ttl = "${svid_ttl}s"
}
plugins {
  DataStore "sql" {
    plugin_data {
      database_type = "sqlite3"
      connection_string = "$work/server/datastore.sqlite3"
    }
  }
  NodeAttestor "join_token" {
    plugin_data {}
  }
  KeyManager "memory" {
    plugin_data {}
  }
}
CONF
"$SPIRE_BIN/spire-server" run -config "$work/server/server.conf" > "$work/spire-server.log" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  "$SPIRE_BIN/spire-server" healthcheck -socketPath "$work/server/api.sock" >/dev/null 2>&1 && break
  sleep 1
done
"$SPIRE_BIN/spire-server" healthcheck -socketPath "$work/server/api.sock" >/dev/null || fail "SPIRE server not healthy"
agent_id=spiffe://$td/agent/spire-it
token=$("$SPIRE_BIN/spire-server" token generate -socketPath "$work/server/api.sock" -spiffeID "$agent_id" -ttl 600 \
  | sed -n 's/^Token: //p')
[ -n "$token" ] || fail "no join token"

declare -A uid
for wl in subject-wl asserting-wl m-tier target-wl; do
  user=spiffeidt-$wl
  id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  uid[$wl]=$(id -u "$user")
  "$SPIRE_BIN/spire-server" entry create -socketPath "$work/server/api.sock" -parentID "$agent_id" \
    -spiffeID "spiffe://$td/$wl" -selector "unix:uid:${uid[$wl]}" -x509SVIDTTL "$svid_ttl" >/dev/null
done
id -u spiffeidt-idp >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin spiffeidt-idp
log "SPIRE server on 127.0.0.1:$server_port, 4 entries by uid (${uid[*]}), X.509-SVID TTL ${svid_ttl}s"

cat > "$work/agent/agent.conf" <<CONF
agent {
  data_dir = "$work/agent/data"
  log_level = "INFO"
  server_address = "127.0.0.1"
  server_port = "$server_port"
  socket_path = "$work/agent/public/api.sock"
  trust_domain = "$td"
  insecure_bootstrap = true
}
plugins {
  NodeAttestor "join_token" {
    plugin_data {}
  }
  KeyManager "memory" {
    plugin_data {}
  }
  WorkloadAttestor "unix" {
    plugin_data {}
  }
}
CONF
"$SPIRE_BIN/spire-agent" run -config "$work/agent/agent.conf" -joinToken "$token" > "$work/spire-agent.log" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  "$SPIRE_BIN/spire-agent" healthcheck -socketPath "$work/agent/public/api.sock" >/dev/null 2>&1 && break
  sleep 1
done
"$SPIRE_BIN/spire-agent" healthcheck -socketPath "$work/agent/public/api.sock" >/dev/null || fail "SPIRE agent not healthy"
log "SPIRE agent attested (join token), Workload API at $work/agent/public/api.sock"

# --- the IdP and the four workloads, one process and one user each ---
# the jars are copied where every workload user can read them: the clone itself may sit in a
# directory only its owner can enter (a mktemp -d, a home directory)
mkdir -p "$work/jars"
for m in idp subject-wl asserting-wl m-tier target-wl; do
  [ -f "$m/target/$m-$version-exec.jar" ] || fail "$m/target/$m-$version-exec.jar missing: run ./mvnw install first"
  cp "$m/target/$m-$version-exec.jar" "$work/jars/"
done
chmod 755 "$work/jars"
chmod 644 "$work"/jars/*.jar
declare -A port mport
idp_port=$(free_port)
for wl in subject-wl asserting-wl m-tier target-wl; do port[$wl]=$(free_port); mport[$wl]=$(free_port); done
run_as() { # USER NAME ARGS...
  local user=$1 name=$2; shift 2
  (cd "$work" && exec setpriv --reuid="$user" --regid="$user" --clear-groups -- java -XX:TieredStopAtLevel=1 -Xss512k "$@") \
    > "$work/$name.log" 2>&1 &
  pids+=($!)
}
run_as spiffeidt-idp idp -jar "$work/jars/idp-$version-exec.jar" --server.port="$idp_port" \
  --server.address=127.0.0.1 --spiffeidt.idp.issuer="http://127.0.0.1:$idp_port"
# with a PostgreSQL server at hand (SPIFFEIDT_TEST_POSTGRES_URL, as .ci/postgres.sh prints), asserting-wl
# keeps its introspection entries there (the JDBC store of replicated deployments)
declare -A extra
if [ -n "${SPIFFEIDT_TEST_POSTGRES_URL:-}" ]; then
  extra[asserting-wl]="--spiffeidt.asserting.introspection.store=jdbc
--spiffeidt.asserting.introspection.jdbc.url=$SPIFFEIDT_TEST_POSTGRES_URL
--spiffeidt.asserting.introspection.jdbc.username=${SPIFFEIDT_TEST_POSTGRES_USER:-}
--spiffeidt.asserting.introspection.jdbc.password=${SPIFFEIDT_TEST_POSTGRES_PASSWORD:-}"
fi
for wl in asserting-wl target-wl m-tier subject-wl; do
  more=()
  if [ -n "${extra[$wl]:-}" ]; then mapfile -t more <<< "${extra[$wl]}"; fi
  run_as "spiffeidt-$wl" "$wl" -jar "$work/jars/$wl-$version-exec.jar" ${more[@]+"${more[@]}"} \
    --server.port="${port[$wl]}" --server.address=127.0.0.1 \
    --management.server.port="${mport[$wl]}" --management.server.address=127.0.0.1 \
    --spiffeidt.workload-api.socket="unix:$work/agent/public/api.sock" \
    --spiffeidt.oauth.issuers[0].issuer="http://127.0.0.1:$idp_port" \
    --spiffeidt.oauth.issuers[0].audience=spiffeidt \
    --spiffeidt.endpoints.asserting-wl="https://127.0.0.1:${port[asserting-wl]}" \
    --spiffeidt.endpoints.target-wl="https://127.0.0.1:${port[target-wl]}" \
    --spiffeidt.endpoints.m-tier="https://127.0.0.1:${port[m-tier]}"
done
wait_up() { # URL NAME
  for _ in $(seq 240); do curl -sf --max-time 2 "$1" >/dev/null && return 0; sleep 1; done
  fail "$2 did not start"
}
wait_up "http://127.0.0.1:$idp_port/.well-known/openid-configuration" idp
for wl in asserting-wl target-wl m-tier subject-wl; do wait_up "http://127.0.0.1:${mport[$wl]}/actuator/health" "$wl"; done
for wl in subject-wl asserting-wl m-tier target-wl; do
  grep -q "runs as spiffe://$td/$wl" "$work/$wl.log" || fail "$wl did not get spiffe://$td/$wl"
done
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
updates() { grep -c "Received X509Context update" "$work/$1.log" || true; }
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
