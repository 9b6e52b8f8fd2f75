#!/usr/bin/env bash
# Throughput and peak memory of robowatch against the tools an admin already
# has, measured side by side on one generated Combined log.
#
#   bash bench/run.sh [LINES] [--ips N] [--seed N] [--runs N] [--no-goaccess] [--churn]
#
# LINES defaults to 1,000,000. The log is made by ../shared/tools/genlog.py
# (seeded, so the same arguments give the same bytes; through bench/genlog.py,
# which makes pools of 100,000 addresses possible) into $BENCH_DIR
# (default /tmp/robowatch-bench) and kept there for the next run. Each tool
# runs --runs times (default 3); the table shows the fastest run, and peak
# RSS as /usr/bin/time -v reports it. The ratio column is how many times
# faster robowatch on the plain file is than that row (for the .gz row: how
# many times slower .gz is than plain).
#
# --churn makes the log with bench/churnlog.py instead: every line its own
# client (address and User-agent), as a botnet, a CDN edge or a rotating
# scraper writes, and no robots.txt.
#
# Rows: robowatch -o json on all cores, the same on one core (GOMAXPROCS=1:
# the 1-vs-N-core scaling; the two are run by turns, and stderr says how
# long a cache line took between cores before and after them, see
# bench/corelat.go), the terminal report, the .gz, and GoAccess.
#
# The peak-memory target (< 200 MB for 10M lines / 100k clients):
#   bash bench/run.sh 10000000 --ips 100000 --runs 1 --no-goaccess
# The high-churn target (issue 19):
#   bash bench/run.sh 300000 --churn
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# bench/genlog.py runs ../shared/tools/genlog.py (or $GENLOG) so that large
# address pools work; for the default pool it writes the same bytes.
genlog=$repo/bench/genlog.py
dir=${BENCH_DIR:-/tmp/robowatch-bench}

lines=1000000
ips=5000
seed=1
runs=3
goaccess=yes
churn=no
while [ $# -gt 0 ]; do
	case $1 in
	--ips) ips=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--no-goaccess) goaccess=no; shift ;;
	--churn) churn=yes; shift ;;
	-h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "bench/run.sh: unknown flag $1" >&2; exit 2 ;;
	*) lines=$1; shift ;;
	esac
done

if [ ! -x /usr/bin/time ]; then
	echo "bench/run.sh: /usr/bin/time is missing (apt-get install -y time)" >&2
	exit 1
fi
if [ ! -f "${GENLOG:-$repo/../shared/tools/genlog.py}" ]; then
	echo "bench/run.sh: no generator at ${GENLOG:-$repo/../shared/tools/genlog.py} (set GENLOG)" >&2
	exit 1
fi

mkdir -p "$dir"
if [ $churn = yes ]; then
	base=$dir/churn-$lines-seed$seed
	log=$base.log
	robots=()
	if [ ! -s "$log" ]; then
		echo "generating $log ..." >&2
		python3 "$repo/bench/churnlog.py" "$lines" "$log.tmp" --seed "$seed"
		mv "$log.tmp" "$log"
	fi
else
	base=$dir/combined-$lines-ips$ips-seed$seed
	log=$base.log
	robots=(--robots "$base.robots.txt")
	if [ ! -s "$log" ] || [ ! -s "$base.robots.txt" ]; then
		echo "generating $log ..." >&2
		python3 "$genlog" "$lines" "$log.tmp" --seed "$seed" --ips "$ips" --robots-out "$base.robots.txt"
		mv "$log.tmp" "$log"
	fi
fi
if [ ! -s "$log.gz" ]; then
	echo "compressing $log.gz (gzip -6, as logrotate does) ..." >&2
	gzip -6 -c "$log" > "$log.gz.tmp"
	mv "$log.gz.tmp" "$log.gz"
fi

bin=$dir/robowatch
# Built as README.md says: static, without the C library's 1.6 MB.
(cd "$repo" && CGO_ENABLED=0 go build -o "$bin" .)

nlines=$(wc -l < "$log")
size=$(stat -c %s "$log")
gzsize=$(stat -c %s "$log.gz")

# once NAME CMD...: runs CMD once; keeps the fastest wall time (ns) of NAME
# and the peak RSS (KiB) of that run in secs[NAME] and rss[NAME].
declare -A secs rss
order=()
once() {
	local name=$1; shift
	local t0 t1 ns kb
	t0=$(date +%s%N)
	if ! /usr/bin/time -v -o "$dir/time.txt" "$@" > /dev/null 2> "$dir/stderr.txt"; then
		echo "bench/run.sh: $name failed:" >&2
		cat "$dir/stderr.txt" "$dir/time.txt" >&2
		exit 1
	fi
	t1=$(date +%s%N)
	ns=$((t1 - t0))
	kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time.txt")
	if [ -z "${secs[$name]:-}" ] || [ "$ns" -lt "${secs[$name]}" ]; then
		secs[$name]=$ns rss[$name]=$kb
	fi
}

# measure NAME CMD...: runs CMD $runs times (once).
measure() {
	local i
	for ((i = 0; i < runs; i++)); do
		once "$@"
	done
	order+=("$1")
}

# corelat: the cores' cache line round trip now (bench/corelat.go).
corelat() { (cd "$repo" && go run bench/corelat.go 2>&1) || echo "?"; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $runs run(s) each, fastest shown" >&2
measure "cat > /dev/null" cat "$log"
measure "wc -l" wc -l "$log"
# All cores and one, run by turns: the host's state changes from minute to
# minute (bench/corelat.go), and both rows of a ratio see the same ones.
before=$(corelat)
for ((i = 0; i < runs; i++)); do
	once "robowatch" "$bin" "${robots[@]}" -o json "$log"
	once "robowatch, 1 core" env GOMAXPROCS=1 "$bin" "${robots[@]}" -o json "$log"
done
order+=("robowatch" "robowatch, 1 core")
echo "cache line round trip between cores (bench/corelat.go): $before before those rows, $(corelat) after" >&2
measure "robowatch table" "$bin" "${robots[@]}" --width 100 "$log"
measure "robowatch .gz" "$bin" "${robots[@]}" -o json "$log.gz"
if [ $goaccess = yes ] && command -v goaccess > /dev/null; then
	measure "goaccess" goaccess "$log" --log-format=COMBINED -o "$dir/goaccess.json"
elif [ $goaccess = yes ]; then
	echo "goaccess is not installed (apt-get install -y goaccess): row skipped" >&2
fi

if [ $churn = yes ]; then
	printf '\n%s lines, %d MB (.gz %d MB), every line its own client (bench/churnlog.py), no robots.txt\n\n' \
		"$nlines" $((size / 1000000)) $((gzsize / 1000000))
else
	printf '\n%s lines, %d MB (.gz %d MB), %s client addresses, robots.txt from the generator\n\n' \
		"$nlines" $((size / 1000000)) $((gzsize / 1000000)) "$ips"
fi
printf '| %-18s | %9s | %12s | %9s | %-22s |\n' tool seconds lines/s "peak RSS" "robowatch vs this"
printf '|%s|%s|%s|%s|%s|\n' -------------------- ----------- -------------- ----------- ------------------------
rw=${secs[robowatch]}
for name in "${order[@]}"; do
	ns=${secs[$name]}
	ratio=$(awk -v a="$ns" -v b="$rw" 'BEGIN {
		if (a >= b) printf "%.1fx faster", a / b; else printf "%.1fx slower", b / a }')
	case $name in
	robowatch) ratio="-" ;;
	"robowatch .gz") ratio=$(awk -v a="$ns" -v b="$rw" 'BEGIN { printf ".gz takes %.2fx plain", a / b }') ;;
	esac
	printf '| %-18s | %9.3f | %12s | %6d MB | %-22s |\n' "$name" \
		"$(awk -v n="$ns" 'BEGIN { print n / 1e9 }')" \
		"$(awk -v l="$nlines" -v n="$ns" 'BEGIN { printf "%d", l / (n / 1e9) }')" \
		$((${rss[$name]} / 1024)) "$ratio"
done
