#!/usr/bin/env bash
# Smoke test of the images without a container engine: unpacks each image's layers into a
# directory and runs its entrypoint there in a chroot (own mount namespace; /proc, /sys, /dev
# bind-mounted), as the image's user, with the image's environment. The IdP must answer OIDC
# discovery; a workload, given a socket of the devstack's standalone Workload API
# (io.spiffeidt.devstack.workloadapi.DevWorkloadApiMain), must answer health on its management port;
# the trace store (Zipkin) health on its port.
#
#   deploy/images/smoke-test.sh   (after deploy/images/build-offline.sh; needs root, unshare, chroot)
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
work=$(mktemp -d /tmp/spiffeidt-smoke.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done
  sleep 1
  for p in "${pids[@]}"; do kill -9 -- "-$p" 2>/dev/null || true; done
  # the mounts live in the killed namespaces; only plain files remain
  rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# unpack IMAGE_TAR DIR: layers in order, and the container config as DIR.config.json
unpack() {
  local tarfile=$1 dir=$2 x=$2.x
  mkdir -p "$dir" "$x"
  tar -xf "$tarfile" -C "$x"
  python3 - "$x" "$dir" <<'PY'
import json, os, subprocess, sys
x, rootfs = sys.argv[1], sys.argv[2]
m = json.load(open(os.path.join(x, "manifest.json")))[0]
for layer in m["Layers"]:
    subprocess.run(["tar", "--warning=no-unknown-keyword", "-xf", os.path.join(x, layer), "-C", rootfs], check=True)
cfg = json.load(open(os.path.join(x, m["Config"])))["config"]
json.dump(cfg, open(rootfs + ".config.json", "w"))
PY
  rm -rf "$x"
}

# run_image DIR SOCKET_DIR ENV... : starts the entrypoint in a chroot, in the background
run_image() {
  local dir=$1 sockets=$2; shift 2
  local cfg=$dir.config.json
  local user wd
  user=$(jq -r '.User // "0:0"' "$cfg")
  wd=$(jq -r '.WorkingDir // "/"' "$cfg")
  mapfile -t envs < <(jq -r '.Env[]' "$cfg")
  mapfile -t cmd < <(jq -r '(.Entrypoint // []) + (.Cmd // []) | .[]' "$cfg")
  mkdir -p "$dir/run/spiffe"
  setsid unshare -m --propagation private -- bash -c '
    set -e
    d=$1; s=$2; u=$3; w=$4; shift 4
    mount --bind /proc "$d/proc"; mount --rbind /sys "$d/sys"; mount --rbind /dev "$d/dev"
    [ -n "$s" ] && mount --bind "$s" "$d/run/spiffe"
    cd "$d"
    exec chroot --userspec="$u" "$d" /usr/bin/env -i "$@"
  ' smoke "$dir" "$sockets" "$user" "$wd" "${envs[@]}" "$@" HOME=/tmp \
    /bin/sh -c "cd $wd && exec \"\$@\"" sh "${cmd[@]}" > "$dir.log" 2>&1 &
  pids+=($!)
}

wait_http() { # URL JQ_FILTER SECONDS
  local i
  for ((i = 0; i < $3; i++)); do
    if out=$(curl -sf --max-time 2 "$1") && echo "$out" | jq -e "$2" >/dev/null 2>&1; then
      echo "$out" | jq -c "$2"
      return 0
    fi
    sleep 1
  done
  return 1
}

failed=0
# the standalone development Workload API, its sockets open to the images' non-root user
cp_file=devstack/target/smoke-classpath.txt
./mvnw -B -q -pl devstack dependency:build-classpath -Dmdep.outputFile=target/smoke-classpath.txt >/dev/null
mkdir -m 0777 "$work/sockets"
(umask 000; exec setsid java -cp "devstack/target/classes:$(cat "$cp_file")" \
  io.spiffeidt.devstack.workloadapi.DevWorkloadApiMain "$work/sockets" > "$work/wlapi.out" 2> "$work/wlapi.err") &
pids+=($!)
for _ in $(seq 60); do [ "$(wc -l < "$work/wlapi.out" 2>/dev/null || echo 0)" -ge 4 ] && break; sleep 1; done
cat "$work/wlapi.out"

for image in idp subject-wl asserting-wl m-tier target-wl; do
  tarfile=$image/target/jib-image.tar
  [ -f "$tarfile" ] || { echo "smoke: $tarfile missing (run deploy/images/build-offline.sh)"; failed=1; continue; }
  dir=$work/$image
  unpack "$tarfile" "$dir"
  port=$(free_port); mport=$(free_port)
  start=$(date +%s)
  if [ "$image" = idp ]; then
    run_image "$dir" "" SERVER_PORT="$port"
    if r=$(wait_http "http://127.0.0.1:$port/.well-known/openid-configuration" '{issuer, jwks_uri}' 120); then
      echo "smoke: $image OK in $(( $(date +%s) - start ))s: discovery $r"
    else
      echo "smoke: $image FAILED"; tail -30 "$dir.log"; failed=1
    fi
  else
    sock=$(awk -F'\t' -v n="$image" '$1 == n {print $3}' "$work/wlapi.out")
    run_image "$dir" "$work/sockets" SERVER_PORT="$port" MANAGEMENT_SERVER_PORT="$mport" \
      SPIFFE_ENDPOINT_SOCKET="unix:/run/spiffe/$(basename "${sock#unix:}")"
    if r=$(wait_http "http://127.0.0.1:$mport/actuator/health" '.status == "UP"' 120); then
      echo "smoke: $image OK in $(( $(date +%s) - start ))s: health UP on :$mport, uid $(jq -r .User "$dir.config.json")"
      # one request on subject-wl's plain-HTTP port (401 without a token) makes http_server_requests_* appear
      [ "$image" = subject-wl ] && curl -s -o /dev/null --max-time 10 -X POST "http://127.0.0.1:$port/api/dvid/balance" || true
      curl -sf --max-time 5 "http://127.0.0.1:$mport/actuator/prometheus" | grep -v '^#' | sed 's/[{ ].*//' >> "$work/metrics.txt" || true
    else
      echo "smoke: $image FAILED"; tail -30 "$dir.log"; failed=1
    fi
  fi
  kill -- "-${pids[-1]}" 2>/dev/null || true
done
# the trace store (make-zipkin-image.sh): Zipkin's server must answer health
tarfile=devstack/target/zipkin/zipkin-image.tar
if [ -f "$tarfile" ]; then
  dir=$work/zipkin
  unpack "$tarfile" "$dir"
  port=$(free_port)
  start=$(date +%s)
  run_image "$dir" "" QUERY_PORT="$port"
  if r=$(wait_http "http://127.0.0.1:$port/health" '.status == "UP"' 180); then
    echo "smoke: zipkin OK in $(( $(date +%s) - start ))s: health UP on :$port, uid $(jq -r .User "$dir.config.json")"
  else
    echo "smoke: zipkin FAILED"; tail -30 "$dir.log"; failed=1
  fi
  kill -- "-${pids[-1]}" 2>/dev/null || true
else
  echo "smoke: $tarfile missing (run deploy/images/build-offline.sh)"; failed=1
fi
# the metric names the dashboard may use (deploy/validate.sh reads the list kept in the repository)
listed=deploy/k8s/base/grafana/exposed-metrics.txt
if [ -s "$work/metrics.txt" ]; then
  sort -u "$work/metrics.txt" > "$work/metrics.sorted"
  if [ "${SMOKE_WRITE_METRICS:-0}" = 1 ]; then
    { sed -n '/^#/p' "$listed"; cat "$work/metrics.sorted"; } > "$work/listed" && cp "$work/listed" "$listed"
    echo "smoke: wrote $listed"
  fi
  # spiffeidt_* appear with the first document, jvm_gc_pause_* with the first garbage collection: a
  # short-lived image may have had neither when it was scraped
  missing=$(grep -v '^#' "$listed" | grep -v -e '^spiffeidt_' -e '^jvm_gc_pause_seconds_' \
    | comm -23 - "$work/metrics.sorted" || true)
  if [ -n "$missing" ]; then
    echo "smoke: listed in $listed but not exposed by the images: $missing"; failed=1
  else
    echo "smoke: every metric in $listed is exposed by the images"
  fi
fi
exit $failed
