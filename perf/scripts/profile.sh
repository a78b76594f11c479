#!/usr/bin/env bash
# Where the CPU of a mode's `balance` goes, on the embedded stack: async-profiler (from Maven Central,
# tools.profiler:async-profiler) attached to the running stack, CPU samples (ctimer, 1 ms) while wrk keeps C
# (16) connections busy with USERS (20) users' requests. Per run a freshly started stack; every mode of
# MODES warmed WARM seconds in turn (the JIT of the shared paths, as the closed loop does), then per mode of
# PROFILE_MODES 10 s more and DURATION seconds profiled. Writes, per profiled mode, OUT/<mode>.collapsed
# (stacks, one line each, the format of flame-graph tools), OUT/<mode>.wrk, and a line in OUT/summary:
# requests/s, the JVM's CPU ms per request (profiler included) and the load average.
#
#   ./mvnw install -DskipTests && perf/scripts/profile.sh
#   OUT=/tmp/after PROFILE_MODES="mtls-only txn-token" perf/scripts/profile.sh
#   perf/scripts/profile-compare.py mtls-only /tmp/before /tmp/after    (samples per 1,000 requests, per frame)
#
# Two builds compared: profile each (a worktree at the other commit with its own Maven repository), then the
# comparison; a frame's samples per request, not its share, is what compares across runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
C=${C:-16}
USERS=${USERS:-20}
WARM=${WARM:-15}
SECS=${DURATION:-30}
MODES=${MODES:-dvid id-mode anon-mode lsvid txn-token mtls-only bearer-forward wimse}
PROFILE_MODES=${PROFILE_MODES:-$MODES}
OUT=${OUT:-perf/target/profile}
export PROFILE=${PROFILE:-pooled} MEMO=${MEMO:-true}
command -v wrk > /dev/null || { echo "profile: wrk missing (apt-get install wrk)" >&2; exit 1; }
jcmd=${JAVA_HOME:+$JAVA_HOME/bin/}jcmd
ap_version=4.1
ap_jar=$(./mvnw -q -B help:evaluate -Dexpression=settings.localRepository -DforceStdout)/tools/profiler/async-profiler/$ap_version/async-profiler-$ap_version.jar
[ -f "$ap_jar" ] || ./mvnw -q -B dependency:get -Dartifact=tools.profiler:async-profiler:$ap_version > /dev/null
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# shellcheck source=lib/devstack.sh
source perf/scripts/lib/devstack.sh
work=$(mktemp -d /tmp/spiffeidt-profile.XXXXXX)
trap 'devstack_stop; rm -rf "$work"' EXIT
(cd "$work" && unzip -q "$ap_jar" 'linux-x64/*')
lib=$work/linux-x64/libasyncProfiler.so
cat > "$work/post.lua" << 'LUA'
local tokens = {}
for t in string.gmatch(os.getenv("WRK_TOKENS"), "[^ ]+") do tokens[#tokens + 1] = t end
local turn = 0
request = function()
  turn = turn % #tokens + 1
  return wrk.format("POST", nil, { ["Authorization"] = "Bearer " .. tokens[turn] })
end
LUA
echo "profile: $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), load before $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/summary"
devstack_start "$work/stack.log" -XX:+UseParallelGC
WRK_TOKENS=""
for u in $(seq "$USERS"); do
  token=$(devstack_token "$(printf 'user%04d' "$u")")
  WRK_TOKENS+="$token "
  for mode in $MODES; do
    curl -sf -o /dev/null --max-time 60 -X POST -H "Authorization: Bearer $token" "$sub_url/api/$mode/mint"
  done
done
export WRK_TOKENS
for mode in $MODES; do
  wrk -t2 -c"$C" -d"${WARM}s" -s "$work/post.lua" "$sub_url/api/$mode/balance" > /dev/null
done
for mode in $PROFILE_MODES; do
  url=$sub_url/api/$mode/balance
  wrk -t2 -c"$C" -d10s -s "$work/post.lua" "$url" > /dev/null
  # the agent's options in escaped quotes, or jcmd splits them at '='
  "$jcmd" "$devstack_pid" JVMTI.agent_load "$lib" '"start,event=ctimer,interval=1ms"' > /dev/null
  cpu0=$(awk '{print $14 + $15}' "/proc/$devstack_pid/stat")
  wrk -t2 -c"$C" -d"${SECS}s" -s "$work/post.lua" "$url" > "$OUT/$mode.wrk"
  cpu1=$(awk '{print $14 + $15}' "/proc/$devstack_pid/stat")
  "$jcmd" "$devstack_pid" JVMTI.agent_load "$lib" "\"stop,collapsed,file=$OUT/$mode.collapsed\"" > /dev/null
  n=$(awk '/requests in/ {print $1}' "$OUT/$mode.wrk")
  rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$OUT/$mode.wrk")
  echo "$mode: $rps req/s, $(awk -v c=$((cpu1 - cpu0)) -v n="$n" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.3f", c * 1000 / hz / n}') CPU ms/request, load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/summary"
done
