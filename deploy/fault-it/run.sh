#!/usr/bin/env bash
# Fault test with real SPIRE (deploy/README.md "Faults under load").
#
# SPIRE server and agent on loopback by deploy/lib/spire.sh, as deploy/spire-it (join token, unix attestor,
# one user and one registration entry per workload, but the `disk` key manager on both so that they can be
# restarted), a throw-away PostgreSQL server of its own (.ci/postgres.sh on a free port) holding target-wl's
# accounts and asserting-wl's introspection entries, the IdP and the four workloads each as its own `java
# -jar` process under its own user, every workload with the pooling profile FAULT_IT_PROFILE (`pooled` by
# default; `thesis` opens a fresh X.509 source per request where the thesis' Table 7 does). Then, while
# deploy/fault-it/load.py keeps a steady load of deposits (every user x mode one deposit per interval, each with an Idempotency-Key,
# retried with the same key until acknowledged):
#   1. kill -9 asserting-wl, m-tier, target-wl in turn, and the PostgreSQL server (postmaster and its
#      backends) once; each stays down FAULT_IT_DOWN seconds and is started again; the driver waits until
#      every mode has a deposit acknowledged after the restart;
#   2. the SPIRE server is stopped for FAULT_IT_SPIRE_DOWN seconds (longer than the agent's 5 s sync):
#      no call may fail; started again, every workload must get a new X.509-SVID (serial seen on the wire,
#      or a new Workload API update for subject-wl, which serves plain HTTP) with no call failing;
#   3. the SPIRE agent is restarted: every workload's Workload API stream reconnects (a new update in its
#      log), no workload restarts (same PIDs), no call fails (under `thesis`, whose fresh sources need the
#      agent at every request, fast 503s are allowed while it is away, nothing else).
# Then the load stops, open keys are retried until acknowledged, and load.py checks: no answer slower than
# the deadline + margin, nothing but 2xx/503/504, service back within FAULT_IT_RECOVER seconds of each
# restart, and every acknowledged deposit in the balance exactly once (per user: final - initial == sum of
# acknowledged amounts; the run's idempotency_key rows == the acknowledged keys). The summary goes to
# stdout and to FAULT_IT_SUMMARY (default target/fault-it-summary.txt).
#
#   SPIRE_BIN=/dir/with/spire-server+spire-agent deploy/fault-it/run.sh     (root; after ./mvnw package)
#
# Skipped, with a message and exit 0, when SPIRE_BIN is not set. Needs useradd, setpriv, curl, jq,
# openssl, python3 and PostgreSQL (installed by .ci/postgres.sh when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
if [ -z "${SPIRE_BIN:-}" ]; then
  echo "fault-it: SKIPPED (SPIRE_BIN is not set; point it at spire-server and spire-agent 1.15.x binaries)"
  exit 0
fi
started=$(date +%s)
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1)
td=example.org
svid_ttl=${FAULT_IT_SVID_TTL:-60}
down=${FAULT_IT_DOWN:-6}
profile=${FAULT_IT_PROFILE:-pooled}
case $profile in pooled | thesis) ;; *) echo "fault-it: FAULT_IT_PROFILE is pooled or thesis, not $profile" >&2; exit 2 ;; esac
spire_down=${FAULT_IT_SPIRE_DOWN:-20}
deadline_ms=${FAULT_IT_DEADLINE_MS:-5000}
# the deadline runs from when subject-wl's admission filter takes the request: the time in the accept
# queue and the client before that is the margin (up to 1.1 s seen on two cores shared with builds)
margin_ms=${FAULT_IT_MARGIN_MS:-2000}
recover_s=${FAULT_IT_RECOVER:-180}
summary=${FAULT_IT_SUMMARY:-$root_dir/target/fault-it-summary.txt}
users=${FAULT_IT_USERS:-user0091,user0092}
work=$(mktemp -d /tmp/spiffeidt-fault-it.XXXXXX)
chmod 755 "$work"
mkdir -p "$(dirname "$summary")"
rm -f "$summary" # a failed run must not show an older run's checks
declare -A pid
load_pid=""
export SPIFFEIDT_PG_BASE="$work/pg"
cleanup() {
  [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null || true
  for p in "${pid[@]}" ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null || true; done
  sleep 2
  for p in "${pid[@]}" ${pids[@]+"${pids[@]}"}; do kill -9 "$p" 2>/dev/null || true; done
  bash "$root_dir/.ci/postgres-stop.sh" >/dev/null 2>&1 || true
  if [ "${FAULT_IT_KEEP:-0}" != 1 ]; then rm -rf "$work"; else echo "fault-it: logs kept in $work"; fi
}
trap cleanup EXIT
log() { echo "fault-it [$(( $(date +%s) - started ))s]: $*"; }
fail() { # the logs' tails first, then why, and the checks' summary last: what a CI log's tail shows
  for f in "$work"/*.log; do echo "--- $f"; tail -15 "$f"; done
  [ -s "$summary" ] && { echo "--- $summary"; cat "$summary"; }
  log "FAILED: $*"
  exit 1
}
now() { date +%s.%N; }
pids=() # what deploy/lib/spire.sh starts (also in pid[], which the restarts below update)
# shellcheck source=../lib/spire.sh
source "$root_dir/deploy/lib/spire.sh"

for m in idp subject-wl asserting-wl m-tier target-wl; do
  [ -f "$m/target/$m-$version-exec.jar" ] || fail "$m/target/$m-$version-exec.jar missing (./mvnw package -DskipTests)"
done

# --- PostgreSQL of its own (killed and restarted below) ---
pg_port=$(free_port)
export SPIFFEIDT_PG_PORT=$pg_port
pg_env=$(bash .ci/postgres.sh 2>"$work/postgres-setup.log") || fail "PostgreSQL did not start: $(tail -3 "$work/postgres-setup.log")"
eval "$pg_env"
# asserting-wl's introspection entries in a database of their own (each workload migrates its own schema)
introspection_url=$(SPIFFEIDT_PG_DATABASE=introspection bash .ci/postgres.sh 2>>"$work/postgres-setup.log" \
  | sed -n 's/^export SPIFFEIDT_TEST_POSTGRES_URL=//p') || fail "no introspection database"
# .ci/postgres.sh runs the server with synchronous_commit=off (fast tests): a commit is acknowledged
# before its WAL record leaves the server's memory, so a kill -9 loses the last ~200 ms of acknowledged
# deposits (a first run here lost two). Durability is what is tested, so both databases commit
# synchronously (fsync may stay off: the operating system outlives the killed server).
for d in spiffeidt introspection; do
  PGPASSWORD=$SPIFFEIDT_TEST_POSTGRES_PASSWORD psql -q -h 127.0.0.1 -p "$pg_port" -U "$SPIFFEIDT_TEST_POSTGRES_USER" -d "$d" \
    -c "ALTER DATABASE $d SET synchronous_commit = on" || fail "cannot set synchronous_commit on $d"
  [ "$(PGPASSWORD=$SPIFFEIDT_TEST_POSTGRES_PASSWORD psql -At -h 127.0.0.1 -p "$pg_port" -U "$SPIFFEIDT_TEST_POSTGRES_USER" \
    -d "$d" -c "SHOW synchronous_commit")" = on ] || fail "synchronous_commit is not on in a new session of $d"
done
log "PostgreSQL on 127.0.0.1:$pg_port (data $SPIFFEIDT_PG_BASE/data), databases spiffeidt (accounts) and introspection, synchronous_commit on"

# --- SPIRE server and agent on loopback (deploy/lib/spire.sh), keys on disk so both survive a restart ---
# the agent's own SVID outlives the test: left at the workloads' 60 s, it could expire while the server is
# away, and the restarted agent (which cannot attest again with a used join token) then never came up
spire_keys=disk
spire_agent_ttl=1h
spire_start fault-it
pid[spire-server]=$spire_server_pid
pid[spire-agent]=$spire_agent_pid

# --- the IdP and the four workloads, one process and one user each ---
mkdir -p "$work/jars"
for m in idp subject-wl asserting-wl m-tier target-wl; do cp "$m/target/$m-$version-exec.jar" "$work/jars/"; done
chmod 755 "$work/jars"
chmod 644 "$work"/jars/*.jar
# asserting-wl's DVID key in a file, as replicated deployments share it: a restarted asserting-wl signs
# with the same key, so the DVIDs subject-wl keeps stay valid
mkdir -p "$work/asserting"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/asserting/dvid-key.pem" 2>/dev/null
chown -R spiffeidt-asserting-wl "$work/asserting"
chmod 700 "$work/asserting"
chmod 600 "$work/asserting/dvid-key.pem"
declare -A port mport args
idp_port=$(free_port)
for wl in subject-wl asserting-wl m-tier target-wl; do port[$wl]=$(free_port); mport[$wl]=$(free_port); done
db="--spiffeidt.asserting.introspection.store=jdbc
--spiffeidt.asserting.introspection.jdbc.url=$introspection_url
--spiffeidt.asserting.introspection.jdbc.username=$SPIFFEIDT_TEST_POSTGRES_USER
--spiffeidt.asserting.introspection.jdbc.password=$SPIFFEIDT_TEST_POSTGRES_PASSWORD
--spiffeidt.dvid.key-path=$work/asserting/dvid-key.pem"
args[asserting-wl]=$db
args[target-wl]="--spring.datasource.url=$SPIFFEIDT_TEST_POSTGRES_URL
--spring.datasource.username=$SPIFFEIDT_TEST_POSTGRES_USER
--spring.datasource.password=$SPIFFEIDT_TEST_POSTGRES_PASSWORD"
start() { # NAME: starts (or restarts) a component as its own user; its log grows across restarts
  local name=$1 more=()
  if [ "$name" = idp ]; then
    (cd "$work" && exec setpriv --reuid=spiffeidt-idp --regid=spiffeidt-idp --clear-groups -- \
      java -XX:TieredStopAtLevel=1 -Xss512k -jar "$work/jars/idp-$version-exec.jar" --server.port="$idp_port" \
      --server.address=127.0.0.1 --spiffeidt.idp.issuer="http://127.0.0.1:$idp_port") >> "$work/idp.log" 2>&1 &
    pid[idp]=$!
    return
  fi
  if [ -n "${args[$name]:-}" ]; then mapfile -t more <<< "${args[$name]}"; fi
  (cd "$work" && exec setpriv --reuid="spiffeidt-$name" --regid="spiffeidt-$name" --clear-groups -- \
    java -XX:TieredStopAtLevel=1 -Xss512k -jar "$work/jars/$name-$version-exec.jar" ${more[@]+"${more[@]}"} \
    --server.port="${port[$name]}" --server.address=127.0.0.1 \
    --management.server.port="${mport[$name]}" --management.server.address=127.0.0.1 \
    --spiffeidt.workload-api.socket="unix:$work/agent/public/api.sock" \
    --spiffeidt.pooling.profile="$profile" \
    --spiffeidt.oauth.issuers[0].issuer="http://127.0.0.1:$idp_port" \
    --spiffeidt.oauth.issuers[0].audience=spiffeidt \
    --spiffeidt.endpoints.asserting-wl="https://127.0.0.1:${port[asserting-wl]}" \
    --spiffeidt.endpoints.target-wl="https://127.0.0.1:${port[target-wl]}" \
    --spiffeidt.endpoints.m-tier="https://127.0.0.1:${port[m-tier]}") >> "$work/$name.log" 2>&1 &
  pid[$name]=$!
}
wait_up() { # URL NAME
  for _ in $(seq 480); do curl -sf --max-time 2 "$1" >/dev/null && return 0; sleep 0.25; done
  fail "$2 did not start"
}
health() { wait_up "http://127.0.0.1:${mport[$1]}/actuator/health" "$1"; }
start idp
for wl in asserting-wl target-wl m-tier subject-wl; do start "$wl"; done
wait_up "http://127.0.0.1:$idp_port/.well-known/openid-configuration" idp
for wl in asserting-wl target-wl m-tier subject-wl; do health "$wl"; done
for wl in subject-wl asserting-wl m-tier target-wl; do
  grep -q "runs as spiffe://$td/$wl" "$work/$wl.log" || fail "$wl did not get spiffe://$td/$wl"
done
grep -q "introspection store: JDBC" "$work/asserting-wl.log" || fail "asserting-wl did not use the JDBC introspection store"
log "idp and 4 workloads up, each under its own user, SVIDs from SPIRE; accounts and introspection in PostgreSQL"

base=http://127.0.0.1:${port[subject-wl]}
idp=http://127.0.0.1:$idp_port
# shellcheck source=../lib/walkthrough.sh
source "$root_dir/deploy/lib/walkthrough.sh"
warm_up "$(token_for user0001)"

# --- the load ---
out=$work/load
mkdir -p "$out"
faults=$work/faults.jsonl
: > "$faults"
python3 "$root_dir/deploy/fault-it/load.py" run --base "$base" --idp "$idp" --users "$users" --out "$out" \
  --deadline-ms "$deadline_ms" > "$work/load.log" 2>&1 &
load_pid=$!
for _ in $(seq 240); do [ -f "$out/started" ] && break; kill -0 "$load_pid" 2>/dev/null || fail "load.py stopped"; sleep 0.5; done
[ -f "$out/started" ] || fail "load.py did not start"
log "load running: users $users x 4 modes, one deposit per worker every 0.5 s, deadline ${deadline_ms} ms"
sleep 8

# every mode has a deposit acknowledged that started after T, at most recover_s after T
wait_back() {
  python3 - "$out/answers.jsonl" "$1" "$recover_s" <<'PY' || fail "service not back within $recover_s s of the restart"
import json, sys, time
path, since, limit = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
while time.time() < since + limit:
    back = set()
    with open(path) as f:
        for line in f:
            a = json.loads(line)
            if a["t"] >= since and 200 <= a["status"] < 300:
                back.add(a["mode"])
    if len(back) == 4:
        sys.exit(0)
    time.sleep(0.5)
sys.exit(1)
PY
}
# --- 1. kill -9 each tier in turn, and the PostgreSQL server ---
pg_kill() { # the postmaster and its backends, by PID
  local pm children
  pm=$(head -1 "$SPIFFEIDT_PG_BASE/data/postmaster.pid")
  children=$(ps -o pid= --ppid "$pm" | tr '\n' ' ')
  kill -9 "$pm" $children
}
for target in asserting-wl m-tier target-wl postgresql; do
  killed=$(now)
  if [ "$target" = postgresql ]; then pg_kill; else kill -9 "${pid[$target]}"; fi
  log "kill -9 $target"
  sleep "$down"
  restarted=$(now)
  if [ "$target" = postgresql ]; then
    bash .ci/postgres.sh >/dev/null 2>>"$work/postgres-setup.log" || fail "PostgreSQL did not start again"
  else
    start "$target"
    health "$target"
  fi
  up=$(now)
  log "$target started again, up after $(python3 -c "print(round($up - $restarted, 1))") s; waiting for every mode"
  wait_back "$restarted"
  sleep 3
  printf '{"kind":"kill","target":"%s","killed":%s,"restarted":%s,"up":%s,"until":%s}\n' \
    "$target" "$killed" "$restarted" "$up" "$(now)" >> "$faults"
done

# --- 2. SPIRE server away ---
declare -A before count
for wl in asserting-wl m-tier target-wl; do before[$wl]=$(serial "$wl"); [ -n "${before[$wl]}" ] || fail "no SVID seen on $wl's port"; done
for wl in subject-wl asserting-wl m-tier target-wl; do count[$wl]=$(updates "$wl"); done
from=$(now)
kill "${pid[spire-server]}"
wait "${pid[spire-server]}" 2>/dev/null || true
log "SPIRE server stopped for ${spire_down}s (the agent syncs every 5 s)"
sleep "$spire_down"
grep -q -i "error" "$work/spire-agent.log" && log "  agent log while the server is away: $(grep -i 'error' "$work/spire-agent.log" | tail -1 | cut -c1-160)"
to=$(now)
printf '{"kind":"spire","what":"SPIRE server stopped","from":%s,"to":%s,"note":"workloads serve with the SVIDs they have"}\n' \
  "$from" "$to" >> "$faults"
spire_server_run
pid[spire-server]=$spire_server_pid
log "SPIRE server started again; waiting for a new SVID in every workload"
from=$(now)
deadline=$(( $(date +%s) + svid_ttl + 60 ))
while :; do
  renewed=1
  for wl in asserting-wl m-tier target-wl; do [ "$(serial "$wl")" != "${before[$wl]}" ] || renewed=0; done
  [ "$(updates subject-wl)" -gt "${count[subject-wl]}" ] || renewed=0
  [ "$renewed" = 1 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || fail "not every workload got a new SVID within $((svid_ttl + 60)) s of the server's return"
  sleep 1
done
to=$(now)
for wl in asserting-wl m-tier target-wl; do log "  $wl: ${before[$wl]}-> $(serial "$wl")"; done
took=$(python3 -c "print(round($to - $from, 1))")
printf '{"kind":"spire","what":"SPIRE server back, new SVIDs","from":%s,"to":%s,"note":"every workload renewed %s s after the return"}\n' \
  "$from" "$to" "$took" >> "$faults"
log "every workload has a new SVID ${took} s after the server's return"

# --- 3. SPIRE agent restart ---
declare -A pids_before
for wl in subject-wl asserting-wl m-tier target-wl; do pids_before[$wl]=${pid[$wl]}; count[$wl]=$(updates "$wl"); done
from=$(now)
kill "${pid[spire-agent]}"
wait "${pid[spire-agent]}" 2>/dev/null || true
log "SPIRE agent stopped"
sleep 3
spire_agent_run
pid[spire-agent]=$spire_agent_pid
log "SPIRE agent started again (its SVID from data_dir, no new attestation)"
deadline=$(( $(date +%s) + 90 ))
while :; do
  again=1
  for wl in subject-wl asserting-wl m-tier target-wl; do [ "$(updates "$wl")" -gt "${count[$wl]}" ] || again=0; done
  [ "$again" = 1 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || fail "not every workload's Workload API stream reconnected within 90 s"
  sleep 1
done
for wl in subject-wl asserting-wl m-tier target-wl; do
  kill -0 "${pid[$wl]}" 2>/dev/null && [ "${pid[$wl]}" = "${pids_before[$wl]}" ] || fail "$wl restarted or died"
done
sleep 3
to=$(now)
took=$(python3 -c "print(round($to - $from - 3, 1))")
# under thesis a fresh source per request needs the agent: while it is away those calls are refused (503)
allowed=$([ "$profile" = thesis ] && echo '[503]' || echo '[]')
printf '{"kind":"spire","what":"SPIRE agent restarted","from":%s,"to":%s,"allowed":%s,"note":"every stream reconnected %s s after the stop, same PIDs"}\n' \
  "$from" "$to" "$allowed" "$took" >> "$faults"
log "every workload's Workload API stream reconnected, same PIDs"

# --- the end: stop the load, drain, check ---
touch "$out/stop"
wait "$load_pid" || fail "load.py failed: $(tail -5 "$work/load.log")"
load_pid=""
PGPASSWORD=$SPIFFEIDT_TEST_POSTGRES_PASSWORD psql -h 127.0.0.1 -p "$pg_port" -U "$SPIFFEIDT_TEST_POSTGRES_USER" \
  -d spiffeidt -At -c "SELECT idem_key FROM idempotency_key" > "$work/db-keys.txt" || fail "cannot read idempotency_key"
{
  echo "fault-it $(date -u +%FT%TZ), $(nproc) cores, profile $profile, SVID TTL ${svid_ttl}s, outage ${down}s per kill, SPIRE server away ${spire_down}s"
} > "$summary"
python3 "$root_dir/deploy/fault-it/load.py" report --out "$out" --faults "$faults" --db-keys "$work/db-keys.txt" \
  --deadline-ms "$deadline_ms" --margin-ms "$margin_ms" --recover-s "$recover_s" --summary "$summary.tmp" \
  || { cat "$summary.tmp" >> "$summary"; rm -f "$summary.tmp"; fail "checks failed (summary in $summary)"; }
cat "$summary.tmp" >> "$summary"
rm -f "$summary.tmp"
log "summary in $summary"
log "PASSED in $(( $(date +%s) - started ))s"
