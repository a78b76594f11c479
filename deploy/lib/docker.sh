# A Docker engine with the Compose plugin for the deployment ITs (sourced, not run). The caller defines `log`,
# `skip` and `fail` and sets `work` (a scratch directory) and `compose` (the docker compose command, an array).
#   docker_engine_up     uses the engine that answers, or starts dockerd (its pid in dockerd_pid); skips when
#                        there is no client, no engine or no Compose plugin (DOCKER_CONFIG names a directory
#                        with cli-plugins/docker-compose)
#   docker_engine_down   stops the dockerd that docker_engine_up started, if any
#   compose_up SECONDS   checks that the ports the deployment publishes are free, sets up=1 (for the caller's
#                        clean-up), runs `up -d --wait` (at most SECONDS) and logs how long it took
dockerd_pid=""

docker_engine_up() {
  command -v docker > /dev/null || skip "no docker client (apt-get install docker.io)"
  if ! docker info > /dev/null 2>&1; then
    command -v dockerd > /dev/null || skip "no Docker engine (apt-get install docker.io)"
    dockerd > "$work/dockerd.log" 2>&1 &
    dockerd_pid=$!
    for _ in $(seq 1 60); do docker info > /dev/null 2>&1 && break; sleep 1; done
    docker info > /dev/null 2>&1 || { tail -20 "$work/dockerd.log"; skip "dockerd did not start"; }
    log "dockerd started (pid $dockerd_pid), engine $(docker version -f '{{.Server.Version}}')"
  else
    log "using the running Docker engine $(docker version -f '{{.Server.Version}}')"
  fi
  docker compose version > /dev/null 2>&1 || skip "no docker compose plugin (set DOCKER_CONFIG to a directory with cli-plugins/docker-compose)"
  log "$(docker compose version)"
}

docker_engine_down() {
  [ -n "$dockerd_pid" ] || return 0
  kill "$dockerd_pid" 2> /dev/null || true
  for _ in $(seq 1 30); do kill -0 "$dockerd_pid" 2> /dev/null || break; sleep 1; done
  log "dockerd ($dockerd_pid) stopped"
  dockerd_pid=""
}

compose_up() {
  # a devstack or another stack on these ports would answer instead of the deployment
  local p t0
  for p in 8080 9000 9090 9411 18080 18443 18444 18445; do
    ! (exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null || fail "port $p is in use on this machine"
  done
  up=1
  t0=$(date +%s)
  "${compose[@]}" up -d --wait --wait-timeout "$1" > "$work/up.log" 2>&1 || { tail -30 "$work/up.log"; fail "${compose[*]} up -d --wait"; }
  log "docker compose up --wait: every service healthy after $(($(date +%s) - t0)) s"
}
