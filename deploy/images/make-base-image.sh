#!/usr/bin/env bash
# Makes an offline base image for Jib (docker-save format: manifest.json + config + one layer tar)
# from Debian packages (apt-get download) and a jlinked Java runtime, for machines without a registry.
#
#   deploy/images/make-base-image.sh OUT.tar [JDK_HOME]
#
# The image holds glibc, libstdc++, zlib, tzdata, netbase, busybox (sh, wget for health checks) and
# a JRE at /opt/java/openjdk made by jlink from JDK_HOME (default: the JDK running `javac`).
# The result is reproducible for the same packages and JDK: fixed times, owners and order.
# Users with a registry do not need it: the default base is the pinned Temurin JRE (see pom.xml).
set -euo pipefail
out=$(realpath -m "${1:?usage: make-base-image.sh OUT.tar [JDK_HOME]}")
jdk=${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/rootfs
mkdir -p "$root" "$work/debs" "$work/img"

pkgs=(libc6 libgcc-s1 zlib1g libstdc++6 busybox-static tzdata netbase)
(cd "$work/debs" && apt-get download "${pkgs[@]}" >/dev/null 2>&1) \
  || { echo "make-base-image: apt-get download ${pkgs[*]} failed" >&2; exit 1; }
for deb in "$work"/debs/*.deb; do
  dpkg-deb -x "$deb" "$root"
done
# Debian 12 is merged-/usr: the packages install to /usr/lib etc.; give the usual top-level links
for d in bin sbin lib lib64; do
  if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
    mkdir -p "$root/usr/$d" && cp -a "$root/$d/." "$root/usr/$d/" && rm -rf "${root:?}/$d"
  fi
  mkdir -p "$root/usr/$d"
  ln -sfn "usr/$d" "$root/$d"
done
for tool in sh ls cat wget env sleep ps id; do
  ln -sf busybox "$root/usr/bin/$tool"
done
[ -e "$root/usr/bin/busybox" ] || ln -sf ../../bin/busybox "$root/usr/bin/busybox" 2>/dev/null || true

# the Java runtime: the modules a Spring Boot workload and java-spiffe need
modules=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http
modules=$modules,java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa
modules=$modules,java.xml,jdk.crypto.ec,jdk.crypto.cryptoki,jdk.management,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs
# Start-up before size: the modules uncompressed (--compress=2 made every class a zip inflate)
# and the JDK's default class-data-sharing archive (lib/server/classes.jsa: without it a jlinked runtime
# loads and verifies every JDK class at each start; the Temurin base has one)
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --generate-cds-archive \
  --output "$root/opt/java/openjdk"

mkdir -p "$root/tmp" "$root/etc" "$root/app" "$root/proc" "$root/sys" "$root/dev" "$root/run/spire/sockets"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nnonroot:x:65532:65532:nonroot:/home/nonroot:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$root/etc/group"
mkdir -p "$root/home/nonroot" && chown 65532:65532 "$root/home/nonroot"
ln -sf /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"
# what the packages' documentation and maintainer data add is not needed at run time
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/lintian" "$root/usr/share/bug"

tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
  -C "$root" -cf "$work/img/layer.tar" $(cd "$root" && ls -A)
diff_id=$(sha256sum "$work/img/layer.tar" | cut -d' ' -f1)
java_version=$("$root/opt/java/openjdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.runtime.version = //p')
cat > "$work/img/config.json" <<JSON
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:00Z",
 "config":{"Env":["PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin","JAVA_HOME=/opt/java/openjdk","LANG=C.UTF-8","TZ=UTC"],
  "WorkingDir":"/","Labels":{"org.opencontainers.image.title":"spiffeidt-jre-base","org.opencontainers.image.description":"Debian 12 packages + jlinked JRE ${java_version}"}},
 "rootfs":{"type":"layers","diff_ids":["sha256:${diff_id}"]},
 "history":[{"created":"1970-01-01T00:00:00Z","created_by":"deploy/images/make-base-image.sh"}]}
JSON
config_id=$(sha256sum "$work/img/config.json" | cut -d' ' -f1)
mv "$work/img/config.json" "$work/img/$config_id.json"
printf '[{"Config":"%s.json","RepoTags":["spiffeidt/jre-base:%s"],"Layers":["layer.tar"]}]\n' "$config_id" "${java_version%%+*}" \
  > "$work/img/manifest.json"
# plain member names (Jib refuses "./" entries)
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$work/img" -cf "$out" manifest.json "$config_id.json" layer.tar
echo "make-base-image: $out ($(du -h "$out" | cut -f1), JRE $java_version, layer sha256:${diff_id:0:12})"
