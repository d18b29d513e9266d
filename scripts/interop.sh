#!/usr/bin/env bash
# Interoperability with real servers: runs Tests/InteropTests over both transports against nginx
# (HTTP/1.1, HTTPS with HTTP/2, mutual TLS, gzip, and keep-alive limits that close connections
# under the client: `keepalive_requests 10`, `keepalive_timeout 1s`) and tinyproxy in front of it
# (plain HTTP and `CONNECT`, with basic authentication). Everything binds to 127.0.0.1 on free
# ports, with a throwaway CA made here by openssl, and is stopped by its PID when the script ends.
#
# nginx and tinyproxy come from the system's packages; on Debian they are installed when missing.
# Where they cannot be (no apt-get, not root), the script says so and skips the suite.
#
#   ./scripts/interop.sh            builds with every trait (reusing .build/traits) and runs the suite
#   ./scripts/interop.sh --serve    starts the servers, prints their environment, and waits
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }
all_traits="AsyncHTTPClient,Logging,Tracing,Metrics,OpenAPI"
export PATH="$PATH:/usr/sbin:/sbin"

missing=()
command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v tinyproxy >/dev/null 2>&1 || missing+=(tinyproxy)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    step "installing ${missing[*]} from the system's packages"
    apt-get update -qq
    # The packages' own services would start on their default ports; the suite starts its own.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    for service in nginx tinyproxy; do
      if command -v service >/dev/null 2>&1; then service "$service" stop >/dev/null 2>&1 || true; fi
    done
  else
    echo "interop suite skipped: ${missing[*]} missing, and this machine cannot install them with apt-get as root"
    exit 0
  fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ecnetworking-interop.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

step "a throwaway CA, a server certificate for localhost and 127.0.0.1, and a client certificate"
(
  cd "$work"
  ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 2 -subj "/CN=ECNetworking interop CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req "${ec[@]}" -keyout server.key -out server.csr -subj "/CN=localhost" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
    -extfile server.ext 2>/dev/null
  openssl req "${ec[@]}" -keyout client.key -out client.csr -subj "/CN=interop-client" 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n' > client.ext
  openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 \
    -extfile client.ext 2>/dev/null
  # The SHA-256 of the server key's SubjectPublicKeyInfo, base64: what a pin names.
  openssl pkey -in server.key -pubout -outform der | openssl dgst -sha256 -binary | base64 > server.pin
  openssl pkey -in ca.key -pubout -outform der | openssl dgst -sha256 -binary | base64 > ca.pin
)

step "nginx: HTTP/1.1, HTTPS with HTTP/2, mutual TLS"
http_port=$(free_port)
https_port=$(free_port)
mtls_port=$(free_port)
proxy_port=$(free_port)
mkdir -p "$work/www" "$work/temp"
# A JSON body that gzip shrinks about 100 times, and the download.
python3 - "$work/www" <<'PY'
import json, sys
items = [{"id": i, "name": "interop item", "tags": ["alpha", "beta", "gamma"]} for i in range(20000)]
open(sys.argv[1] + "/large.json", "w").write(json.dumps({"items": items}))
PY
truncate -s 256M "$work/www/download.bin"
# Each route answers from nginx itself; `$connection` and `$connection_requests` in the log tell
# which connection carried a request and how many it had carried.
cat > "$work/routes.conf" <<'NGINX'
location = /hello { return 200 '{"greeting":"hello","protocol":"$server_protocol"}'; }
# Read whole before answering, as an application behind nginx does: `return` alone answers a POST
# before its body is read (see the Transports article on async-http-client and early answers).
location = /items { proxy_pass http://127.0.0.1:HTTP_PORT/answer-item; }
location = /answer-item { return 200 '{"id":"$arg_id","method":"$request_method"}'; }
location = /large.json { root WORK/www; }
location = /download.bin { root WORK/www; }
# nginx reads the whole body (to a temporary file) before it proxies the request on, without it.
location = /upload {
    proxy_pass_request_body off;
    proxy_set_header Content-Length "";
    proxy_set_header X-Upload-Length $content_length;
    proxy_pass http://127.0.0.1:HTTP_PORT/answer-upload;
}
location = /answer-upload { return 200 '{"method":"$request_method","length":"$http_x_upload_length"}'; }
location = /cookie/set { add_header Set-Cookie "interop=chocolate; Path=/cookie; HttpOnly"; return 200 '{}'; }
location /cookie/ { return 200 '{"cookie":"$http_cookie"}'; }
location = /other/cookie { return 200 '{"cookie":"$http_cookie"}'; }
NGINX
sed -i -e "s#WORK#$work#g" -e "s#HTTP_PORT#$http_port#g" "$work/routes.conf"
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 1024; }
http {
    log_format interop '\$server_port \$server_protocol \$request_method \$uri \$arg_id \$status \$connection \$connection_requests \$request_length';
    access_log $work/access.log interop;
    client_body_temp_path $work/temp/body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;
    default_type application/json;
    types { application/json json; application/octet-stream bin; }
    keepalive_requests 10;
    keepalive_timeout 1s;
    http2_max_concurrent_streams 128;
    gzip on;
    gzip_types application/json text/plain;
    gzip_min_length 32;
    client_max_body_size 512m;
    server { listen 127.0.0.1:$http_port; include $work/routes.conf; }
    server {
        listen 127.0.0.1:$https_port ssl http2;
        # HTTP/2 counts requests per connection too (a GOAWAY after the last); 64 streams in
        # flight on one connection need more than the ten of HTTP/1.1.
        keepalive_requests 1000;
        ssl_certificate $work/server.pem;
        ssl_certificate_key $work/server.key;
        include $work/routes.conf;
    }
    server {
        listen 127.0.0.1:$mtls_port ssl;
        ssl_certificate $work/server.pem;
        ssl_certificate_key $work/server.key;
        ssl_client_certificate $work/ca.pem;
        ssl_verify_client on;
        include $work/routes.conf;
    }
}
NGINX
# Run as root, nginx's workers would drop to an account that cannot read this private folder.
if [ "$(id -u)" = 0 ]; then sed -i '1i user root root;' "$work/nginx.conf"; fi
nginx -c "$work/nginx.conf" -p "$work" -e "$work/error.log" &
pids+=($!)

step "tinyproxy: HTTP and CONNECT, basic authentication"
proxy_password="interop-proxy-$RANDOM$RANDOM"
cat > "$work/tinyproxy.conf" <<PROXY
Port $proxy_port
Listen 127.0.0.1
Timeout 30
MaxClients 200
Allow 127.0.0.1
BasicAuth interop $proxy_password
ConnectPort $https_port
ConnectPort $http_port
LogLevel Info
LogFile "$work/tinyproxy.log"
PROXY
if [ "$(id -u)" = 0 ]; then printf 'User root\nGroup root\n' >> "$work/tinyproxy.conf"; fi
tinyproxy -d -c "$work/tinyproxy.conf" >/dev/null 2>&1 &
pids+=($!)

wait_for_port() {
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1"; cat "$work/error.log" "$work/tinyproxy.log" 2>/dev/null; exit 1
}
for port in "$http_port" "$https_port" "$mtls_port" "$proxy_port"; do wait_for_port "$port"; done

export ECNETWORKING_INTEROP_HTTP_PORT=$http_port
export ECNETWORKING_INTEROP_HTTPS_PORT=$https_port
export ECNETWORKING_INTEROP_MTLS_PORT=$mtls_port
export ECNETWORKING_INTEROP_PROXY_PORT=$proxy_port
export ECNETWORKING_INTEROP_PROXY_USER=interop
export ECNETWORKING_INTEROP_PROXY_PASSWORD=$proxy_password
export ECNETWORKING_INTEROP_DIRECTORY=$work
export ECNETWORKING_INTEROP_ACCESS_LOG=$work/access.log
export ECNETWORKING_INTEROP_PROXY_LOG=$work/tinyproxy.log

if [ "${1:-}" = "--serve" ]; then
  env | grep '^ECNETWORKING_INTEROP_' | sed 's/^/export /'
  echo "serving; Ctrl-C stops"
  wait
  exit 0
fi

step "interop suite over both transports"
# Reuses the build of the README's test command; at most eight tests at a time, as there.
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 \
  swift test -Xswiftc -warnings-as-errors --traits "$all_traits" --scratch-path .build/traits --filter InteropTests
