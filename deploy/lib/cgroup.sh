# A container's CPU time from its cgroup files (sourced, not run), for the deployment ITs and
# perf/scripts/deployments.sh.
#   container_cpu_ms NAME      CPU time in ms since the container started (cgroup v1 or v2; 0 if unreadable)
container_cpu_ms() {
  local id f
  id=$(docker inspect -f '{{.Id}}' "$1")
  for f in "/sys/fs/cgroup/cpuacct/docker/$id/cpuacct.usage" "/sys/fs/cgroup/cpu,cpuacct/docker/$id/cpuacct.usage"; do
    [ -r "$f" ] && { echo $(($(cat "$f") / 1000000)); return; }
  done
  for f in "/sys/fs/cgroup/system.slice/docker-$id.scope/cpu.stat" "/sys/fs/cgroup/docker/$id/cpu.stat"; do
    [ -r "$f" ] && { echo $(($(awk '$1 == "usage_usec" {print $2}' "$f") / 1000)); return; }
  done
  echo 0
}
