#!/usr/bin/env bash
# Fetches the CDN edge ranges into this directory (or the one given), for
# embedding at the next build: Cloudflare's and Fastly's lists as the
# collection jonhadfield/cloud-ips keeps them (Apache-2.0; see NOTICE.md).
# Needs curl and the internet, unless the collection is local; builds and
# tests never run it.
#
# Usage: refresh.sh [--from-cloud-ips DIR] [OUTDIR]
set -euo pipefail
cloudips=
while [ $# -gt 0 ]; do
	case $1 in
	--from-cloud-ips) cloudips=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "refresh.sh: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
dir=${1:-$(dirname "$0")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in cloudflare.json fastly.json; do
	if [ -n "$cloudips" ]; then
		cp "$cloudips/$f" "$tmp/$f"
	else
		curl -fsSL "https://raw.githubusercontent.com/jonhadfield/cloud-ips/main/$f" -o "$tmp/$f"
	fi
	# A list of CIDR blocks, or nothing is replaced.
	if ! grep -Eq '"[0-9a-f:.]+/[0-9]+"' "$tmp/$f"; then
		echo "refresh.sh: $f holds no address ranges; nothing replaced" >&2
		exit 1
	fi
done
mv "$tmp"/*.json "$dir"/
echo "refreshed $dir: cloudflare.json fastly.json"
