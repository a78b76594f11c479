#!/usr/bin/env bash
# Stops the test PostgreSQL server started by .ci/postgres.sh (same SPIFFEIDT_PG_BASE). Idempotent:
# succeeds when nothing runs. With --purge also deletes the base directory (data, log, password).
set -euo pipefail

base=${SPIFFEIDT_PG_BASE:-${TMPDIR:-/tmp}/spiffeidt-ci-postgres}
data=$base/data
purge=false
case "${1:-}" in
  "") ;;
  --purge) purge=true ;;
  *)
    printf 'usage: %s [--purge]\n' "$0" >&2
    exit 2
    ;;
esac

log() { printf 'postgres-stop.sh: %s\n' "$*" >&2; }
die() {
  printf 'postgres-stop.sh: error: %s\n' "$*" >&2
  exit 1
}

if [[ -e $data/PG_VERSION ]]; then
  pg_ctl=""
  if command -v pg_ctl >/dev/null; then
    pg_ctl=$(command -v pg_ctl)
  else
    # the major version the cluster was made with
    version=$(<"$data/PG_VERSION")
    [[ -x /usr/lib/postgresql/$version/bin/pg_ctl ]] && pg_ctl=/usr/lib/postgresql/$version/bin/pg_ctl
  fi
  [[ -n $pg_ctl ]] || die "pg_ctl not found; cannot stop the server in $data"
  owner=$(stat -c %U "$data")
  as_owner() {
    if [[ $(id -u) -eq 0 && $owner != root ]]; then
      if command -v runuser >/dev/null; then
        (cd "$base" && runuser -u "$owner" -- "$@")
      else
        (cd "$base" && su -s /bin/sh "$owner" -c "$(printf '%q ' "$@")")
      fi
    else
      (cd "$base" && "$@")
    fi
  }
  if as_owner "$pg_ctl" status --pgdata="$data" >/dev/null 2>&1; then
    log "stopping the server (data $data)"
    as_owner "$pg_ctl" stop --pgdata="$data" --mode=fast --wait --timeout=60 --silent >&2 \
      || die "pg_ctl stop failed; see $base/postgres.log"
  else
    log "no server running (data $data)"
  fi
else
  log "no cluster in $data"
fi

if $purge && [[ -d $base ]]; then
  log "removing $base"
  rm -rf -- "$base"
fi
