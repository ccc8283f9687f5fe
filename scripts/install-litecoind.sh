#!/bin/sh
# Installs litecoind (Debian package, Litecoin Core 0.21.x) for the regtest integration tests.
# Idempotent and quiet; never fails: without litecoind those tests skip and say why.
set -u

if command -v litecoind >/dev/null 2>&1; then
  exit 0
fi

if [ "$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  # Refresh the package lists only when the package is not known yet (e.g. fresh container).
  if ! apt-cache show litecoind >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
  fi
  if apt-get install -y -qq litecoind >/dev/null 2>&1 && command -v litecoind >/dev/null 2>&1; then
    exit 0
  fi
fi

echo "install-litecoind: could not install litecoind (need root and apt-get with a litecoind package); litecoind tests will be skipped"
exit 0
