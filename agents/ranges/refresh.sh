#!/usr/bin/env bash
# Fetches the published crawler address ranges into this directory (or the
# one given), for embedding at the next build or for robowatch --ranges DIR:
# Google's own files, and ipverse/bot-ip-blocks' collection of the other
# operators' lists (CC0; see NOTICE.md). Needs curl and the internet, unless
# both sources are local; builds and tests never run it.
#
# Usage: refresh.sh [--from-cloud-ips DIR] [--from-ipverse DIR] [OUTDIR]
#
#   --from-cloud-ips DIR  copy Google's three files from DIR, a checkout of
#                         github.com/jonhadfield/cloud-ips (googlebot.json,
#                         googlesc.json, googleutf.json), instead of fetching
#                         them from Google
#   --from-ipverse DIR    copy crawlers.json from DIR, a checkout of
#                         github.com/ipverse/bot-ip-blocks, instead of
#                         fetching it from GitHub
#
# The committed files are byte-for-byte copies of those two repositories at
# the commits NOTICE.md names: with checkouts of those commits this script
# writes them again unchanged. A file that does not have the expected shape
# (Google answered the old /search/apis/ipranges/ URLs, from April 2026,
# with 200 OK and an "Action needed" JSON without prefixes) is refused, and
# no file is replaced unless all four are good.
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

base=https://developers.google.com/static/crawling/ipranges
if [ -n "$cloudips" ]; then
	for f in googlebot.json googlesc.json googleutf.json; do
		cp "$cloudips/$f" "$tmp/$f"
	done
else
	curl -fsSL "$base/common-crawlers.json" -o "$tmp/googlebot.json"
	curl -fsSL "$base/special-crawlers.json" -o "$tmp/googlesc.json"
	curl -fsSL "$base/user-triggered-fetchers.json" -o "$tmp/googleutf.json"
fi
if [ -n "$ipverse" ]; then
	cp "$ipverse/crawlers.json" "$tmp/ipverse-crawlers.json"
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
mv "$tmp"/*.json "$dir"/
echo "refreshed $dir: googlebot.json googlesc.json googleutf.json ipverse-crawlers.json"
