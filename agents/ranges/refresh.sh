#!/usr/bin/env bash
# Fetches the published crawler address ranges into this directory (or the
# one given), for embedding at the next build or for robowatch --ranges DIR:
# Google's own files, and ipverse/bot-ip-blocks' collection of the other
# operators' lists (CC0; see NOTICE.md), and keeps each list's history
# (*.history.tsv: every prefix with the first and last days a list held
# it). Needs curl and the internet, unless both sources are local, and Go
# (the history is written by agents/internal/rangehistory); builds and
# tests never run it.
#
# Usage: refresh.sh [--from-cloud-ips DIR] [--from-ipverse DIR] [OUTDIR]
#
#   --from-cloud-ips DIR  copy Google's three files from DIR, a checkout or
#                         a clone (bare or not) of
#                         github.com/jonhadfield/cloud-ips (googlebot.json,
#                         googlesc.json, googleutf.json), instead of fetching
#                         them from Google; a clone's history rebuilds
#                         Google's histories from every commit
#   --from-ipverse DIR    the same for crawlers.json of
#                         github.com/ipverse/bot-ip-blocks
#
# To rebuild the histories from scratch:
#   git clone --bare https://github.com/jonhadfield/cloud-ips /tmp/cloud-ips
#   git clone --bare https://github.com/ipverse/bot-ip-blocks /tmp/ipverse
#   agents/ranges/refresh.sh --from-cloud-ips /tmp/cloud-ips --from-ipverse /tmp/ipverse
# Without a clone, the fetched lists are added to the histories already here.
#
# The committed files are byte-for-byte copies of those two repositories at
# the commits NOTICE.md names: with clones at those commits this script
# writes them, and the histories, again unchanged. A file that does not have
# the expected shape (Google answered the old /search/apis/ipranges/ URLs,
# from April 2026, with 200 OK and an "Action needed" JSON without
# prefixes) is refused, and so is a list that holds no prefix or shrank to
# less than half of the one before it (a source answering with part of its
# list): then no file is replaced.
set -euo pipefail
cloudips= ipverse=
while [ $# -gt 0 ]; do
	case $1 in
	--from-cloud-ips) cloudips=$2; shift 2 ;;
	--from-ipverse) ipverse=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "refresh.sh: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
dir=${1:-$(dirname "$0")}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

base=https://developers.google.com/static/crawling/ipranges
# copy SRC FILE OUT: FILE of SRC's work tree, or of its HEAD for a bare clone.
copy() {
	if [ -f "$1/$2" ]; then
		cp "$1/$2" "$3"
	else
		git -C "$1" show "HEAD:$2" >"$3"
	fi
}
# clone SRC: SRC is a git clone, whose history rebuilds the histories.
clone() { git -C "$1" rev-parse --git-dir >/dev/null 2>&1; }

if [ -n "$cloudips" ]; then
	for f in googlebot.json googlesc.json googleutf.json; do
		copy "$cloudips" "$f" "$tmp/$f"
	done
else
	curl -fsSL "$base/common-crawlers.json" -o "$tmp/googlebot.json"
	curl -fsSL "$base/special-crawlers.json" -o "$tmp/googlesc.json"
	curl -fsSL "$base/user-triggered-fetchers.json" -o "$tmp/googleutf.json"
fi
if [ -n "$ipverse" ]; then
	copy "$ipverse" crawlers.json "$tmp/ipverse-crawlers.json"
else
	curl -fsSL https://raw.githubusercontent.com/ipverse/bot-ip-blocks/master/crawlers.json -o "$tmp/ipverse-crawlers.json"
fi

for f in googlebot.json googlesc.json googleutf.json; do
	if ! grep -q '"creationTime"' "$tmp/$f" || ! grep -Eq '"ipv[46]Prefix"' "$tmp/$f"; then
		echo "refresh.sh: $f has no creationTime or no prefixes; nothing replaced:" >&2
		head -c 300 "$tmp/$f" >&2
		exit 1
	fi
done
if ! grep -q '"services"' "$tmp/ipverse-crawlers.json"; then
	echo "refresh.sh: ipverse-crawlers.json has no services; nothing replaced" >&2
	exit 1
fi

# The histories: rebuilt from a clone's commits, else the new lists added
# to the ones here (refused if a list is empty or shrank by half).
cp "$dir"/*.history.tsv "$tmp"/ 2>/dev/null || true
hist=(-out "$tmp")
if [ -n "$cloudips" ] && clone "$cloudips"; then hist+=(-cloud-ips "$(cd "$cloudips" && pwd)"); fi
if [ -n "$ipverse" ] && clone "$ipverse"; then hist+=(-ipverse "$(cd "$ipverse" && pwd)"); fi
if ! (cd "$root" && go run ./agents/internal/rangehistory "${hist[@]}"); then
	echo "refresh.sh: the histories were not written; nothing replaced" >&2
	exit 1
fi
mv "$tmp"/*.json "$tmp"/*.history.tsv "$dir"/
echo "refreshed $dir: googlebot.json googlesc.json googleutf.json ipverse-crawlers.json and their histories (*.history.tsv)"
