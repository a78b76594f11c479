# The embedded stack (io.spiffeidt.devstack.DevStackMain: the IdP, the development Workload API and the
# four workloads in one JVM) for the measurement scripts. Sourced from the repository's root, not run.
#
#   devstack_start LOG [JVM option...]   starts it on free ports and waits for "devstack is up" (180 s);
#                                        sets devstack_pid, devstack_port[<component>], sub_url, idp_url and
#                                        devstack_start_ns (when `java` was started)
#   devstack_stop                        stops it (and forgets the pid)
#   devstack_token [USER]                a development user's access token (default user0001)
#   free_port                            a free TCP port on 127.0.0.1
#
# Settings: PROFILE (pooling profile, default pooled), MEMO (spiffeidt.memo.enabled, default true),
# DEVSTACK_ARGS (more application arguments, word-split), JAVA_HOME (the JDK, as for ./mvnw).

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

devstack_pid=""
declare -A devstack_port=()

# the class path, resolved once per script run (any module's POM may have changed since the last)
devstack_cp=""
devstack_classpath() {
  if [ -z "$devstack_cp" ]; then
    local cp_file=devstack/target/e2e-classpath.txt
    ./mvnw -q -B -pl devstack dependency:build-classpath -Dmdep.outputFile="$(pwd)/$cp_file" > /dev/null
    # devstack's own classes as a jar, not a directory: a class-data-sharing archive or an AOT cache can only
    # be written for a class path of jars ("Cannot have non-empty directory in paths"). Made anew each script
    # run, so an archive is only good within the run that trained it.
    local jar=devstack/target/devstack-classes.jar
    rm -f "$jar"
    "${JAVA_HOME:+$JAVA_HOME/bin/}jar" cf "$jar" -C devstack/target/classes .
    devstack_cp="$jar:$(cat "$cp_file")"
  fi
}

devstack_start() {
  local log=$1 c
  shift
  devstack_classpath
  local args=()
  for c in subject-wl asserting-wl m-tier target-wl idp; do
    devstack_port[$c]=$(free_port)
    args+=("--spiffeidt.devstack.ports.$c=${devstack_port[$c]}")
  done
  for c in subject-wl asserting-wl m-tier target-wl; do
    args+=("--spiffeidt.devstack.ports.$c.management=0")
  done
  devstack_start_ns=$(date +%s%N)
  # shellcheck disable=SC2086
  "${JAVA_HOME:+$JAVA_HOME/bin/}java" "$@" -Xms512m -Xmx1g -Xss512k -cp "$devstack_cp" io.spiffeidt.devstack.DevStackMain \
    "${args[@]}" --spiffeidt.pooling.profile="${PROFILE:-pooled}" --spiffeidt.memo.enabled="${MEMO:-true}" \
    --logging.level.root=WARN ${DEVSTACK_ARGS:-} > "$log" 2>&1 &
  devstack_pid=$!
  local _
  for _ in $(seq 1800); do
    grep -q "SPIFFE-IdT devstack is up" "$log" && break
    kill -0 "$devstack_pid" 2> /dev/null || break
    sleep 0.1
  done
  if ! grep -q "SPIFFE-IdT devstack is up" "$log"; then
    tail -20 "$log" >&2
    echo "the embedded stack did not start (log: $log)" >&2
    devstack_stop
    return 1
  fi
  sub_url=http://127.0.0.1:${devstack_port[subject-wl]}
  idp_url=http://127.0.0.1:${devstack_port[idp]}
}

devstack_stop() {
  [ -n "$devstack_pid" ] || return 0
  kill "$devstack_pid" 2> /dev/null || true
  wait "$devstack_pid" 2> /dev/null || true
  devstack_pid=""
}

devstack_token() {
  curl -sf -d username="${1:-user0001}" -d password=password "$idp_url/dev/token" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}
