#!/usr/bin/env bash
# What the test suite needs from the machine, installed or started when missing (idempotent, quick when all
# is there): Debian's Chromium for Playwright (no browser download), the local PostgreSQL on 127.0.0.1:5432, and
# Debian's PgBouncer (the multi-instance test starts its own, in transaction mode, on a loopback port).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x /usr/bin/chromium ]; then
  echo "prerequisites: installing Debian's chromium"
  as_root apt-get update -qq
  as_root apt-get install -y -qq chromium >/dev/null
fi

if ! command -v pgbouncer >/dev/null; then
  echo "prerequisites: installing Debian's pgbouncer"
  as_root apt-get update -qq
  as_root apt-get install -y -qq pgbouncer >/dev/null
fi

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if [ ! -d /etc/postgresql ] || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "prerequisites: installing PostgreSQL"
    as_root apt-get update -qq
    as_root apt-get install -y -qq postgresql >/dev/null
  fi
  echo "prerequisites: starting PostgreSQL"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432
fi
