#!/bin/sh
# System packages the tests need on a fresh Debian machine, installed by the project itself (idempotent).
# POSIX sh, as the README calls it (`sh scripts/setup.sh`: dash on Debian).
# - chromium: the report test opens report.html headless (scripts/setup-chromium.sh).
# - nats-server, postgresql: the distributed deployment's tests (scripts/setup-cluster.sh).
set -eu
cd "$(dirname "$0")"
sh ./setup-chromium.sh
sh ./setup-cluster.sh
