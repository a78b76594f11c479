#!/usr/bin/env bash
# Builds the five images as tars without a registry or a Docker engine:
#   1. the base image tar from Debian packages + jlink (make-base-image.sh), unless BASE_TAR exists;
#   2. jib:buildTar in idp, subject-wl, asserting-wl, m-tier, target-wl, from that tar
#      (-Dspiffeidt.image.base=tar://...), labelled with the git revision.
# Output: <module>/target/jib-image.tar. Expects the modules installed (./mvnw install -DskipTests).
#
#   deploy/images/build-offline.sh            (MVN_OFFLINE=-o to stay offline)   BASE_TAR=/path/base.tar deploy/images/build-offline.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${BASE_TAR:-$(pwd)/deploy/images/base-image/jre-base.tar}
if [ ! -f "$base" ]; then
  mkdir -p "$(dirname "$base")"
  deploy/images/make-base-image.sh "$base"
fi
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || revision="$revision-dirty"
./mvnw -B -q ${MVN_OFFLINE:-} -pl idp,subject-wl,asserting-wl,m-tier,target-wl jib:buildTar \
  -Dspiffeidt.image.base="tar://$(realpath "$base")" -Dspiffeidt.revision="$revision"
for m in idp subject-wl asserting-wl m-tier target-wl; do
  printf '%-14s %s %s\n' "$m" "$(du -h "$m/target/jib-image.tar" | cut -f1)" "$(sha256sum "$m/target/jib-image.tar" | cut -c1-16)"
done
