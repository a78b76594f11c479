#!/usr/bin/env bash
# JDK 25's AOT cache in the Compose deployment, for real (deploy/compose/aot-cache.yaml): the five
# images built here on a JDK 25 base under the tag <version>-jdk25, `docker compose up` with the override,
# and the workloads made to use their cache or refuse to start (SPIFFEIDT_AOT_MODE=on).
#
#   ./mvnw install -DskipTests
#   SPIRE_BIN=/dir/with/spire-server+spire-agent deploy/compose-it/aot-cache.sh        # as root
#
# Checks: each `<workload>-aot` training exits 0 and leaves its cache; each workload starts with it (the JVM
# refuses a cache it cannot use under AOTMode=on, so a healthy workload is one that mapped it), runs as its
# SPIFFE ID and answers the walk-through in the four modes; a restarted workload maps it again; a cache of
# another workload is refused. `docker compose down -v` at the end.
# Skips with a message and exit 0 when SPIRE_BIN is unset, no JDK 25 is found (JDK25_HOME, or Temurin's or
# Debian's under /usr/lib/jvm), no Docker engine can start, or the compose plugin is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
started=$(date +%s)
log() { echo "compose-aot-it [$(($(date +%s) - started))s]: $*"; }
skip() { log "skipped: $*"; exit 0; }
fail() { log "FAILED: $*"; exit 1; }
work=$(mktemp -d /tmp/spiffeidt-compose-aot-it.XXXXXX)
compose=(docker compose -p spiffeidt -f deploy/compose/compose.yaml -f deploy/compose/offline.yaml -f deploy/compose/aot-cache.yaml)
workloads=(asserting-wl target-wl m-tier subject-wl)
up=0
# shellcheck source=../lib/docker.sh
source "$root_dir/deploy/lib/docker.sh"

cleanup() {
  local rc=$?
  if [ "$up" = 1 ]; then
    [ "$rc" -eq 0 ] || "${compose[@]}" logs --no-color --tail 40 2>&1 | tail -200 || true
    "${compose[@]}" down -v --remove-orphans > /dev/null 2>&1 || true
    log "docker compose down -v"
  fi
  docker_engine_down
  rm -rf "$work"
}
trap cleanup EXIT

[ -n "${SPIRE_BIN:-}" ] || skip "SPIRE_BIN is unset (the SPIRE images are built from its binaries)"
jdk25=${JDK25_HOME:-}
for d in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64; do
  [ -n "$jdk25" ] || { [ -x "$d/bin/jlink" ] && jdk25=$d; }
done
[ -n "$jdk25" ] || skip "no JDK 25 (set JDK25_HOME)"
exec_jar=$(ls subject-wl/target/subject-wl-*-exec.jar 2> /dev/null | head -1 || true)
[ -n "$exec_jar" ] || fail "subject-wl/target has no runnable jar: run ./mvnw install -DskipTests first"
version=${exec_jar#subject-wl/target/subject-wl-}
export SPIFFEIDT_TAG=${version%-exec.jar}-jdk25 SPIFFEIDT_AOT_MODE=on
docker_engine_up

# --- images: the third-party ones, then the project's on a JDK 25 base (their own tag and tars) ---
bash deploy/images/build-offline-deps.sh | sed 's/^/  /'
deploy/images/make-base-image.sh "$work/base25.tar" "$jdk25" | sed 's/^/  /'
IMAGE_TAG=$SPIFFEIDT_TAG BASE_TAR=$work/base25.tar bash deploy/images/build-offline.sh | sed 's/^/  /'
IMAGE_TAG=$SPIFFEIDT_TAG bash deploy/images/load-images.sh | sed 's/^/  /'
if ! docker image inspect spiffeidt/zipkin:3.6.1 > /dev/null 2>&1; then # the trace store, made by build-offline.sh without a tag
  bash deploy/images/make-zipkin-image.sh "$work/base25.tar" "$work/zipkin.tar" > /dev/null
  docker load -q -i "$work/zipkin.tar"
fi
log "images ready: spiffeidt/<module>:$SPIFFEIDT_TAG"

# --- up: the trainings, then the workloads with their caches ---
compose_up 600
for wl in "${workloads[@]}"; do
  state=$(docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' "spiffeidt-$wl-aot-1")
  [ "$state" = "exited 0" ] || fail "the training $wl-aot ended $state"
  "${compose[@]}" logs --no-color "$wl-aot" > "$work/$wl-aot.log" 2>&1
  grep -q "AOTCache creation is complete: /aot/$wl.aot" "$work/$wl-aot.log" || fail "the training $wl-aot wrote no cache"
  "${compose[@]}" logs --no-color "$wl" > "$work/$wl.log" 2>&1
  grep -q "Picked up JAVA_TOOL_OPTIONS: -XX:AOTCache=/aot/$wl.aot -XX:AOTMode=on" "$work/$wl.log" \
    || fail "$wl was not started with its cache under AOTMode=on"
  grep -q "runs as spiffe://example.org/$wl" "$work/$wl.log" || fail "$wl did not get its SVID from SPIRE"
  log "$wl: trained ($(grep -o "AOTCache creation is complete.*" "$work/$wl-aot.log")), started with it, runs as spiffe://example.org/$wl"
done

# --- the walk-through ---
base=http://127.0.0.1:8080
idp=http://127.0.0.1:9000
# shellcheck source=../lib/walkthrough.sh
source "$root_dir/deploy/lib/walkthrough.sh"
warm_up "$(token_for user0002)"
walk_through user0001
log "walk-through in the four modes answered"

# --- a restart maps the cache again; another workload's cache is refused ---
"${compose[@]}" restart m-tier > /dev/null 2>&1
"${compose[@]}" up -d --wait --wait-timeout 300 --no-deps m-tier > "$work/up.log" 2>&1 || { tail -30 "$work/up.log"; fail "m-tier after a restart"; }
[ "$(docker inspect -f '{{.RestartCount}} {{.State.Status}}' spiffeidt-m-tier-1)" = "0 running" ] || fail "m-tier restarted by Docker after its restart"
walk_through user0003
log "m-tier restarted with its cache (AOTMode=on) and served the walk-through again"
# the image's own command, given the wrong cache (a JVM that starts anyway is stopped after 120 s and fails the check)
if timeout 120 "${compose[@]}" run --rm --no-deps -T -e JAVA_TOOL_OPTIONS="-XX:AOTCache=/aot/subject-wl.aot -XX:AOTMode=on" \
  --entrypoint sh m-tier -c 'exec java -cp @/app/jib-classpath-file "$(cat /app/jib-main-class-file)"' > "$work/wrong.log" 2>&1; then
  fail "m-tier started with subject-wl's cache under AOTMode=on"
fi
grep -qi "AOT cache" "$work/wrong.log" || { tail -20 "$work/wrong.log"; fail "m-tier with subject-wl's cache failed for another reason"; }
log "m-tier given subject-wl's cache refused to start: $(grep -i -m1 'AOT cache' "$work/wrong.log")"
log "PASSED in $(($(date +%s) - started)) s"
