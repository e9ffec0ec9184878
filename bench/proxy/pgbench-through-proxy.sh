#!/usr/bin/env bash
# Pass-through overhead of the nlq proxy: pgbench against PostgreSQL directly, through the nlq proxy and, as a peer,
# through PgBouncer (session pooling, when `pgbouncer` is installed: apt-get install pgbouncer), in one run,
# alternating the targets so machine noise hits all of them. Prints TPS and mean latency per round, then medians and
# ratios to direct.
#
#   bash bench/proxy/pgbench-through-proxy.sh [--url postgresql://postgres@127.0.0.1:5432/postgres] [--rounds 3]
#                                             [--seconds 10] [--clients 4] [--mode simple|extended|prepared]
set -euo pipefail
cd "$(dirname "$0")/../.."

url=postgresql://postgres@127.0.0.1:5432/postgres rounds=3 seconds=10 clients=4 mode=simple
while [ $# -gt 0 ]; do
  case "$1" in
    --url) url=$2; shift 2 ;; --rounds) rounds=$2; shift 2 ;; --seconds) seconds=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;; --mode) mode=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

host=$(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$url")
port=$(node -e 'const u=new URL(process.argv[1]);console.log(u.port||5432)' "$url")
user=$(node -e 'const u=new URL(process.argv[1]);console.log(u.username||"postgres")' "$url")
database=nlq_bench_pgbench_$$
proxy_log=$(mktemp -t nlq-bench-proxy.XXXXXX)
proxy_port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')

cleanup() {
  rm -f "${proxy_log:-}"
  [ -n "${proxy_pid:-}" ] && kill "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null || true
  [ -n "${bouncer_pid:-}" ] && kill "$bouncer_pid" 2>/dev/null && wait "$bouncer_pid" 2>/dev/null || true
  [ -n "${bouncer_directory:-}" ] && rm -rf "$bouncer_directory"
  dropdb -h "$host" -p "$port" -U "$user" --if-exists "$database" 2>/dev/null || true
}
trap cleanup EXIT

createdb -h "$host" -p "$port" -U "$user" "$database"
pgbench -h "$host" -p "$port" -U "$user" -i -s 5 -q "$database" >/dev/null 2>&1

NLQ_HOME=$(mktemp -d) node apps/proxy/bin/nlq.mjs proxy --upstream "postgresql://$host:$port" \
  --listen "127.0.0.1:$proxy_port" >"$proxy_log" 2>&1 &
proxy_pid=$!
for _ in $(seq 1 150); do pg_isready -h 127.0.0.1 -p "$proxy_port" -q && break; sleep 0.2; done
if ! pg_isready -h 127.0.0.1 -p "$proxy_port" -q; then
  echo "the proxy did not start; its log:" >&2; cat "$proxy_log" >&2; exit 1
fi

bouncer_port=""
if command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ]; then
  bouncer=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  bouncer_directory=$(mktemp -d)
  bouncer_port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  cat >"$bouncer_directory/pgbouncer.ini" <<INI
[databases]
$database = host=$host port=$port dbname=$database
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bouncer_port
auth_type = trust
auth_file = $bouncer_directory/users.txt
pool_mode = session
max_client_conn = 100
default_pool_size = 20
logfile = $bouncer_directory/pgbouncer.log
pidfile = $bouncer_directory/pgbouncer.pid
unix_socket_dir =
INI
  echo "\"$user\" \"\"" >"$bouncer_directory/users.txt"
  # PgBouncer refuses to run as root; run it as the postgres user when we are root.
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$bouncer_directory"; runuser -u postgres -- "$bouncer" "$bouncer_directory/pgbouncer.ini" >/dev/null 2>&1 &
  else "$bouncer" "$bouncer_directory/pgbouncer.ini" >/dev/null 2>&1 & fi
  bouncer_pid=$!
  for _ in $(seq 1 50); do pg_isready -h 127.0.0.1 -p "$bouncer_port" -q && break; sleep 0.2; done
fi

run() { # $1 = port → "tps latency_ms"
  pgbench -h "$2" -p "$1" -U "$user" -S -M "$mode" -c "$clients" -j 1 -T "$seconds" -n "$database" 2>/dev/null |
    awk '/^latency average/ {latency=$4} /^tps/ {tps=$3} END {print tps, latency}'
}

echo "pgbench -S (select-only), -M $mode, $clients clients, ${seconds}s per run, $rounds rounds; scale 5"
direct_tps=() proxy_tps=() direct_latency=() proxy_latency=() bouncer_tps=() bouncer_latency=()
for round in $(seq 1 "$rounds"); do
  read -r tps latency < <(run "$port" "$host"); direct_tps+=("$tps"); direct_latency+=("$latency")
  read -r tps2 latency2 < <(run "$proxy_port" 127.0.0.1); proxy_tps+=("$tps2"); proxy_latency+=("$latency2")
  line=$(printf 'round %d: direct %8.0f tps %6.3f ms | nlq proxy %8.0f tps %6.3f ms' "$round" "$tps" "$latency" "$tps2" "$latency2")
  if [ -n "$bouncer_port" ]; then
    read -r tps3 latency3 < <(run "$bouncer_port" 127.0.0.1); bouncer_tps+=("$tps3"); bouncer_latency+=("$latency3")
    line="$line$(printf ' | pgbouncer %8.0f tps %6.3f ms' "$tps3" "$latency3")"
  fi
  echo "$line"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
dt=$(median "${direct_tps[@]}") pt=$(median "${proxy_tps[@]}")
dl=$(median "${direct_latency[@]}") pl=$(median "${proxy_latency[@]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }
printf 'median: direct %.0f tps (%s ms) | nlq proxy %.0f tps (%s ms): throughput ×%s, latency ×%s\n' \
  "$dt" "$dl" "$pt" "$pl" "$(ratio "$pt" "$dt")" "$(ratio "$pl" "$dl")"
if [ -n "$bouncer_port" ]; then
  bt=$(median "${bouncer_tps[@]}") bl=$(median "${bouncer_latency[@]}")
  printf '        pgbouncer %.0f tps (%s ms): throughput ×%s, latency ×%s; nlq proxy / pgbouncer throughput ×%s\n' \
    "$bt" "$bl" "$(ratio "$bt" "$dt")" "$(ratio "$bl" "$dl")" "$(ratio "$pt" "$bt")"
fi
