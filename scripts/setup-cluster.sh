#!/bin/sh
# Installs Debian's nats-server (JetStream) and PostgreSQL for the distributed deployment and its tests
# (test/cluster), non-interactively, if missing. The servers are not started here: `querymask cluster up` and the
# tests start their own, on loopback, with data under the project's directories. Needs root or sudo.
set -eu
need=""
command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || need="$need nats-server"
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need="$need postgresql"
if [ -z "$need" ]; then
  echo "nats-server and postgresql already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $need
