#!/usr/bin/env bash
# Makes a throw-away PostgreSQL server available on 127.0.0.1:${SPIFFEIDT_PG_PORT:-55432} for the
# integration tests (AccountRepositoryPostgresIT) and prints, on stdout and nothing else:
#   export SPIFFEIDT_TEST_POSTGRES_URL=...
#   export SPIFFEIDT_TEST_POSTGRES_USER=...
#   export SPIFFEIDT_TEST_POSTGRES_PASSWORD=...
# so that `eval "$(bash .ci/postgres.sh)"` sets them. Progress and errors go to stderr.
#
# Idempotent: a second run reuses the data directory and the running server, and only makes sure the
# database, the user and its password exist. Stop it with .ci/postgres-stop.sh.
#
# Binaries: initdb/pg_ctl/postgres from PATH, else /usr/lib/postgresql/<newest>/bin, else (as root)
# `apt-get install postgresql` first. PostgreSQL refuses to run as root: as root the server runs as
# the user `spiffeidt-ci` (created with useradd when missing).
#
# Settings (environment): SPIFFEIDT_PG_PORT (55432), SPIFFEIDT_PG_BASE (data, socket, log and password
# file; ${TMPDIR:-/tmp}/spiffeidt-ci-postgres), SPIFFEIDT_PG_DATABASE (spiffeidt),
# SPIFFEIDT_PG_USER (spiffeidt), SPIFFEIDT_PG_PASSWORD (random, generated once and kept in the base
# directory), SPIFFEIDT_PG_TIMEOUT (seconds to wait for the server, 60).
# Tuned for tests, not for data you want to keep: fsync is off.
set -euo pipefail

port=${SPIFFEIDT_PG_PORT:-55432}
base=${SPIFFEIDT_PG_BASE:-${TMPDIR:-/tmp}/spiffeidt-ci-postgres}
database=${SPIFFEIDT_PG_DATABASE:-spiffeidt}
db_user=${SPIFFEIDT_PG_USER:-spiffeidt}
timeout=${SPIFFEIDT_PG_TIMEOUT:-60}
os_user=spiffeidt-ci
superuser=postgres

log() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() {
  printf 'postgres.sh: error: %s\n' "$*" >&2
  exit 1
}

[[ $port =~ ^[0-9]+$ ]] || die "SPIFFEIDT_PG_PORT must be a number, got '$port'"
[[ $database =~ ^[a-z_][a-z0-9_]*$ ]] || die "SPIFFEIDT_PG_DATABASE must match [a-z_][a-z0-9_]*"
[[ $db_user =~ ^[a-z_][a-z0-9_]*$ ]] || die "SPIFFEIDT_PG_USER must match [a-z_][a-z0-9_]*"
[[ $timeout =~ ^[0-9]+$ ]] || die "SPIFFEIDT_PG_TIMEOUT must be a number of seconds"

# ---- binaries -------------------------------------------------------------------------------------
find_bindir() {
  local initdb
  if initdb=$(command -v initdb) && command -v pg_ctl >/dev/null && command -v postgres >/dev/null; then
    dirname "$(readlink -f "$initdb")"
    return 0
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n $dir && -x $dir/initdb && -x $dir/pg_ctl && -x $dir/postgres ]]; then
    echo "$dir"
    return 0
  fi
  return 1
}

if ! bindir=$(find_bindir); then
  [[ $(id -u) -eq 0 ]] || die "PostgreSQL binaries not found (initdb, pg_ctl, postgres) and not root to install them; install the 'postgresql' package"
  command -v apt-get >/dev/null || die "PostgreSQL binaries not found and apt-get is not available; install PostgreSQL"
  log "installing PostgreSQL with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || die "apt-get update failed"
  apt-get install -y -qq postgresql >&2 || die "apt-get install postgresql failed"
  bindir=$(find_bindir) || die "PostgreSQL installed but initdb/pg_ctl/postgres not found under /usr/lib/postgresql/*/bin"
fi
pg_tool() { # the tool from the server's bin dir, else from PATH (Debian keeps psql/pg_isready in /usr/bin too)
  if [[ -x $bindir/$1 ]]; then
    echo "$bindir/$1"
  elif command -v "$1" >/dev/null; then
    command -v "$1"
  else
    die "$1 not found (neither in $bindir nor on PATH)"
  fi
}
initdb=$(pg_tool initdb)
pg_ctl=$(pg_tool pg_ctl)
psql=$(pg_tool psql)
pg_isready=$(pg_tool pg_isready)
log "using PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') from $bindir"

# ---- who runs the server --------------------------------------------------------------------------
if [[ $(id -u) -eq 0 ]]; then
  if ! id -u "$os_user" >/dev/null 2>&1; then
    log "creating system user $os_user (postgres refuses to run as root)"
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$os_user" \
      || die "useradd $os_user failed"
  fi
  run_user=$os_user
else
  run_user=$(id -un)
fi
as_server_user() { # runs a command as the server's user, from a directory it can enter
  if [[ $(id -u) -eq 0 ]]; then
    if command -v runuser >/dev/null; then
      (cd "$base" && runuser -u "$run_user" -- "$@")
    else
      (cd "$base" && su -s /bin/sh "$run_user" -c "$(printf '%q ' "$@")")
    fi
  else
    (cd "$base" && "$@")
  fi
}

# ---- directories ----------------------------------------------------------------------------------
data=$base/data
sockets=$base/socket
logfile=$base/postgres.log
password_file=$base/password
mkdir -p "$base" "$sockets" || die "cannot create $base"
if [[ $(id -u) -eq 0 ]]; then
  chown "$run_user:" "$base" "$sockets"
fi
chmod 700 "$base"
[[ -w $base ]] || die "$base is not writable"
if [[ -e $data/PG_VERSION && $(id -u) -eq 0 && $(stat -c %U "$data") != "$run_user" ]]; then
  die "$data belongs to $(stat -c %U "$data"), not $run_user; remove $base or set SPIFFEIDT_PG_BASE"
fi

# the password: given, else the one generated by an earlier run, else a new random one
if [[ -n ${SPIFFEIDT_PG_PASSWORD:-} ]]; then
  password=$SPIFFEIDT_PG_PASSWORD
elif [[ -s $password_file ]]; then
  password=$(<"$password_file")
else
  password=$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 24)
  (umask 077 && printf '%s\n' "$password" >"$password_file")
fi
[[ -n $password ]] || die "could not determine a password"

# ---- initdb (once) --------------------------------------------------------------------------------
if [[ ! -e $data/PG_VERSION ]]; then
  log "initializing a cluster in $data"
  rm -rf "$data"
  as_server_user "$initdb" --pgdata="$data" --username="$superuser" --encoding=UTF8 --no-locale \
    --auth-local=trust --auth-host=scram-sha-256 >"$base/initdb.log" 2>&1 \
    || die "initdb failed; see $base/initdb.log"
fi

# ---- start (unless already running) ---------------------------------------------------------------
running() { as_server_user "$pg_ctl" status --pgdata="$data" >/dev/null 2>&1; }
ready() { "$pg_isready" --quiet --host="$sockets" --port="$port" --username="$superuser" --dbname=postgres; }

if running; then
  log "server already running (data $data)"
else
  if "$pg_isready" --quiet --host=127.0.0.1 --port="$port" 2>/dev/null; then
    die "something else already answers on 127.0.0.1:$port; stop it or set SPIFFEIDT_PG_PORT"
  fi
  log "starting the server on 127.0.0.1:$port (log $logfile)"
  as_server_user "$pg_ctl" start --pgdata="$data" --log="$logfile" --silent --wait --timeout="$timeout" \
    -o "-c listen_addresses=127.0.0.1 -p $port -k '$sockets' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    >&2 || die "the server did not start; last lines of $logfile: $(tail -n 5 "$logfile" 2>/dev/null | tr '\n' ' ')"
fi

deadline=$((SECONDS + timeout))
until ready; do
  ((SECONDS < deadline)) || die "the server is not ready after ${timeout}s; see $logfile"
  sleep 0.5
done

# ---- database and user (every run: creates what is missing, resets the password) -----------------
sql() { as_server_user "$psql" --no-psqlrc --quiet --tuples-only --no-align --set=ON_ERROR_STOP=1 \
  --host="$sockets" --port="$port" --username="$superuser" --dbname=postgres "$@"; }

# psql variables (:'name') quote the values: nothing is spliced into SQL by the shell
sql --set=db_user="$db_user" --set=password="$password" >/dev/null <<'SQL' || die "cannot create the user"
SELECT format('CREATE ROLE %I LOGIN', :'db_user')
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'db_user') \gexec
SELECT format('ALTER ROLE %I WITH LOGIN PASSWORD %L', :'db_user', :'password') \gexec
SQL
sql --set=db_user="$db_user" --set=database="$database" >/dev/null <<'SQL' || die "cannot create the database"
SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'db_user')
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'database') \gexec
SQL

# the user can log in over TCP with its password
PGPASSWORD=$password "$psql" --no-psqlrc --quiet --tuples-only --no-align --set=ON_ERROR_STOP=1 \
  --host=127.0.0.1 --port="$port" --username="$db_user" --dbname="$database" --command='SELECT 1' >/dev/null \
  || die "the user $db_user cannot log in to $database on 127.0.0.1:$port"

log "ready: database $database, user $db_user on 127.0.0.1:$port"
printf 'export SPIFFEIDT_TEST_POSTGRES_URL=%q\n' "jdbc:postgresql://127.0.0.1:$port/$database"
printf 'export SPIFFEIDT_TEST_POSTGRES_USER=%q\n' "$db_user"
printf 'export SPIFFEIDT_TEST_POSTGRES_PASSWORD=%q\n' "$password"
