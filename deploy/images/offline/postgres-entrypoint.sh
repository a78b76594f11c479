#!/bin/sh
# Entrypoint of spiffeidt-offline/postgres (deploy/images/build-offline-deps.sh): Debian's PostgreSQL 15
# with the official image's variables POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB. Makes the cluster
# on first start (password authentication over TCP), then runs the server as the postgres user.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    as_postgres psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -q -c "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres-entrypoint: cluster made in $PGDATA, database $POSTGRES_DB"
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*'
