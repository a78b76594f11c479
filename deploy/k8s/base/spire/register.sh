#!/bin/sh
# spire-registrar (a sidecar of the SPIRE server pod): keeps the registration entries of
# registrations.txt in the server, creating only what is missing, so a restart or a re-apply changes
# nothing. First the node alias every agent of the cluster gets (k8s_psat:cluster), then one entry per
# workload under it. Writes /tmp/registrar/registered (the readiness probe) once all exist, then
# checks again every REGISTRAR_INTERVAL seconds (an entry deleted by hand comes back).
set -u
sock=/tmp/spire-server/private/api.sock
td=example.org
cluster=spiffeidt
node_id=spiffe://$td/node/k8s-$cluster
interval=${REGISTRAR_INTERVAL:-60}

# the spire-server CLI: the server container's own binary, run in that container's file system
# (chroot to /proc/PID/root through the shared process namespace), where the admin socket has the
# same path; found again whenever the server container has restarted
server_root=""
server_exe=""
find_cli() {
  for p in /proc/[0-9]*; do
    exe=$(readlink "$p/exe" 2>/dev/null) || continue
    case "$exe" in */spire-server) server_root=$p/root; server_exe=$exe; return 0 ;; esac
  done
  return 1
}
srv() { chroot "$server_root" "$server_exe" "$@" -socketPath "$sock"; }
# exists SPIFFE-ID: an entry with this SPIFFE ID is in the server
exists() { srv entry show -spiffeID "$1" 2>/dev/null | grep -q "^Entry ID"; }

register() {
  { [ -n "$server_root" ] && [ -d "$server_root/" ]; } || find_cli || { echo "spire-registrar: no spire-server process in this pod yet"; return 1; }
  srv healthcheck > /dev/null 2>&1 || { echo "spire-registrar: server not healthy yet"; return 1; }
  made=0
  if ! exists "$node_id"; then
    srv entry create -node -spiffeID "$node_id" -selector "k8s_psat:cluster:$cluster" > /dev/null || return 1
    echo "spire-registrar: created node alias $node_id (k8s_psat:cluster:$cluster)"; made=$((made + 1))
  fi
  while read -r id ns sa; do
    case "$id" in ''|'#'*) continue ;; esac
    exists "$id" && continue
    srv entry create -parentID "$node_id" -spiffeID "$id" -selector "k8s:ns:$ns" -selector "k8s:sa:$sa" \
      -x509SVIDTTL 3600 > /dev/null || return 1
    echo "spire-registrar: created $id (k8s:ns:$ns, k8s:sa:$sa)"; made=$((made + 1))
  done < /etc/spire-registrations/registrations.txt
  [ ! -f /tmp/registrar/registered ] && echo "spire-registrar: every entry present ($made created)"
  touch /tmp/registrar/registered
}

while true; do
  register || server_root=""   # the server container may have restarted: find its process again
  sleep "$( [ -f /tmp/registrar/registered ] && echo "$interval" || echo 2 )"
done
