# Real SPIRE on loopback and one `java -jar` process per component, each under its own system user
# (sourced, not run; deploy/spire-it and deploy/rotation-load use it). Needs root, useradd, setpriv, curl.
#
# The caller sets, before sourcing:
#   work       the run's directory (mode 755)        SPIRE_BIN  the directory of spire-server, spire-agent
#   td         the trust domain                      svid_ttl   the workloads' X.509-SVID TTL in seconds
#   version    the project's version                 pids       an array; every process started is appended
# and defines `log MESSAGE` and `fail MESSAGE` (which exits); optionally
#   spire_keys       `memory` (default) or `disk`: where server and agent keep their keys; with `disk` both
#                    can be stopped and started again (spire_server_run, spire_agent_run without a token)
#   spire_agent_ttl  the agent's own SVID TTL (SPIRE's default when unset)
#   spire_start NAME        SPIRE server (sqlite, join token) and agent (unix workload attestor), one system
#                           user `spiffeidt-<wl>` and one registration entry by uid per workload; NAME ends
#                           the agent's SPIFFE ID. Sets server_port, agent_id, uid[wl], socket (the Workload
#                           API socket), spire_server_pid, spire_agent_pid.
#   spire_server_run        starts the configured SPIRE server (again) and waits until it is healthy
#   spire_agent_run [TOKEN] starts the configured agent (again; only the first start needs the join token)
#   workloads_start ARGS... copies the exec jars into $work/jars and starts the IdP and the four workloads on
#                           free loopback ports, each as its own user, with the JVM options of the array
#                           java_opts (default: C1 only, 512k stacks) and ARGS after the common arguments;
#                           extra[wl] (an associative array, one argument per line) adds arguments to one
#                           workload. Waits until each answers, and checks each runs as its SPIFFE ID. Sets
#                           idp_port, port[wl], mport[wl] (management); logs in $work/<name>.log.
#   free_port               a free TCP port on 127.0.0.1
#   updates WL              how many X509Context updates (new SVIDs) WL logged so far
#   serial WL               serial and expiry of the X.509-SVID WL presents on its mTLS port

spire_workloads=(subject-wl asserting-wl m-tier target-wl)
declare -A uid port mport extra
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
updates() { grep -c "Received X509Context update" "$work/$1.log" || true; }
serial() {
  { openssl s_client -connect "127.0.0.1:${port[$1]}" </dev/null 2>/dev/null || true; } \
    | { openssl x509 -noout -serial -enddate 2>/dev/null || true; } | tr '\n' ' '
}

spire_start() {
  local name=$1 token wl user server_keys agent_keys agent_ttl=""
  [ -z "${spire_agent_ttl:-}" ] || agent_ttl="agent_ttl = \"$spire_agent_ttl\""
  if [ "${spire_keys:-memory}" = disk ]; then
    server_keys="KeyManager \"disk\" {
    plugin_data {
      keys_path = \"$work/server/keys.json\"
    }
  }"
    agent_keys="KeyManager \"disk\" {
    plugin_data {
      directory = \"$work/agent/data\"
    }
  }"
  else
    server_keys='KeyManager "memory" {
    plugin_data {}
  }'
    agent_keys=$server_keys
  fi
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
  $agent_ttl
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
  $server_keys
}
CONF
  spire_server_run
  agent_id=spiffe://$td/agent/$name
  token=$("$SPIRE_BIN/spire-server" token generate -socketPath "$work/server/api.sock" -spiffeID "$agent_id" -ttl 600 \
    | sed -n 's/^Token: //p')
  [ -n "$token" ] || fail "no join token"
  for wl in "${spire_workloads[@]}"; do
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
  $agent_keys
  WorkloadAttestor "unix" {
    plugin_data {}
  }
}
CONF
  socket=$work/agent/public/api.sock
  spire_agent_run "$token"
  log "SPIRE agent attested (join token), Workload API at $socket"
}

spire_server_run() { _spire_run server "$work/server/api.sock"; }

spire_agent_run() { # [JOIN_TOKEN]: a restart without one reuses the agent's SVID kept in its data_dir (disk keys)
  _spire_run agent "$work/agent/public/api.sock" ${1:+-joinToken "$1"}
}

_spire_run() { # server|agent SOCKET [ARGS...]: starts it (its log grows across restarts), waits until healthy
  local part=$1 sock=$2
  shift 2
  "$SPIRE_BIN/spire-$part" run -config "$work/$part/$part.conf" "$@" >> "$work/spire-$part.log" 2>&1 &
  printf -v "spire_${part}_pid" %s "$!"
  pids+=("$!")
  for _ in $(seq 60); do
    "$SPIRE_BIN/spire-$part" healthcheck -socketPath "$sock" >/dev/null 2>&1 && return 0
    sleep 1
  done
  tail -20 "$work/spire-$part.log" >&2
  fail "SPIRE $part not healthy"
}

workloads_start() {
  local m wl more
  # the jars are copied where every workload user can read them: the clone itself may sit in a
  # directory only its owner can enter (a mktemp -d, a home directory)
  mkdir -p "$work/jars"
  for m in idp "${spire_workloads[@]}"; do
    [ -f "$m/target/$m-$version-exec.jar" ] || fail "$m/target/$m-$version-exec.jar missing (./mvnw package -DskipTests)"
    cp "$m/target/$m-$version-exec.jar" "$work/jars/"
  done
  chmod 755 "$work/jars"
  chmod 644 "$work"/jars/*.jar
  if [ -z "${java_opts+x}" ]; then java_opts=(-XX:TieredStopAtLevel=1 -Xss512k); fi
  idp_port=$(free_port)
  for wl in "${spire_workloads[@]}"; do port[$wl]=$(free_port); mport[$wl]=$(free_port); done
  _run_as spiffeidt-idp idp -jar "$work/jars/idp-$version-exec.jar" --server.port="$idp_port" \
    --server.address=127.0.0.1 --spiffeidt.idp.issuer="http://127.0.0.1:$idp_port"
  for wl in asserting-wl target-wl m-tier subject-wl; do
    more=()
    if [ -n "${extra[$wl]:-}" ]; then mapfile -t more <<< "${extra[$wl]}"; fi
    _run_as "spiffeidt-$wl" "$wl" -jar "$work/jars/$wl-$version-exec.jar" \
      --server.port="${port[$wl]}" --server.address=127.0.0.1 \
      --management.server.port="${mport[$wl]}" --management.server.address=127.0.0.1 \
      --spiffeidt.workload-api.socket="unix:$socket" \
      --spiffeidt.oauth.issuers[0].issuer="http://127.0.0.1:$idp_port" \
      --spiffeidt.oauth.issuers[0].audience=spiffeidt \
      --spiffeidt.endpoints.asserting-wl="https://127.0.0.1:${port[asserting-wl]}" \
      --spiffeidt.endpoints.target-wl="https://127.0.0.1:${port[target-wl]}" \
      --spiffeidt.endpoints.m-tier="https://127.0.0.1:${port[m-tier]}" \
      "$@" ${more[@]+"${more[@]}"}
  done
  _wait_up "http://127.0.0.1:$idp_port/.well-known/openid-configuration" idp
  for wl in asserting-wl target-wl m-tier subject-wl; do _wait_up "http://127.0.0.1:${mport[$wl]}/actuator/health" "$wl"; done
  for wl in "${spire_workloads[@]}"; do
    grep -q "runs as spiffe://$td/$wl" "$work/$wl.log" || fail "$wl did not get spiffe://$td/$wl"
  done
}

_run_as() { # USER NAME ARGS...
  local user=$1 name=$2
  shift 2
  (cd "$work" && exec setpriv --reuid="$user" --regid="$user" --clear-groups -- java ${java_opts[@]+"${java_opts[@]}"} "$@") \
    > "$work/$name.log" 2>&1 &
  pids+=($!)
}

_wait_up() { # URL NAME
  for _ in $(seq 240); do curl -sf --max-time 2 "$1" >/dev/null && return 0; sleep 1; done
  fail "$2 did not start"
}
