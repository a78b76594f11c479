#!/usr/bin/env bash
# Builds the five images as tars without a registry or a Docker engine:
#   1. the base image tar from Debian packages + jlink (make-base-image.sh), unless BASE_TAR exists;
#   2. jib:buildTar in idp, subject-wl, asserting-wl, m-tier, target-wl, from that tar
#      (-Dspiffeidt.image.base=tar://...), labelled with the git revision;
#   3. the trace store's image, Zipkin's server jar from Maven Central on that tar (make-zipkin-image.sh).
# Output: <module>/target/jib-image.tar and devstack/target/zipkin/zipkin-image.tar. Expects the
# modules installed (./mvnw install -DskipTests).
#
#   deploy/images/build-offline.sh            (MVN_OFFLINE=-o to stay offline)   BASE_TAR=/path/base.tar deploy/images/build-offline.sh
#   IMAGE_TAG=0.1.0-SNAPSHOT-jdk25 BASE_TAR=base25.tar deploy/images/build-offline.sh
#       the five images under another tag (Compose: SPIFFEIDT_TAG), e.g. on a JDK 25 base beside the JDK 17 ones:
#       written to <module>/target/jib-image-<tag>.tar (load-images.sh with the same IMAGE_TAG), no trace store
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${BASE_TAR:-$(pwd)/deploy/images/base-image/jre-base.tar}
if [ ! -f "$base" ]; then
  mkdir -p "$(dirname "$base")"
  deploy/images/make-base-image.sh "$base"
fi
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || revision="$revision-dirty"
tag_args=()
[ -z "${IMAGE_TAG:-}" ] || tag_args=(-Dspiffeidt.image.tag="$IMAGE_TAG" -Djib.outputPaths.tar="target/jib-image-$IMAGE_TAG.tar")
./mvnw -B -q ${MVN_OFFLINE:-} -pl idp,subject-wl,asserting-wl,m-tier,target-wl jib:buildTar \
  -Dspiffeidt.image.base="tar://$(realpath "$base")" -Dspiffeidt.revision="$revision" "${tag_args[@]}"
tars=({idp,subject-wl,asserting-wl,m-tier,target-wl}/target/jib-image${IMAGE_TAG:+-$IMAGE_TAG}.tar)
if [ -z "${IMAGE_TAG:-}" ]; then
  MVN_OFFLINE=${MVN_OFFLINE:-} deploy/images/make-zipkin-image.sh "$base" devstack/target/zipkin/zipkin-image.tar > /dev/null
  tars+=(devstack/target/zipkin/zipkin-image.tar)
fi
for tar in "${tars[@]}"; do
  m=${tar%%/*}; [ "$m" = devstack ] && m=zipkin
  printf '%-14s %s %s\n' "$m" "$(du -h "$tar" | cut -f1)" "$(sha256sum "$tar" | cut -c1-16)"
done
