#!/usr/bin/env bash
# A workload's first minute: per variant and mode, a freshly started embedded stack (its own JVM,
# normally optimising JIT, the heap of the Gatling run), the time from `java` to "devstack is up" and to the
# first answered `balance`, then the latency of the first REQUESTS (1,000) sequential `balance` calls over
# one kept-alive connection, p50 per 100; then STEADY_SECONDS (60) of back-to-back load and 200 more calls,
# whose p50 is the steady state the first 1,000 are compared with (goal: every bucket within 2 x steady).
# Writes perf/target/first-minute/<variant>-<mode>.csv (one latency per request), summary.md and
# first-minute.svg (p50 per 100 requests against the request count, one line per variant and mode).
#
# Variants (JVM options of the stack; the JDK is $JAVA_HOME's, as for ./mvnw):
#   default   no option
#   cds       a class-data-sharing archive of the classes a training run loaded (the stack started, per mode
#             one mint, 20 balance calls and TRAIN_SECONDS (20) of wrk load, stopped; -XX:DumpLoadedClassList,
#             then -Xshare:dump), then -Xshare:on -XX:SharedArchiveFile (the JVM fails rather than run without)
#   aot       JDK 25+: the AOT cache (JEP 483/514/515: classes loaded and linked, and the training's method
#             profiles): -XX:AOTCacheOutput in the same training run, then -XX:AOTMode=on -XX:AOTCache
#   tiered    -XX:TieredStopAtLevel=1 (C1 only: faster warm-up, slower peak; for comparison)
#
#   perf/scripts/first-minute.sh [variant...]                 (default: default cds; after ./mvnw install)
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 perf/scripts/first-minute.sh default aot
#   REQUESTS=1000 STEADY_SECONDS=60 TRAIN_SECONDS=20 MODES="dvid id-mode anon-mode lsvid" perf/scripts/first-minute.sh
#   WARMUP=mtls-only:3000 perf/scripts/first-minute.sh default   (before each mode's measured calls, 3,000
#             unmeasured sequential mtls-only calls: the HTTP path through every tier warmed, no document;
#             "first answer" is then the first measured call)
# Measure on a quiet machine; the script prints the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/../.."
REQUESTS=${REQUESTS:-1000}
STEADY_SECONDS=${STEADY_SECONDS:-60}
MODES=${MODES:-dvid id-mode anon-mode lsvid}
PROFILE=${PROFILE:-pooled}
TRAIN_SECONDS=${TRAIN_SECONDS:-20}
WARMUP=${WARMUP:-}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jdk=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.version = //p')
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(default cds)
out=perf/target/first-minute
mkdir -p "$out"
# shellcheck source=lib/devstack.sh
source perf/scripts/lib/devstack.sh
export PROFILE
command -v wrk > /dev/null || { echo "first-minute: wrk missing (apt-get install wrk)" >&2; exit 1; }
devstack_classpath # here, not in the subshell of options_for: the jar it makes must not change after training
log=$(mktemp)
start_stack() { # $@: extra JVM options; sets sub, idp, up_ms, start_ns
  devstack_start "$log" "$@" || exit 1
  up_ms=$(( ($(date +%s%N) - devstack_start_ns) / 1000000 ))
  start_ns=$devstack_start_ns
  sub=${devstack_port[subject-wl]} idp=${devstack_port[idp]}
}
stop_stack() { devstack_stop; }
trap 'devstack_stop; rm -f "$log"' EXIT
token() { devstack_token; }

# a training run for cds/aot: the paths every mode takes (a mint, 20 calls, then TRAIN_SECONDS of load with wrk:
# JDK 25's AOT cache keeps the method profiles the training gathered, JEP 515), then a clean exit, when the
# archive is written. A run trains anew: the archive names the class path's jars, made anew each run.
train() { # $1: JVM option that writes the archive, $2: the archive
  rm -f "$2"
  start_stack "$1"
  local tok; tok=$(token)
  local lua; lua=$(mktemp --suffix=.lua)
  printf 'wrk.method = "POST"\nwrk.headers["Authorization"] = "Bearer %s"\n' "$tok" > "$lua"
  for mode in $MODES; do
    curl -sf -o /dev/null -X POST -H "Authorization: Bearer $tok" "http://127.0.0.1:$sub/api/$mode/mint"
    for _ in $(seq 20); do curl -sf -o /dev/null -X POST -H "Authorization: Bearer $tok" "http://127.0.0.1:$sub/api/$mode/balance"; done
    if [ "$TRAIN_SECONDS" != 0 ]; then
      wrk -t2 -c4 -d"${TRAIN_SECONDS}s" -s "$lua" "http://127.0.0.1:$sub/api/$mode/balance" | sed -n "s/^Requests\/sec: */training $mode: req\/s /p"
    fi
  done
  rm -f "$lua"
  stop_stack
  # fail, not measure the default twice: the JVM only warns when it cannot write the archive
  [ -s "$2" ] || { tail -5 "$log"; echo "first-minute: the training run wrote no $2" >&2; exit 1; }
}

options_for() { # the JVM options of a variant; -Xshare:on and -XX:AOTMode=on make the JVM fail, not run on
  case "$1" in  # without, when it cannot map the archive
    default) echo "" ;;
    tiered) echo "-XX:TieredStopAtLevel=1" ;;
    cds) # a static archive from the training's class list: JDK 17's dynamic dump (-XX:ArchiveClassesAtExit)
         # crashes on this stack in adjust_lambda_proxy_class_dictionary, and so does a static dump of its
         # lambda proxies, so the list goes without them (they are made at run time as without CDS)
      train "-XX:DumpLoadedClassList=$out/stack-$jdk.classlist" "$out/stack-$jdk.classlist" >&2
      grep -v '^@lambda-proxy' "$out/stack-$jdk.classlist" > "$out/stack-$jdk.classlist.kept"
      "$java" -Xshare:dump -XX:SharedClassListFile="$out/stack-$jdk.classlist.kept" \
        -XX:SharedArchiveFile="$out/stack-$jdk.jsa" -cp "$devstack_cp" > "$out/stack-$jdk.dump.log" 2>&1 \
        || { tail -5 "$out/stack-$jdk.dump.log" >&2; echo "first-minute: the CDS dump failed" >&2; exit 1; }
      echo "-Xshare:on -XX:SharedArchiveFile=$out/stack-$jdk.jsa" ;;
    aot)
      train "-XX:AOTCacheOutput=$out/stack-$jdk.aot" "$out/stack-$jdk.aot" >&2
      echo "-XX:AOTMode=on -XX:AOTCache=$out/stack-$jdk.aot" ;;
    *) echo "unknown variant $1 (default, cds, aot, tiered)" >&2; exit 2 ;;
  esac
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); JDK $jdk; profile $PROFILE"
summary="$out/summary-$jdk.md"
{
  echo "JDK $jdk, profile $PROFILE, warm-up ${WARMUP:-none}, $REQUESTS requests then ${STEADY_SECONDS} s of load; load before $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  printf '| variant | mode | up (ms) | first answer (ms) | first 100 p50 | 101-200 | 201-300 | 301-400 | 401-500 | 501-600 | 601-700 | 701-800 | 801-900 | 901-1000 | steady p50 | worst bucket / steady |\n'
  printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
} > "$summary"
for variant in "${variants[@]}"; do
  opts=$(options_for "$variant")
  for mode in $MODES; do
    # shellcheck disable=SC2086
    start_stack $opts
    row=$(python3 - "$sub" "$idp" "$mode" "$REQUESTS" "$STEADY_SECONDS" "$start_ns" "$out/$variant-$jdk-$mode.csv" "$WARMUP" <<'PY'
import http.client, json, re, sys, time, urllib.parse
sub, idp, mode, n, steady_s, start_ns, csv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
warm = re.fullmatch(r"([a-z-]+):([0-9]+)", sys.argv[8]) if sys.argv[8] else None
if sys.argv[8] and not warm:
    sys.exit("WARMUP is <mode>:<calls>, e.g. mtls-only:3000, not %r" % sys.argv[8])
i = http.client.HTTPConnection("127.0.0.1", idp)
i.request("POST", "/dev/token", urllib.parse.urlencode({"username": "user0001", "password": "password"}),
          {"Content-Type": "application/x-www-form-urlencoded"})
token = json.loads(i.getresponse().read())["access_token"]
c = http.client.HTTPConnection("127.0.0.1", sub)
h = {"Authorization": "Bearer " + token}
def call(op="balance", on=mode):
    t = time.perf_counter()
    c.request("POST", "/api/%s/%s" % (on, op), headers=h)
    r = c.getresponse(); r.read()
    if r.status != 200:
        sys.exit("%s %s answered %d" % (on, op, r.status))
    return (time.perf_counter() - t) * 1000
if warm:
    warm_mode, warm_calls = warm.group(1), int(warm.group(2))
    call("mint", warm_mode)
    t0 = time.monotonic()
    for _ in range(warm_calls):
        call(on=warm_mode)
    print("warm-up: %d calls of %s in %.1f s" % (warm_calls, warm_mode, time.monotonic() - t0), file=sys.stderr)
call("mint")
first = None
times = []
for k in range(n):
    times.append(call())
    if first is None:
        first = (time.time_ns() - start_ns) / 1e6
end = time.monotonic() + steady_s
while time.monotonic() < end:
    call()
steady = sorted(call() for _ in range(200))[99]
with open(csv, "w") as f:
    f.write("request,ms\n")
    for k, t in enumerate(times):
        f.write("%d,%.3f\n" % (k + 1, t))
    f.write("steady,%.3f\n" % steady)
buckets = [sorted(times[b:b + 100])[len(times[b:b + 100]) // 2] for b in range(0, n, 100)]
cells = " | ".join("%.1f" % b for b in buckets)
print("%.0f | %s | %.1f | %.1f" % (first, cells, steady, max(buckets) / steady))
PY
)
    echo "| $variant | $mode | $up_ms | $row |" | tee -a "$summary"
    stop_stack
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$summary"

# the plot: p50 per 100 requests against the request count, every CSV of this JDK
python3 - "$out" "$jdk" <<'PY'
import csv, glob, os, sys
out, jdk = sys.argv[1], sys.argv[2]
series = []
for path in sorted(glob.glob(os.path.join(out, "*-%s-*.csv" % jdk))):
    rows = list(csv.reader(open(path)))[1:]
    times = [float(r[1]) for r in rows if r[0] != "steady"]
    steady = [float(r[1]) for r in rows if r[0] == "steady"]
    pts = []
    for b in range(0, len(times), 100):
        chunk = sorted(times[b:b + 100])
        pts.append((b + len(chunk), chunk[len(chunk) // 2]))
    series.append((os.path.basename(path)[:-4], pts, steady[0] if steady else None))
if not series:
    sys.exit(0)
W, H, L, B = 900, 500, 60, 40
ymax = max(max(p[1] for p in s[1]) for s in series) * 1.1
xmax = max(max(p[0] for p in s[1]) for s in series)
colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
def x(v): return L + (W - L - 20) * v / xmax
def y(v): return H - B - (H - B - 30) * v / ymax
svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (W, H + 16 * len(series)),
       '<text x="%d" y="18" font-size="14">First %d requests: p50 per 100 (ms), JDK %s; dashed: steady p50</text>' % (L, xmax, jdk),
       '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - 20, H - B),
       '<line x1="%d" y1="30" x2="%d" y2="%d" stroke="black"/>' % (L, L, H - B)]
for k in range(6):
    v = ymax * k / 5
    svg.append('<text x="4" y="%.0f">%.1f</text>' % (y(v) + 4, v))
for v in range(0, xmax + 1, max(100, xmax // 10)):
    svg.append('<text x="%.0f" y="%d">%d</text>' % (x(v) - 8, H - B + 16, v))
for n, (name, pts, steady) in enumerate(series):
    col = colors[n % len(colors)]
    svg.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (col, " ".join("%.1f,%.1f" % (x(a), y(b)) for a, b in pts)))
    if steady:
        svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-dasharray="4 3"/>' % (L, y(steady), W - 20, y(steady), col))
    svg.append('<text x="%d" y="%d" fill="%s">%s</text>' % (L, H + 4 + 16 * n, col, name))
svg.append("</svg>")
open(os.path.join(out, "first-minute-%s.svg" % jdk), "w").write("\n".join(svg))
print("plot: " + os.path.join(out, "first-minute-%s.svg" % jdk))
PY
echo "summary: $summary"
