#!/usr/bin/env bash
# Makes the trace store's image without a registry or a Docker engine: the offline base image
# (make-base-image.sh, docker-save format) plus one layer holding Zipkin's server, the exec jar
# io.zipkin:zipkin-server from Maven Central (the version of zipkin-server.version in the root POM,
# resolved and cached by Maven like any artifact, the same jar devstack's TracingIT runs).
#
#   deploy/images/make-zipkin-image.sh BASE.tar [OUT.tar]     (MVN_OFFLINE=-o to stay offline)
#
# Output (default): devstack/target/zipkin/zipkin-image.tar, tagged spiffeidt/zipkin:<version>;
# in-memory storage, port 9411 (UI /zipkin/, API /api/v2/, /health), user 65532:65532.
# Reproducible for the same base and jar: fixed times, owners and order.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$(realpath "${1:?usage: make-zipkin-image.sh BASE.tar [OUT.tar]}")
out=$(realpath -m "${2:-devstack/target/zipkin/zipkin-image.tar}")
# the copy execution of devstack's POM: devstack/target/zipkin/zipkin-server.jar
./mvnw -B -q ${MVN_OFFLINE:-} -pl devstack dependency:copy@zipkin-server -DskipITs=false
jar=devstack/target/zipkin/zipkin-server.jar
version=$(sed -n 's:.*<zipkin-server.version>\(.*\)</zipkin-server.version>.*:\1:p' pom.xml)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/base" "$work/img" "$work/layer/opt/zipkin" "$(dirname "$out")"
tar -xf "$base" -C "$work/base"
cp "$jar" "$work/layer/opt/zipkin/zipkin-server.jar"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
  -C "$work/layer" -cf "$work/img/zipkin.tar" opt
python3 - "$work/base" "$work/img" "$version" <<'PY'
import hashlib, json, os, shutil, sys
base, img, version = sys.argv[1:]
manifest = json.load(open(os.path.join(base, "manifest.json")))[0]
config = json.load(open(os.path.join(base, manifest["Config"])))
layers = []
for i, layer in enumerate(manifest["Layers"]):
    name = f"base-{i}.tar"
    shutil.copyfile(os.path.join(base, layer), os.path.join(img, name))
    layers.append(name)
layers.append("zipkin.tar")
diff = hashlib.sha256(open(os.path.join(img, "zipkin.tar"), "rb").read()).hexdigest()
config["rootfs"]["diff_ids"].append("sha256:" + diff)
c = config["config"]
c["User"] = "65532:65532"
c["WorkingDir"] = "/tmp"
c["ExposedPorts"] = {"9411/tcp": {}}
c["Env"] = [e for e in c.get("Env", []) if not e.startswith("STORAGE_TYPE=")] + ["STORAGE_TYPE=mem"]
# the JVM sizes its heap from the container's memory limit, as the workloads' images do
c["Entrypoint"] = ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/opt/zipkin/zipkin-server.jar"]
c["Cmd"] = None
c["Labels"] = dict(c.get("Labels") or {})
c["Labels"].update({
    "org.opencontainers.image.title": "zipkin",
    "org.opencontainers.image.description": "Zipkin server " + version + " (io.zipkin:zipkin-server:exec) on the SPIFFE-IdT offline base",
    "org.opencontainers.image.version": version,
})
config.setdefault("history", []).append({"created": "1970-01-01T00:00:00Z", "created_by": "deploy/images/make-zipkin-image.sh"})
data = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
config_name = hashlib.sha256(data).hexdigest() + ".json"
open(os.path.join(img, config_name), "wb").write(data)
json.dump([{"Config": config_name, "RepoTags": ["spiffeidt/zipkin:" + version], "Layers": layers}],
          open(os.path.join(img, "manifest.json"), "w"))
PY
(cd "$work/img" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$out" $(ls -A))
echo "make-zipkin-image: $out ($(du -h "$out" | cut -f1), spiffeidt/zipkin:$version)"
