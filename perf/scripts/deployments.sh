#!/usr/bin/env bash
# Closed-loop `balance` throughput of the same workloads on three deployments of one machine, in one
# run: the embedded stack (DevStackMain, one JVM, the development Workload API), Docker Compose (a
# container per workload with the thesis' limit of one CPU, real SPIRE, PostgreSQL, Prometheus;
# deploy/compose/offline.yaml) and Kubernetes (the single-node cluster of $KUBE_NODE started by
# deploy/k8s-pods-it/run.sh's steps 1-2: deploy/k8s through its node overlay, a pod per workload with a
# 1-CPU limit, SPIRE with k8s_psat, kube-proxy and the CNI bridge between the pods; one replica each,
# as Compose).
# Per pooling profile and stack: every mode's `balance` for WARM_ALL seconds in turn (the JIT of the
# shared paths), then per mode: wrk keeps C connections busy with one user's `balance` for WARM seconds
# (not measured), then for DURATION seconds (measured): requests/s, p50 and p99 (ms), non-2xx answers
# and socket errors, the stack's CPU time per request and each workload's (the JVM's, or each
# container's or pod's cgroup: subject/asserting/m-tier/target), and every workload's resident memory
# after the run; on Kubernetes also the CPU of what the cluster adds beside the pods (kubelet, kube-proxy,
# containerd, the control plane) per request; on Compose the workloads' idle CPU with Prometheus every 5 s
# and every 100 ms (IDLE=0: not). GATLING=1 also runs the Gatling profile GATLING_PROFILE (ci) against
# each stack, labelled embedded / compose / kubernetes, and writes the report with their three columns
# of the thesis' Tables 12-14 (perf/target/report; clear perf/target/runs first), for the pooling profiles
# in GATLING_POOLING (default: all the run's). The generator runs on the same machine (for Kubernetes, in the node's network
# namespace, through subject-wl's Service): measure on a quiet one and say what ran beside.
#
#   ./mvnw install -DskipTests && deploy/images/build-offline.sh     # once: the jars and the images
#   SPIRE_BIN=... KUBE_BIN=... KUBE_NODE=... perf/scripts/deployments.sh [profile...]   # default: pooled thesis
#   C=8 WARM_ALL=15 WARM=10 DURATION=20 STACKS="embedded compose kubernetes" MODES="lsvid dvid" perf/scripts/deployments.sh pooled
# Compose needs Docker (dockerd is started when none answers) and SPIRE_BIN; Kubernetes needs root and KUBE_NODE, KUBE_BIN and SPIRE_BIN (a stack that cannot run is skipped with a message).
set -euo pipefail
cd "$(dirname "$0")/../.."
C=${C:-8}
WARM=${WARM:-20}
WARM_ALL=${WARM_ALL:-30}
SECS=${DURATION:-20}
MODES=${MODES:-dvid id-mode anon-mode lsvid}
STACKS=${STACKS:-embedded compose kubernetes}
WORKLOADS="subject-wl asserting-wl m-tier target-wl"
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(pooled thesis)
command -v wrk > /dev/null || { echo "deployments: wrk missing (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d /tmp/spiffeidt-deployments.XXXXXX)
compose=(docker compose -p spiffeidt -f deploy/compose/compose.yaml -f deploy/compose/offline.yaml)
stack_pid="" stack="" in_net=()
export W=${K8S_PODS_IT_DIR:-/tmp/k8s-pods-it-node}
cleanup() {
  devstack_stop
  [ -z "${compose_up:-}" ] || "${compose[@]}" down -v > /dev/null 2>&1 || true
  docker_engine_down 2> /dev/null || true
  [ -z "${kube_up:-}" ] || bash "$KUBE_NODE/scripts/90-down.sh" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=../../deploy/lib/cgroup.sh
source deploy/lib/cgroup.sh
# shellcheck source=lib/devstack.sh
source perf/scripts/lib/devstack.sh
# shellcheck source=../../deploy/lib/docker.sh
source deploy/lib/docker.sh
log() { echo "  $*" >&2; }
skip() { echo "deployments: compose: $*" >&2; exit 1; }
fail() { echo "deployments: $*" >&2; exit 1; }
cat > "$work/post.lua" << 'EOF'
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("WRK_TOKEN")
EOF
k() { nsenter --net="$W/ns/net" kubectl --kubeconfig "$W/kubeconfig" --cache-dir "$W/kube-cache" "$@" 2> >(grep -v '^Warning: ' >&2); }

# a pod's cgroup directory in one v1 controller hierarchy (the kubelet's cgroupfs driver: kubepods/<qos>/pod<uid>)
pod_cgroup() { # CONTROLLER WORKLOAD
  local uid
  uid=$(k -n spiffeidt get pods -l "app.kubernetes.io/name=$2" --field-selector=status.phase=Running -o jsonpath='{.items[0].metadata.uid}')
  find "/sys/fs/cgroup/$1" -maxdepth 4 -type d -name "pod$uid" 2>/dev/null | head -1
}
# CPU time (ms) of one workload since it started
workload_cpu_ms() { # WORKLOAD
  case $stack in
    embedded) awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$stack_pid/stat" ;;
    compose) container_cpu_ms "spiffeidt-$1-1" ;;
    kubernetes)
      local d
      d=$(pod_cgroup cpu,cpuacct "$1"); [ -n "$d" ] || d=$(pod_cgroup cpuacct "$1")
      [ -n "$d" ] && echo $(($(cat "$d/cpuacct.usage") / 1000000)) || echo 0 ;;
  esac
}
# resident memory (MB) of every workload, or of the one JVM
rss() {
  case $stack in
    embedded) echo "the JVM $(awk '/VmRSS/ {print int($2/1024)}' "/proc/$stack_pid/status") MB" ;;
    compose)
      docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' $(for c in $WORKLOADS; do echo "spiffeidt-$c-1"; done) \
        | awk '{v=$2; u=v; gsub(/[0-9.]/,"",u); gsub(/[A-Za-z]/,"",v); m=(u=="GiB")?v*1024:(u=="KiB")?v/1024:v; printf "%s %d MB, ", $1, m}' \
        | sed 's/spiffeidt-//g; s/-1 / /g; s/, $//' ;;
    kubernetes)
      local wl d out=""
      for wl in $WORKLOADS; do
        d=$(pod_cgroup memory "$wl")
        out="$out${out:+, }$wl $([ -n "$d" ] && awk '$1 == "total_rss" {print int($2 / 1048576)}' "$d/memory.stat" || echo '?') MB"
      done
      echo "$out" ;;
  esac
}
cpu_all() { local wl; for wl in $WORKLOADS; do printf '%s ' "$(workload_cpu_ms "$wl")"; done; }
# CPU time (ms) of what Kubernetes adds beside the pods: kubelet, kube-proxy, containerd and the control
# plane (API server, etcd, scheduler, controller manager), CoreDNS excluded (a pod); 0 elsewhere
node_cpu_ms() {
  [ "$stack" = kubernetes ] || { echo 0; return; }
  local p sum=0 hz
  hz=$(getconf CLK_TCK)
  for p in $(pgrep -x 'kubelet|kube-proxy|containerd|kube-apiserver|etcd|kube-scheduler|kube-controller' 2>/dev/null); do
    sum=$((sum + $(awk -v hz="$hz" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$sum"
}

run_modes() { # PROFILE
  local mode out rps p50 p99 non2xx errs n c0 c1 k0 k1 per total
  token=$("${in_net[@]}" curl -sf -d username=user0001 -d password=password "$idp_url/dev/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  for mode in $MODES; do
    "${in_net[@]}" curl -sf -o /dev/null -X POST -H "Authorization: Bearer $token" "$sub_url/api/$mode/mint" \
      || "${in_net[@]}" curl -sf -o /dev/null --max-time 60 -X POST -H "Authorization: Bearer $token" "$sub_url/api/$mode/mint"
  done
  # every mode warms the JIT first: the code paths the modes share (TLS, HTTP, JSON) would
  # otherwise be compiled during the first mode's measurement and make it look slow
  for mode in $MODES; do
    WRK_TOKEN=$token "${in_net[@]}" wrk -t2 -c"$C" -d"${WARM_ALL}s" -s "$work/post.lua" "$sub_url/api/$mode/balance" > /dev/null
  done
  for mode in $MODES; do
    WRK_TOKEN=$token "${in_net[@]}" wrk -t2 -c"$C" -d"${WARM}s" -s "$work/post.lua" "$sub_url/api/$mode/balance" > /dev/null
    c0=$(cpu_all); k0=$(node_cpu_ms)
    out=$(WRK_TOKEN=$token "${in_net[@]}" wrk -t2 -c"$C" -d"${SECS}s" --timeout 10s --latency -s "$work/post.lua" "$sub_url/api/$mode/balance")
    c1=$(cpu_all); k1=$(node_cpu_ms)
    rps=$(awk '/^Requests\/sec/ {print $2}' <<< "$out")
    n=$(awk '/requests in/ {print $1}' <<< "$out")
    p50=$(awk '$1 == "50%" {print $2}' <<< "$out")
    p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<< "$out")
    errs=$(awk '/Socket errors/ {print $0}' <<< "$out" | sed 's/ *Socket errors: *//')
    # per workload (embedded: the one JVM, counted once)
    read -r -a a0 <<< "$c0"; read -r -a a1 <<< "$c1"
    if [ "$stack" = embedded ]; then
      total=$(awk -v d=$((a1[0] - a0[0])) -v n="$n" 'BEGIN {printf "%.2f", n ? d / n : 0}'); per="one JVM"
    else
      per="" total=0
      for i in 0 1 2 3; do
        per="$per${per:+ / }$(awk -v d=$((a1[i] - a0[i])) -v n="$n" 'BEGIN {printf "%.2f", n ? d / n : 0}')"
        total=$((total + a1[i] - a0[i]))
      done
      total=$(awk -v d="$total" -v n="$n" 'BEGIN {printf "%.2f", n ? d / n : 0}')
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$stack" "$1" "$mode" "$rps" "$p50" "$p99" "${non2xx:-0}" \
      "${errs:-none}" "$total" "$per" "$([ "$stack" = kubernetes ] && awk -v d=$((k1 - k0)) -v n="$n" 'BEGIN {printf "%.2f", n ? d / n : 0}' || echo -)" \
      "$(cut -d' ' -f1 /proc/loadavg)"
  done
  echo "  resident memory after the run ($stack, $1): $(rss)"
}

compose_idle() { # PROFILE: the four workloads' idle CPU with Prometheus every 5 s, then every 100 ms (the thesis')
  local cfg a b pa pb
  for cfg in prometheus.yml prometheus-thesis.yml; do
    SPIFFEIDT_POOLING_PROFILE=$1 SPIFFEIDT_MEMO_ENABLED=$(memo_for "$1") SPIFFEIDT_PROMETHEUS_CONFIG=$cfg "${compose[@]}" up -d --wait prometheus > /dev/null 2>&1
    sleep 10
    a=$(cpu_all | awk '{print $1 + $2 + $3 + $4}'); pa=$(container_cpu_ms spiffeidt-prometheus-1)
    sleep 30
    b=$(cpu_all | awk '{print $1 + $2 + $3 + $4}'); pb=$(container_cpu_ms spiffeidt-prometheus-1)
    echo "  idle, Prometheus with $cfg: the four workloads $(awk -v d=$((b - a)) 'BEGIN {printf "%.1f", d / 300}') % of a core in all, Prometheus $(awk -v d=$((pb - pa)) 'BEGIN {printf "%.1f", d / 300}') %"
  done
}

gatling() { # PROFILE: the Gatling profile $GATLING_PROFILE against this stack, its report column labelled after it
  [ "${GATLING:-0}" = 1 ] && [[ " ${GATLING_POOLING:-$*} " == *" $1 "* ]] || return 0
  local args=(-Dspiffeidt.perf.profile="${GATLING_PROFILE:-ci}" -Dspiffeidt.perf.deployment="$stack"
    -Dspiffeidt.pooling.profile="$1" -Dspiffeidt.oauth.jwks-cache=refresh-ahead -Dspiffeidt.memo.enabled="$(memo_for "$1")")
  case $stack in
    compose) args+=(-Dspiffeidt.base-url="$sub_url" -Dspiffeidt.idp-url="$idp_url"
      -Dspiffeidt.perf.containers=subject-wl=spiffeidt-subject-wl-1,asserting-wl=spiffeidt-asserting-wl-1,m-tier=spiffeidt-m-tier-1,target-wl=spiffeidt-target-wl-1) ;;
    kubernetes)
      local murls="" pair
      for pair in subject-wl:18080 asserting-wl:18443 m-tier:18445 target-wl:18444; do
        murls="$murls${murls:+,}${pair%:*}=http://$(k -n spiffeidt get svc "${pair%:*}" -o jsonpath='{.spec.clusterIP}'):${pair#*:}/actuator/prometheus"
      done
      args+=(-Dspiffeidt.base-url="$sub_url" -Dspiffeidt.idp-url="$idp_url" -Dspiffeidt.metrics-urls="$murls") ;;
  esac
  # embedded: Gatling starts the stack itself, with the same profile
  if "${in_net[@]}" ./mvnw -B -q -o -pl perf gatling:test "${args[@]}" > "$work/gatling-$stack-$1.log" 2>&1; then
    echo "  Gatling ${GATLING_PROFILE:-ci} ($stack, $1): $(grep -A1 'Global Information' "$work/gatling-$stack-$1.log" | awk -F'|' '/request count/ {gsub(/ /, ""); print "total/OK/KO " $2 "/" $3 "/" $4}')"
  else
    echo "  Gatling ${GATLING_PROFILE:-ci} ($stack, $1): FAILED"; tail -20 "$work/gatling-$stack-$1.log"
  fi
}

# the thesis reproduction remembers nothing (spiffeidt.memo.enabled=false); every other profile does
memo_for() { [ "$1" = thesis ] && echo false || echo true; }

kube_start() { # the cluster of deploy/k8s-pods-it (steps 1-2), then one replica per workload
  K8S_PODS_IT_UP_ONLY=1 bash deploy/k8s-pods-it/run.sh > "$work/k8s-up.log" 2>&1 || { tail -20 "$work/k8s-up.log"; exit 1; }
  kube_up=1
  k -n spiffeidt scale deploy/asserting-wl --replicas=1 > /dev/null
}
kube_profile() { # PROFILE: the four workloads' settings (a new pod each: kubectl set env rolls them)
  local wl
  for wl in $WORKLOADS; do
    k -n spiffeidt set env "deploy/$wl" SPIFFEIDT_POOLING_PROFILE="$1" SPIFFEIDT_MEMO_ENABLED="$(memo_for "$1")" > /dev/null
  done
  for wl in $WORKLOADS; do k -n spiffeidt rollout status "deploy/$wl" --timeout=600s > /dev/null; done
  for _ in $(seq 120); do
    [ "$(k -n spiffeidt get pods --no-headers | grep -c Terminating)" = 0 ] && break; sleep 1
  done
  sub_url=http://$(k -n spiffeidt get svc subject-wl -o jsonpath='{.spec.clusterIP}'):8080
  idp_url=http://$(k -n spiffeidt get svc idp -o jsonpath='{.spec.clusterIP}'):9000
}

echo "deployments: $(date -u +%FT%TZ), $(git rev-parse --short HEAD 2>/dev/null), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), C=$C, ${WARM_ALL}s warm-up of every mode, ${WARM}s warm-up and ${SECS}s measured per mode"
echo "| stack | profile | mode | req/s | p50 | p99 | non-2xx | socket errors | CPU ms / request | subject / asserting / m-tier / target | node ms / request | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for s in $STACKS; do
  stack=$s in_net=()
  case $stack in
    embedded)
      for profile in "${profiles[@]}"; do
        PROFILE=$profile MEMO=$(memo_for "$profile") devstack_start "$work/stack.log"
        stack_pid=$devstack_pid
        run_modes "$profile"
        devstack_stop; stack_pid=""
        gatling "$profile"
      done ;;
    compose)
      docker_engine_up
      { bash deploy/images/build-offline-deps.sh && bash deploy/images/load-images.sh; } > "$work/images.log" 2>&1 \
        || { tail -20 "$work/images.log"; fail "compose: the offline images (deploy/images/build-offline.sh first)"; }
      for profile in "${profiles[@]}"; do
        compose_up=1
        SPIFFEIDT_POOLING_PROFILE=$profile SPIFFEIDT_MEMO_ENABLED=$(memo_for "$profile") "${compose[@]}" up -d --wait --wait-timeout 300 > "$work/up.log" 2>&1 \
          || { tail -20 "$work/up.log"; exit 1; }
        sub_url=http://127.0.0.1:8080 idp_url=http://127.0.0.1:9000
        run_modes "$profile"
        gatling "$profile"
        [ "${IDLE:-1}" = 1 ] && compose_idle "$profile"
        "${compose[@]}" down -v > /dev/null 2>&1; compose_up=""
      done
      docker_engine_down ;;
    kubernetes)
      if [ -z "${KUBE_NODE:-}" ] || [ -z "${KUBE_BIN:-}" ] || [ -z "${SPIRE_BIN:-}" ] || [ "$(id -u)" != 0 ]; then
        echo "  kubernetes: skipped (needs root, KUBE_NODE, KUBE_BIN and SPIRE_BIN)"; continue
      fi
      kube_start
      in_net=(nsenter --net="$W/ns/net")
      for profile in "${profiles[@]}"; do
        kube_profile "$profile"
        run_modes "$profile"
        gatling "$profile"
      done
      bash "$KUBE_NODE/scripts/90-down.sh" > /dev/null 2>&1; kube_up="" ;;
    *) echo "deployments: unknown stack $stack (embedded, compose, kubernetes)" >&2; exit 2 ;;
  esac
done
if [ "${GATLING:-0}" = 1 ]; then
  ./mvnw -B -q -o -pl perf exec:java@report > "$work/report.log" 2>&1 && echo "  report: perf/target/report/report.md (one column per stack)" \
    || { echo "  report: FAILED"; tail -20 "$work/report.log"; }
fi
echo "deployments: done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
