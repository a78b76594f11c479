#!/usr/bin/env bash
# Applies deploy/k8s, or one of its overlays, in the order that works on an EMPTY cluster every time:
#   1. the CRDs alone (deploy/k8s/crds);
#   2. wait until the API server has established them and serves their kinds;
#   3. the whole kustomization (CRDs included, now unchanged).
# One `kubectl apply -k deploy/k8s` cannot do this: kubectl maps every object's kind to a resource
# before it sends the first one, so on an empty cluster the ClusterSPIFFEIDs fail with "no matches for
# kind ClusterSPIFFEID ... ensure CRDs are installed first" (whether a retry sees the CRD in time is
# a race). On a cluster that has the CRD already, step 3 alone is what runs.
#
#   deploy/k8s/apply.sh                        # the base (deploy/k8s)
#   deploy/k8s/apply.sh pooled                 # an overlay by name (deploy/k8s/overlays/pooled)
#   deploy/k8s/apply.sh path/to/kustomization  # any kustomization that includes deploy/k8s/base
#   deploy/k8s/apply.sh minikube --context minikube   # further arguments go to every kubectl call
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
target=$here
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
  if [ -d "$here/overlays/$1" ]; then target=$here/overlays/$1; else target=$1; fi
  shift
fi
[ -f "$target/kustomization.yaml" ] || { echo "apply.sh: no kustomization.yaml in $target" >&2; exit 2; }

crds=$(kubectl "$@" apply -k "$here/crds" -o name)
kubectl "$@" wait --for condition=established --timeout=60s $crds
# Established means the API server serves the kind; wait (bounded) until discovery lists it too,
# since that is what the next kubectl maps the objects' kinds with
for _ in $(seq 30); do
  missing=0
  for crd in $crds; do
    plural_group=${crd#*/}                     # clusterspiffeids.spire.spiffe.io
    kubectl "$@" api-resources --api-group "${plural_group#*.}" -o name 2>/dev/null \
      | grep -qx "$plural_group" || missing=1
  done
  [ "$missing" = 0 ] && break
  sleep 1
done
[ "$missing" = 0 ] || { echo "apply.sh: the CRDs are established but not in discovery after 30 s" >&2; exit 1; }
kubectl "$@" apply -k "$target"
