#!/usr/bin/env bash
# Peak memory of robowatch as line length and log size grow: the bound is
# set by --max-clients, never by the log (issue 15). Each run streams a
# generated Combined log through a pipe (nothing is written to disk) whose
# User-agents are LEN bytes long (lines past 1 MiB are malformed by design,
# so 512K is the longest that reaches the detector) and distinct per client, from CLIENTS
# addresses in turn, until SIZE bytes; robowatch reads it with -o json and
# /usr/bin/time -v gives its peak RSS.
#
#   bash bench/longlines.sh [--clients N] [--sizes "100M 1G"] [--lens "256 16K 512K"]
#
# Needs python3 and /usr/bin/time (apt-get install -y time).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
clients=10000
sizes="100M 1G"
lens="256 16K 512K"
while [ $# -gt 0 ]; do
	case $1 in
	--clients) clients=$2; shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--lens) lens=$2; shift 2 ;;
	-h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench/longlines.sh: unknown flag $1" >&2; exit 2 ;;
	esac
done
if [ ! -x /usr/bin/time ]; then
	echo "bench/longlines.sh: /usr/bin/time is missing (apt-get install -y time)" >&2
	exit 1
fi

bin=$(mktemp -d)/robowatch
trap 'rm -rf "$(dirname "$bin")"' EXIT
(cd "$repo" && go build -o "$bin" .)

bytes() { numfmt --from=iec "$1"; }

gen() { # gen SIZE LEN CLIENTS: a Combined log on stdout
	python3 - "$1" "$2" "$3" <<'PY'
import sys
size, ua_len, clients = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
pad = "Mozilla/5.0 (compatible; LongBot/1.0; " + "x" * max(0, ua_len - 60)
out, written, i = sys.stdout.buffer, 0, 0
while written < size:
    c = i % clients
    line = ('10.%d.%d.%d - - [06/May/2024:%02d:%02d:%02d +0000] "GET /page/%d HTTP/1.1" 200 512 "-" "%s %d)"\n'
            % (c >> 16 & 255, c >> 8 & 255, c & 255, 9 + i // 3600 % 12, i // 60 % 60, i % 60, i, pad, c)).encode()
    out.write(line)
    written += len(line)
    i += 1
PY
}

printf '%-8s %-8s %10s %10s %12s\n' "size" "UA len" "lines" "seconds" "peak RSS"
for size in $sizes; do
	for len in $lens; do
		stats=$(mktemp)
		gen "$(bytes "$size")" "$(bytes "$len")" "$clients" |
			/usr/bin/time -v "$bin" -o json --progress never 2>"$stats" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["lines"])' >"$stats.lines"
		rss=$(awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2}' "$stats")
		wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$stats")
		printf '%-8s %-8s %10s %10s %9d MB\n' "$size" "$len" "$(cat "$stats.lines")" "$wall" $((rss / 1024))
		rm -f "$stats" "$stats.lines"
	done
done
