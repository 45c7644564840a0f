#!/bin/sh
# Installs Debian's chromium for the report check (scripts/check-report.ts), non-interactively, if missing.
# Needs root (CI containers) or sudo. Playwright's own browser download is not used: it does not work offline.
set -eu
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium
/usr/bin/chromium --version
