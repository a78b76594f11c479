# A Docker engine with the Compose plugin for the deployment ITs (sourced, not run). The caller defines `log`
# and `skip` and sets `work` (a scratch directory).
#   docker_engine_up     uses the engine that answers, or starts dockerd (its pid in dockerd_pid); skips when
#                        there is no client, no engine or no Compose plugin (DOCKER_CONFIG names a directory
#                        with cli-plugins/docker-compose)
#   docker_engine_down   stops the dockerd that docker_engine_up started, if any
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
