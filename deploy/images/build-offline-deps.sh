#!/usr/bin/env bash
# Builds, into the local Docker engine and without any registry, the third-party images Docker Compose
# runs beside the five workloads, for deploy/compose/offline.yaml:
#
#   spiffeidt-offline/debian:bookworm       Debian 12 (debootstrap, minbase) + busybox, PostgreSQL 15, Prometheus
#   spiffeidt-offline/spire-server:<v>      the SPIRE server binary at /opt/spire/bin (as in the official image)
#   spiffeidt-offline/spire-agent:<v>       the SPIRE agent binary, run through sh to read the join token
#   spiffeidt-offline/spire-setup:<v>       spire-server CLI + deploy/compose/spire/setup.sh
#   spiffeidt-offline/postgres:15           PostgreSQL 15 with the official image's POSTGRES_* variables
#   spiffeidt-offline/prometheus:2.42       Debian's Prometheus
#
#   SPIRE_BIN=/dir/with/spire-server+spire-agent deploy/images/build-offline-deps.sh
#
# Needs root, debootstrap and a running Docker engine; reads the Debian mirror from the machine's apt
# sources. An image that already exists with its tag is kept (REBUILD=1 makes them all again).
# The SPIRE binaries must be glibc builds of the version in SPIRE_VERSION (default 1.15.3).
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
spire_version=${SPIRE_VERSION:-1.15.3}
: "${SPIRE_BIN:?set SPIRE_BIN to a directory holding spire-server and spire-agent}"
for b in spire-server spire-agent; do
  [ -x "$SPIRE_BIN/$b" ] || { echo "build-offline-deps: $SPIRE_BIN/$b missing" >&2; exit 1; }
done
command -v debootstrap >/dev/null || { echo "build-offline-deps: debootstrap missing (apt-get install debootstrap)" >&2; exit 1; }

have() { [ -z "${REBUILD:-}" ] && docker image inspect "$1" >/dev/null 2>&1; }
work=$(mktemp -d /tmp/spiffeidt-offline.XXXXXX)
trap 'rm -rf "$work"' EXIT

# 1. the Debian base: one root file system for every third-party image (shared layers, one download)
base=spiffeidt-offline/debian:bookworm
if have "$base"; then
  echo "build-offline-deps: $base exists"
else
  mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$mirror" ] || { echo "build-offline-deps: no Debian mirror in the apt sources" >&2; exit 1; }
  rootfs=$work/rootfs
  echo "build-offline-deps: debootstrap bookworm (minbase) from the machine's mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  # services are never started inside the build root
  printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d" && chmod 755 "$rootfs/usr/sbin/policy-rc.d"
  mount --bind /proc "$rootfs/proc"
  set +e
  chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends busybox ca-certificates postgresql-15 prometheus \
    > "$work/apt.log" 2>&1
  rc=$?
  set -e
  umount "$rootfs/proc"
  [ "$rc" -eq 0 ] || { tail -20 "$work/apt.log" >&2; exit 1; }
  # the package's cluster and caches are not part of the image: the entrypoint makes the cluster
  rm -rf "$rootfs"/var/lib/postgresql/15/main "$rootfs"/etc/postgresql/15/main \
    "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc "$rootfs"/usr/share/man
  tar --numeric-owner -C "$rootfs" -c . | docker import \
    -c 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    -c 'ENV LANG=C.UTF-8' - "$base" >/dev/null
  rm -rf "$rootfs"
  echo "build-offline-deps: $base imported"
fi

# 2. the images, each a small layer on the base (docker build; FROM is local, nothing is pulled)
build() { # TAG DOCKERFILE-TEXT [FILE...]: builds TAG with the given files in its context
  local tag=$1 dockerfile=$2; shift 2
  if have "$tag"; then echo "build-offline-deps: $tag exists"; return; fi
  local ctx=$work/ctx-${tag//[\/:]/-}
  mkdir -p "$ctx"
  for f in "$@"; do cp -p "$f" "$ctx/"; done
  printf '%s\n' "$dockerfile" > "$ctx/Dockerfile"
  docker build -q -t "$tag" "$ctx" > "$ctx.log" 2>&1 || { cat "$ctx.log" >&2; return 1; }
  echo "build-offline-deps: $tag built"
}

build "spiffeidt-offline/spire-server:$spire_version" "FROM $base
COPY spire-server /opt/spire/bin/spire-server
WORKDIR /opt/spire
ENTRYPOINT [\"/opt/spire/bin/spire-server\", \"run\"]" "$SPIRE_BIN/spire-server"

build "spiffeidt-offline/spire-agent:$spire_version" "FROM $base
COPY spire-agent /usr/local/bin/spire-agent
WORKDIR /opt/spire" "$SPIRE_BIN/spire-agent"

build "spiffeidt-offline/spire-setup:$spire_version" "FROM $base
COPY spire-server /usr/local/bin/spire-server
COPY setup.sh /usr/local/bin/setup.sh" "$SPIRE_BIN/spire-server" "$root_dir/deploy/compose/spire/setup.sh"

build spiffeidt-offline/postgres:15 "FROM $base
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data
EXPOSE 5432
ENTRYPOINT [\"sh\", \"/usr/local/bin/postgres-entrypoint.sh\"]" "$root_dir/deploy/images/offline/postgres-entrypoint.sh"

build spiffeidt-offline/prometheus:2.42 "FROM $base
USER prometheus
WORKDIR /var/lib/prometheus
ENTRYPOINT [\"/usr/bin/prometheus\", \"--storage.tsdb.path=/var/lib/prometheus/metrics2\"]"

docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '^spiffeidt-offline/' | sort
