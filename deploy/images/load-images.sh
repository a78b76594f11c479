#!/usr/bin/env bash
# Loads the five image tars of deploy/images/build-offline.sh (<module>/target/jib-image.tar) into the
# local Docker engine, as spiffeidt/<module>:<version>, and the trace store's
# (devstack/target/zipkin/zipkin-image.tar, spiffeidt/zipkin:<zipkin version>).
# IMAGE_TAG=<tag>: the five images build-offline.sh made under that tag (<module>/target/jib-image-<tag>.tar), alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
for m in idp subject-wl asserting-wl m-tier target-wl; do
  tar=$m/target/jib-image${IMAGE_TAG:+-$IMAGE_TAG}.tar
  [ -f "$tar" ] || { echo "load-images: $tar missing (run ${IMAGE_TAG:+IMAGE_TAG=$IMAGE_TAG }deploy/images/build-offline.sh)" >&2; exit 1; }
  docker load -q -i "$tar"
done
[ -z "${IMAGE_TAG:-}" ] || exit 0
tar=devstack/target/zipkin/zipkin-image.tar
[ -f "$tar" ] || { echo "load-images: $tar missing (run deploy/images/build-offline.sh)" >&2; exit 1; }
docker load -q -i "$tar"
