#!/usr/bin/env bash
# deploy/k8s against a real Kubernetes API server: etcd and kube-apiserver on loopback (fresh data
# directories, free ports, RBAC), no kubelet, so nothing is scheduled or run; the API server stores,
# defaults, validates and authorizes every object as a cluster would. It checks:
#   a. `kubectl apply -k deploy/k8s` (the documented command) applies the base to an EMPTY cluster in
#      one go, no custom resource in it, on $K8S_IT_CLUSTERS fresh clusters (fresh etcd and
#      kube-apiserver each);
#   b. a second apply changes nothing (every object `unchanged`, none `configured`);
#   c. every overlay in deploy/k8s/overlays applied in turn over the one before, a server-side
#      dry-run of each, and the base again (overlays replace each other); spire-controller-manager
#      after its CRD (deploy/k8s/crds) is established, its ClusterSPIFFEIDs valid against that CRD;
#   d. the RBAC the manifests intend (`kubectl auth can-i --as system:serviceaccount:NS:NAME`,
#      allowed and denied), and the DVID-key Job's service account limits.
#
#   KUBE_BIN=/dir/with/kube-apiserver deploy/k8s-it/run.sh
#
# Skipped, with a message and exit 0, when KUBE_BIN is not set or etcd is not installed (Debian:
# etcd-server). Needs kubectl (with kustomize), openssl, python3. K8S_IT_KEEP=1 keeps the logs.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${KUBE_BIN:-}" ] || [ ! -x "${KUBE_BIN}/kube-apiserver" ]; then
  echo "k8s-it: skipped: KUBE_BIN is not set or has no kube-apiserver (v1.37 binary)"
  exit 0
fi
if ! command -v etcd >/dev/null; then
  echo "k8s-it: skipped: etcd is not installed (apt-get install etcd-server)"
  exit 0
fi
for t in kubectl openssl python3; do
  command -v "$t" >/dev/null || { echo "k8s-it: FAILED: $t is missing"; exit 1; }
done
clusters=${K8S_IT_CLUSTERS:-3}
started=$(date +%s)
work=$(mktemp -d /tmp/spiffeidt-k8s-it.XXXXXX)
pids=()
stop_cluster() {
  local p i
  # the API server first (last started), then etcd, each given 5 s after SIGTERM
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    p=${pids[i]}
    kill "$p" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  pids=()
}
cleanup() {
  stop_cluster
  if [ "${K8S_IT_KEEP:-0}" = 1 ]; then echo "k8s-it: logs kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
log() { echo "== k8s-it [$(( $(date +%s) - started ))s]: $*"; }
ok() { echo "   ok: $*"; }
fail() { # the logs' tails first, why last: what a CI log's tail shows
  for f in "$work"/*/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -10 "$f"; }; done
  log "FAILED: $*"
  exit 1
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export KUBECONFIG=$work/kubeconfig
# kubectl's discovery cache must not outlive a cluster (each cluster starts without the CRD)
kc() { kubectl --cache-dir "$cluster_dir/kube-cache" "$@"; }

# --- one CA, serving and admin certificates, service-account key pair (shared by the clusters) ---
pki=$work/pki
mkdir -p "$pki"
(
  cd "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 1 -subj /CN=k8s-it-ca 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=kube-apiserver 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 1 -extfile server.ext 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=k8s-it-admin" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' > admin.ext
  openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 1 -extfile admin.ext 2>/dev/null
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
)

# start_cluster N: etcd and kube-apiserver with fresh data directories and free ports; kubeconfig
start_cluster() {
  cluster_dir=$work/cluster-$1
  mkdir -p "$cluster_dir/etcd"
  local etcd_port peer_port api_port
  etcd_port=$(free_port); peer_port=$(free_port); api_port=$(free_port)
  etcd --name k8s-it --data-dir "$cluster_dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "k8s-it=http://127.0.0.1:$peer_port" --listen-metrics-urls '' \
    > "$cluster_dir/etcd.log" 2>&1 &
  pids+=($!)
  "$KUBE_BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
    --endpoint-reconciler-type none \
    --authorization-mode Node,RBAC \
    --tls-cert-file "$pki/server.crt" --tls-private-key-file "$pki/server.key" \
    --client-ca-file "$pki/ca.crt" \
    --service-account-issuer https://kubernetes.default.svc \
    --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
    --service-cluster-ip-range 10.96.0.0/16 \
    --profiling=false \
    > "$cluster_dir/kube-apiserver.log" 2>&1 &
  pids+=($!)
  kubectl config set-cluster k8s-it --server "https://127.0.0.1:$api_port" \
    --certificate-authority "$pki/ca.crt" --embed-certs >/dev/null
  kubectl config set-credentials k8s-it-admin --client-certificate "$pki/admin.crt" \
    --client-key "$pki/admin.key" --embed-certs >/dev/null
  kubectl config set-context k8s-it --cluster k8s-it --user k8s-it-admin >/dev/null
  kubectl config use-context k8s-it >/dev/null
  local i
  for i in $(seq 120); do
    [ "$(kc get --raw /readyz 2>/dev/null)" = ok ] && break
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "cluster $1: a process (PID $p) exited"; done
    sleep 0.5
  done
  [ "$(kc get --raw /readyz 2>/dev/null)" = ok ] || fail "cluster $1: /readyz not ok within 60 s"
  # the bootstrap RBAC (cluster roles for the controllers) is in place once /readyz is ok
  log "cluster $1: etcd 127.0.0.1:$etcd_port, kube-apiserver https://127.0.0.1:$api_port ready ($(kc version -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])'))"
}

# the documented commands (deploy/README.md section 4); the cache directory is the cluster's own.
# apply_k8s [OVERLAY]: kubectl apply -k deploy/k8s, or -k deploy/k8s/overlays/OVERLAY
apply_k8s() { kc apply -k "deploy/k8s${1:+/overlays/$1}"; }
# the ClusterSPIFFEID CRD first, established and in discovery (what the next kubectl maps kinds with)
apply_crds() {
  local crds
  crds=$(kc apply -k deploy/k8s/crds -o name)
  kc wait --for condition=established --timeout=60s $crds > /dev/null
  for _ in $(seq 30); do
    kc api-resources --api-group spire.spiffe.io -o name 2>/dev/null | grep -qx clusterspiffeids.spire.spiffe.io && return 0
    sleep 1
  done
  fail "the ClusterSPIFFEID CRD is established but not in discovery after 30 s"
}

# a: apply to the empty cluster in one command, exit 0, every object created
check_apply_empty() {
  local out=$work/cluster-$1/apply.out
  apply_k8s > "$out" 2>&1 || { cat "$out"; fail "cluster $1: kubectl apply -k deploy/k8s on the empty cluster exited non-zero"; }
  local created n_objects
  created=$(grep -c ' created$' "$out" || true)
  n_objects=$(kubectl kustomize deploy/k8s | grep -c '^kind: ')
  [ "$created" -eq "$n_objects" ] || { cat "$out"; fail "cluster $1: $created objects created, expected $n_objects"; }
  ! kubectl kustomize deploy/k8s | grep -q -E '^kind: (CustomResourceDefinition|ClusterSPIFFEID)$' \
    || fail "cluster $1: the base holds a custom resource or a CRD"
  ok "cluster $1: kubectl apply -k deploy/k8s on the empty cluster: exit 0, all $created objects created, no custom resource"
}

# b: re-applying changes nothing: every object `unchanged` ($1: what was applied)
check_unchanged() {
  local out=$cluster_dir/reapply.out
  apply_k8s "$@" > "$out" 2>&1 || { cat "$out"; fail "re-apply of ${1:-deploy/k8s} exited non-zero"; }
  local changed
  changed=$(grep -E '^[a-z.]+/[^ ]+ ' "$out" | grep -v -E ' (unchanged|condition met)$' || true)
  [ -z "$changed" ] || { echo "$changed"; fail "re-apply of ${1:-deploy/k8s} changed objects (expected all unchanged)"; }
  ok "re-apply of ${1:-deploy/k8s}: all $(grep -c ' unchanged$' "$out") objects unchanged, none configured"
}

# c: every overlay over the one before (server-side dry-run first), then the base again
check_overlays() {
  local dir name out
  for dir in deploy/k8s/overlays/*/; do
    dir=${dir%/}; name=$(basename "$dir")
    if [ "$name" = spire-controller-manager ]; then
      apply_crds
      ok "overlay $name: its CRD (kubectl apply -k deploy/k8s/crds) established first"
    fi
    out=$cluster_dir/dry-run-$name.out
    kc apply --dry-run=server -k "$dir" > "$out" 2>&1 || { cat "$out"; fail "overlay $name: server-side dry-run failed"; }
    ok "overlay $name: kubectl apply --dry-run=server -k $dir: exit 0 ($(grep -c 'server dry run' "$out") objects)"
    out=$cluster_dir/apply-$name.out
    apply_k8s "$name" > "$out" 2>&1 || { cat "$out"; fail "overlay $name: kubectl apply -k $dir over the previous one failed"; }
    ok "overlay $name: kubectl apply -k $dir over the previous: exit 0 ($(grep -c ' configured$' "$out") configured, $(grep -c ' created$' "$out") created)"
    check_overlay_effect "$name"
  done
  apply_k8s > "$cluster_dir/apply-base-again.out" 2>&1 || { cat "$cluster_dir/apply-base-again.out"; fail "the base over the last overlay failed"; }
  [ "$(kc -n spiffeidt get svc subject-wl -o jsonpath='{.spec.type}')" = ClusterIP ] || fail "base again: subject-wl is not ClusterIP"
  [ "$(kc -n spire-system get sts spire-server -o jsonpath='{.spec.template.spec.containers[*].name}')" = "spire-server spire-registrar" ] \
    || fail "base again: the server pod's containers are not spire-server + spire-registrar"
  ok "the base again over the last overlay: exit 0 (spire-registrar back in the server pod)"
}
settings_of() { # the pooling profile the Deployment $1 reads (through the generated ConfigMap's hashed name)
  local cm
  cm=$(kc -n spiffeidt get deploy "$1" -o jsonpath='{.spec.template.spec.containers[0].env[?(@.name=="SPIFFEIDT_POOLING_PROFILE")].valueFrom.configMapKeyRef.name}')
  kc -n spiffeidt get configmap "$cm" -o jsonpath='{.data.pooling-profile}'
}
check_overlay_effect() {
  local cm interval
  case $1 in
    minikube)
      [ "$(kc -n spiffeidt get svc subject-wl -o jsonpath='{.spec.type}')" = NodePort ] || fail "minikube: subject-wl is not NodePort"
      [ "$(kc -n spiffeidt get deploy subject-wl -o jsonpath='{.spec.template.spec.containers[0].imagePullPolicy}')" = Never ] || fail "minikube: imagePullPolicy is not Never"
      ok "overlay minikube: subject-wl NodePort, workloads imagePullPolicy Never, DVID-key Job as in the base" ;;
    thesis|pooled|non-pooled|fresh-source)
      for d in subject-wl asserting-wl m-tier target-wl; do
        [ "$(settings_of $d)" = "$1" ] || fail "overlay $1: $d reads pooling profile '$(settings_of $d)'"
      done
      ok "overlay $1: the four workloads read pooling-profile=$1" ;;
    thesis-scrape)
      cm=$(kc -n spiffeidt get deploy prometheus -o jsonpath='{.spec.template.spec.volumes[?(@.name=="config")].configMap.name}')
      interval=$(kc -n spiffeidt get configmap "$cm" -o jsonpath='{.data.prometheus\.yml}' | sed -n 's/^  scrape_interval: //p')
      [ "$interval" = 100ms ] || fail "thesis-scrape: Prometheus scrapes every '$interval'"
      ok "overlay thesis-scrape: Prometheus ($cm) scrapes every 100ms" ;;
    spire-controller-manager)
      [ "$(kc get clusterspiffeids -o name | wc -l)" -eq 4 ] || fail "spire-controller-manager: not 4 ClusterSPIFFEIDs"
      [ "$(kc -n spire-system get sts spire-server -o jsonpath='{.spec.template.spec.containers[*].name}')" = "spire-server spire-controller-manager" ] \
        || fail "spire-controller-manager: the server pod's containers are not spire-server + spire-controller-manager"
      ok "overlay spire-controller-manager: 4 ClusterSPIFFEIDs accepted by their CRD, the manager in place of spire-registrar" ;;
    *) ok "overlay $1: no specific check" ;;
  esac
}

# d: RBAC, through impersonation of each service account (kubectl auth can-i --as)
can() { # can yes|no NS:SA VERB RESOURCE [can-i args...]
  local want=$1 sa=$2; shift 2
  local got
  got=$(kc auth can-i "$@" --as "system:serviceaccount:$sa" 2>/dev/null || true)
  got=${got%% *}
  [ "$got" = "$want" ] || fail "RBAC: $sa may '$*': $got, expected $want"
  printf '   ok: %-3s %-27s %s\n' "$want" "$sa" "$*"
}
rules_beyond_baseline() { # the rules of --list for $1 in namespace $2 that a service account without bindings lacks
  local rules
  rules() { kc auth can-i --list -n "$2" --as "system:serviceaccount:$1" | tail -n +2 | tr -s ' ' | sed 's/ $//' | sort; }
  { diff <(rules "$2:k8s-it-unbound" "$2") <(rules "$1" "$2") || true; } | sed -n 's/^> //p'
}
check_rbac() {
  local job=spiffeidt:dvid-key-init srv=spire-system:spire-server ag=spire-system:spire-agent
  log "RBAC: the DVID-key Job's service account ($job): its one Secret, nothing else"
  can yes $job create secrets -n spiffeidt
  can yes $job get secrets/asserting-wl-dvid-key -n spiffeidt
  can no  $job get secrets/postgres -n spiffeidt
  can no  $job list secrets -n spiffeidt
  can no  $job watch secrets -n spiffeidt
  can no  $job delete secrets/asserting-wl-dvid-key -n spiffeidt
  can no  $job update secrets/asserting-wl-dvid-key -n spiffeidt
  can no  $job patch secrets/asserting-wl-dvid-key -n spiffeidt
  can no  $job create secrets -n spire-system
  can no  $job create secrets -n default
  can no  $job get configmaps -n spiffeidt
  can no  $job create pods -n spiffeidt
  can no  $job create serviceaccounts/token -n spiffeidt
  local extra expected
  extra=$(rules_beyond_baseline $job spiffeidt)
  expected=$(printf 'secrets [] [] [create]\nsecrets [] [asserting-wl-dvid-key] [get]')
  [ "$extra" = "$expected" ] || { echo "$extra"; fail "RBAC: $job has other rules than create secrets + get asserting-wl-dvid-key"; }
  ok "kubectl auth can-i --list: beyond what every service account may, exactly 'create secrets' and 'get secrets/asserting-wl-dvid-key'"
  check_job_token

  local w wl
  for w in subject-wl asserting-wl m-tier target-wl; do
    wl=spiffeidt:$w
    log "RBAC: the workload's service account ($wl, token not mounted): nothing beyond an unbound account"
    can no  $wl get secrets/asserting-wl-dvid-key -n spiffeidt
    can no  $wl get secrets/postgres -n spiffeidt
    can no  $wl list secrets -n spiffeidt
    can no  $wl get configmaps -n spiffeidt
    can no  $wl list pods -n spiffeidt
    can no  $wl list clusterspiffeids.spire.spiffe.io
    [ -z "$(rules_beyond_baseline $wl spiffeidt)" ] || fail "RBAC: $wl has rules beyond an unbound service account"
    ok "kubectl auth can-i --list: $wl has no rule beyond an unbound service account"
  done
  local d sa mount
  for d in subject-wl asserting-wl m-tier target-wl; do
    sa=$(kc -n spiffeidt get deploy $d -o jsonpath='{.spec.template.spec.serviceAccountName}')
    mount=$(kc -n spiffeidt get deploy $d -o jsonpath='{.spec.template.spec.automountServiceAccountToken}')
    [ "$sa" = "$d" ] && [ "$mount" = false ] || fail "$d: service account '$sa', automount '$mount'"
  done
  ok "the four workload Deployments: each its own service account (the SPIRE entry's k8s:sa selector), automountServiceAccountToken false"

  log "RBAC: SPIRE server and its controller manager (one pod, $srv)"
  can yes $srv create tokenreviews.authentication.k8s.io
  can yes $srv get nodes
  can yes $srv get pods -n spiffeidt
  can yes $srv list pods -A
  can yes $srv watch nodes
  can yes $srv list namespaces
  can yes $srv list endpoints -A
  can yes $srv list clusterspiffeids.spire.spiffe.io
  can yes $srv patch clusterspiffeids.spire.spiffe.io
  can yes $srv update clusterspiffeids.spire.spiffe.io --subresource status
  can yes $srv update clusterspiffeids.spire.spiffe.io --subresource finalizers
  can yes $srv get configmaps/spire-bundle -n spire-system
  can yes $srv patch configmaps/spire-bundle -n spire-system
  can yes $srv create leases.coordination.k8s.io -n spire-system
  can yes $srv create events -n spire-system
  can no  $srv create clusterspiffeids.spire.spiffe.io
  can no  $srv delete clusterspiffeids.spire.spiffe.io
  can no  $srv patch configmaps/spire-server -n spire-system
  can no  $srv get configmaps -n spiffeidt
  can no  $srv get secrets -n spire-system
  can no  $srv list secrets -A
  can no  $srv create leases.coordination.k8s.io -n spiffeidt
  can no  $srv create pods -n spire-system
  can no  $srv delete pods -n spiffeidt

  log "RBAC: SPIRE agent ($ag)"
  can yes $ag get pods -n spiffeidt
  can yes $ag get nodes
  can yes $ag get nodes/proxy
  can no  $ag list pods -A
  can no  $ag get secrets -n spire-system
  can no  $ag get configmaps -n spire-system
  can no  $ag create tokenreviews.authentication.k8s.io
  can no  $ag list clusterspiffeids.spire.spiffe.io
}

# the Job's service account for real: a token of it (not impersonation) makes the Secret the Job
# would make, reads it, and is refused the rest
check_job_token() {
  local token
  token=$(kc -n spiffeidt create token dvid-key-init --duration 10m)
  as_job() { kubectl --cache-dir "$cluster_dir/kube-cache" --server "$(kubectl config view -o jsonpath='{.clusters[0].cluster.server}')" \
    --certificate-authority "$pki/ca.crt" --token "$token" --kubeconfig /dev/null -n spiffeidt "$@"; }
  [ "$(as_job auth whoami -o jsonpath='{.status.userInfo.username}')" = system:serviceaccount:spiffeidt:dvid-key-init ] \
    || fail "a token of dvid-key-init does not authenticate as it"
  as_job create secret generic asserting-wl-dvid-key --from-literal=dvid-key.pem=k8s-it >/dev/null \
    || fail "dvid-key-init's token cannot create the Secret asserting-wl-dvid-key"
  as_job get secret asserting-wl-dvid-key -o name >/dev/null || fail "dvid-key-init's token cannot read its Secret"
  as_job get secrets >/dev/null 2>&1 && fail "dvid-key-init's token may list Secrets"
  as_job get secret postgres >/dev/null 2>&1 && fail "dvid-key-init's token may read the Secret postgres"
  as_job delete secret asserting-wl-dvid-key >/dev/null 2>&1 && fail "dvid-key-init's token may delete its Secret"
  as_job create secret generic asserting-wl-dvid-key --from-literal=dvid-key.pem=x >/dev/null 2>&1 \
    && fail "dvid-key-init's token may overwrite its Secret"
  ok "a real token of dvid-key-init (kubectl create token): creates and reads asserting-wl-dvid-key; list, read postgres, delete: Forbidden"
}

for i in $(seq "$clusters"); do
  start_cluster "$i"
  log "cluster $i: a. kubectl apply -k deploy/k8s on the empty cluster"
  check_apply_empty "$i"
  log "cluster $i: b. re-apply"
  check_unchanged
  if [ "$i" = 1 ]; then
    log "cluster $i: c. every overlay applied over the one before"
    check_overlays
    check_unchanged
    log "cluster $i: d. RBAC"
    check_rbac
  fi
  stop_cluster
  log "cluster $i: stopped (etcd and kube-apiserver by PID)"
done
log "PASSED: $clusters fresh clusters, the base in one command each, re-apply unchanged, $(ls -d deploy/k8s/overlays/*/ | wc -l) overlays applied over each other and dry-run, RBAC ($(( $(date +%s) - started ))s)"
