#!/usr/bin/env bash
# Runs nginx in the foreground as a reverse proxy in front of an MCP server, for `mcp-golden check`:
#   nginx-gateway.sh <upstream-url> <port> <faithful|stock|gzip|buffering>
# faithful:  proxy_buffering off (SSE forwarded as it arrives).
# stock:     nginx's defaults (proxy_buffering on): nginx 1.22 still writes each upstream read on.
# gzip:      gzip on for every type with nginx's default buffering, the upstream's
#            X-Accel-Buffering honoured: SSE streams (flushed per read) when the upstream sends
#            "X-Accel-Buffering: no", and is held by the compressor when it does not.
# buffering: gzip on for every type (event streams included) with response buffering on and the
#            upstream's X-Accel-Buffering ignored: the compressor holds SSE until its buffers fill or
#            the response ends, the common way a proxy silently batches MCP progress.
set -euo pipefail
upstream="$1"; port="$2"; mode="$3"
prefix="$(mktemp -d "${TMPDIR:-/tmp}/mcp-golden-nginx.XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
hostport="$(printf '%s' "$upstream" | sed -E 's#^https?://([^/]+).*#\1#')"
case "$mode" in
  faithful) buffering='proxy_buffering off; proxy_cache off;' ;;
  stock) buffering='proxy_buffering on;' ;;
  gzip) buffering='gzip on; gzip_types *; gzip_min_length 0; gzip_proxied any;' ;;
  buffering) buffering='proxy_buffering on; proxy_ignore_headers X-Accel-Buffering; gzip on; gzip_types *; gzip_min_length 0; gzip_proxied any;' ;;
  *) echo "mode must be faithful, stock, gzip or buffering, got: $mode" >&2; exit 2 ;;
esac
mkdir -p "$prefix/logs"
cat > "$prefix/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $prefix/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $prefix/body;
  proxy_temp_path $prefix/proxy;
  fastcgi_temp_path $prefix/fastcgi;
  uwsgi_temp_path $prefix/uwsgi;
  scgi_temp_path $prefix/scgi;
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://$hostport;
      proxy_http_version 1.1;
      proxy_set_header Connection '';
      proxy_read_timeout 300s;
      $buffering
    }
  }
}
CONF
nginx -p "$prefix" -c "$prefix/nginx.conf" &
child=$!
# Under `set -e` a failing `wait` (143 after SIGTERM) would end the trap before `rm`: tolerate it.
cleanup() {
  trap - TERM INT EXIT
  kill -TERM "$child" 2>/dev/null || true
  wait "$child" 2>/dev/null || true
  rm -rf "$prefix"
}
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 130' INT
trap cleanup EXIT
status=0
wait "$child" || status=$?
exit "$status"
