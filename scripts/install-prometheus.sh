#!/bin/sh
# Installs Debian's Prometheus (prometheus and promtool) for the metrics tests: a real Prometheus scrapes a
# running explorer, and promtool checks /metrics and the example alert rules. Idempotent and quiet; never
# fails: without them those tests skip and say why.
set -u

if [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ]; then
  exit 0
fi

if [ "$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-cache show prometheus >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
  fi
  # Only the binaries are needed (the tests start their own Prometheus): no node exporter.
  if apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1 \
    && [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ]; then
    exit 0
  fi
fi

echo "install-prometheus: could not install prometheus (need root and apt-get); the Prometheus tests will be skipped"
exit 0
