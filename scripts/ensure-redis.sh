#!/bin/bash
# Makes sure a Redis answers on 127.0.0.1:6379 for the shared rate-limit tests: uses the running one, else
# installs (Debian's redis-server) and starts one on loopback that keeps nothing on disk. Never fails:
# without Redis those tests skip and say why.
set -u

answers() { (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; }

if answers; then exit 0; fi
if ! command -v redis-server >/dev/null 2>&1 && [ "$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-cache show redis-server >/dev/null 2>&1 || apt-get update -qq >/dev/null 2>&1 || true
  apt-get install -y -qq redis-server >/dev/null 2>&1 || true
fi
if command -v redis-server >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no >/dev/null 2>&1 || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do answers && exit 0; sleep 0.3; done
fi
echo "ensure-redis: no Redis on 127.0.0.1:6379 and none could be started; the shared rate-limit tests will be skipped"
exit 0
