#!/usr/bin/env bash
# Offline checks of the deployment files (no cluster, no Docker engine):
#   1. `kubectl kustomize` renders the base and every overlay;
#   2. kubernetes-validate --strict against Kubernetes $K8S_VERSION for the built-in kinds, and the
#      ClusterSPIFFEIDs against the spire-controller-manager CRD schema kept in deploy/k8s/crds;
#   3. deploy/compose/compose.yaml against the compose-spec JSON schema of compose-go $COMPOSE_GO;
#   4. `promtool check config` on the Prometheus configurations (Compose, the Kubernetes base and
#      overlays/thesis-scrape, whose scrape_configs must equal the base's);
#   5. the Grafana dashboard parses and uses only metrics the workloads expose.
# Tools it installs when missing: kubernetes-validate, jsonschema, pyyaml (pip), promtool (extracted
# from Debian's prometheus package). Caches under ${VALIDATE_CACHE:-$HOME/.cache/spiffeidt-validate}.
set -euo pipefail
cd "$(dirname "$0")/.."
K8S_VERSION=${K8S_VERSION:-1.33.0}
COMPOSE_GO=${COMPOSE_GO:-v2.16.2}
cache=${VALIDATE_CACHE:-$HOME/.cache/spiffeidt-validate}
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
step() { echo "== validate: $*"; }

python3 -c 'import jsonschema, yaml' 2>/dev/null || pip install -q jsonschema pyyaml
command -v kubernetes-validate >/dev/null || pip install -q kubernetes-validate
promtool=$(command -v promtool || true)
if [ -z "$promtool" ]; then
  promtool=$cache/promtool/usr/bin/promtool
  if [ ! -x "$promtool" ]; then
    (cd "$work" && apt-get download prometheus >/dev/null 2>&1)
    dpkg-deb -x "$work"/prometheus_*.deb "$cache/promtool"
  fi
fi

# 1 + 2: Kubernetes
# every kustomization renders as a fresh clone has it (the DVID key Secret is made in the cluster)
for dir in deploy/k8s deploy/k8s/crds deploy/k8s/base deploy/k8s/overlays/*; do
  name=$(basename "$dir"); [ "$dir" = deploy/k8s ] && name=root
  step "kubectl kustomize $dir"
  kubectl kustomize "$dir" > "$work/$name.yaml"
  python3 - "$work/$name.yaml" "$work/$name" deploy/k8s/crds/spire.spiffe.io_clusterspiffeids.yaml <<'PY'
import sys, yaml, json, jsonschema
rendered, prefix, crd_file = sys.argv[1:]
docs = [d for d in yaml.safe_load_all(open(rendered)) if d]
crd = [d for d in yaml.safe_load_all(open(crd_file)) if d][0]
schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
def strict(s):  # structural schema: no unknown fields anywhere (as the API server prunes/rejects)
    if isinstance(s, dict):
        if s.get("type") == "object" and "properties" in s and "additionalProperties" not in s:
            s["additionalProperties"] = False
        for v in s.values():
            strict(v)
    elif isinstance(s, list):
        for v in s:
            strict(v)
    return s
strict(schema)
schema["properties"]["metadata"] = {"type": "object", "required": ["name"]}
builtin, custom = [], 0
for d in docs:
    if d["apiVersion"].startswith(crd["spec"]["group"] + "/"):
        assert d["kind"] == crd["spec"]["names"]["kind"], f"no schema for {d['kind']}"
        jsonschema.validate(d, schema)
        custom += 1
    else:
        builtin.append(d)
yaml.safe_dump_all(builtin, open(prefix + ".builtin.yaml", "w"))
kinds = sorted({d["kind"] for d in docs})
print(f"   {len(docs)} objects ({', '.join(kinds)}); {custom} ClusterSPIFFEID valid against the CRD schema")
PY
  out=$(kubernetes-validate --strict -k "$K8S_VERSION" "$work/$name.builtin.yaml" 2>&1) && rc=0 || rc=$?
  bad=$(echo "$out" | grep -v ' passed for resource ' || true)
  echo "   kubernetes-validate --strict -k $K8S_VERSION: $(echo "$out" | grep -c ' passed for resource ') objects passed"
  if [ "$rc" -ne 0 ] || [ -n "$bad" ]; then echo "$bad"; fail=1; fi
done

# 3: Compose
step "compose-spec ($COMPOSE_GO) deploy/compose/compose.yaml"
schema_dir=$(cd "$work" && GOPATH=$cache/go GOFLAGS=-mod=mod go mod download -json "github.com/compose-spec/compose-go/v2@$COMPOSE_GO" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
python3 - "$schema_dir/schema/compose-spec.json" deploy/compose/compose.yaml <<'PY' || fail=1
import sys, json, yaml, jsonschema
schema = json.load(open(sys.argv[1]))
doc = yaml.safe_load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
print(f"   valid: {len(doc['services'])} services ({', '.join(doc['services'])})")
PY

# 4: Prometheus
for f in deploy/compose/prometheus/prometheus.yml deploy/compose/prometheus/prometheus-thesis.yml deploy/k8s/base/spiffeidt/prometheus.yml \
         deploy/k8s/overlays/thesis-scrape/prometheus.yml; do
  step "promtool check config $f"
  "$promtool" check config "$f" 2>&1 | sed 's/^/   /' || fail=1
done
step "Kubernetes: overlays/thesis-scrape scrapes what the base scrapes (only the interval differs)"
python3 - deploy/k8s/base/spiffeidt/prometheus.yml deploy/k8s/overlays/thesis-scrape/prometheus.yml <<'PY' || fail=1
import sys, yaml
base, thesis = (yaml.safe_load(open(f)) for f in sys.argv[1:])
assert base["scrape_configs"] == thesis["scrape_configs"], "scrape_configs differ"
print(f"   same {len(base['scrape_configs'])} scrape_configs; every {base['global']['scrape_interval']} (base), "
      f"{thesis['global']['scrape_interval']} (thesis-scrape)")
PY

# 5: Grafana dashboard
step "dashboard deploy/k8s/base/grafana/dashboards/spiffeidt.json (Compose and Kubernetes)"
python3 - deploy/k8s/base/grafana/dashboards/spiffeidt.json deploy/k8s/base/grafana/exposed-metrics.txt \
  workload-support/src/main/java/io/spiffeidt/support/metrics/OperationMetrics.java <<'PY' || fail=1
import sys, json, re
dash_file, exposed_file, metrics_src = sys.argv[1:]
dash = json.load(open(dash_file))
exposed = {l.split()[0] for l in open(exposed_file) if l.strip() and not l.startswith("#")}
# the operation timer is registered on first use: derive its series from the source's timer name
m = re.search(r'OPERATION_TIMER\s*=\s*"([a-z_.]+)"', open(metrics_src).read())
assert m, "OperationMetrics.OPERATION_TIMER not found"
base = m.group(1).replace(".", "_") + "_seconds"
exposed |= {base + s for s in ("_bucket", "_count", "_sum", "_max")}
exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
exprs += [v["definition"] for v in dash.get("templating", {}).get("list", []) if "definition" in v]
funcs = {"histogram_quantile", "sum", "by", "rate", "label_values", "irate", "avg", "max", "min", "without", "increase"}
used = set()
for e in exprs:
    e = re.sub(r'\{[^}]*\}', '', e)            # label matchers
    e = re.sub(r'\[[^\]]*\]', '', e)            # ranges
    e = re.sub(r'"[^"]*"', '', e)
    e = re.sub(r'\bby\s*\([^)]*\)', '', e)      # grouping labels
    e = re.sub(r',\s*[a-z_]+\)', ')', e)        # label_values(metric, label)
    used |= {w for w in re.findall(r'[a-zA-Z_:][a-zA-Z0-9_:]*', e) if w not in funcs}
unknown = sorted(used - exposed)
print(f"   {len(dash['panels'])} panels, metrics used: {', '.join(sorted(used))}")
if unknown:
    print("   not exposed by the workloads:", ", ".join(unknown)); sys.exit(1)
PY

if [ "$fail" -ne 0 ]; then echo "== validate: FAILED"; exit 1; fi
echo "== validate: all deployment files valid"
