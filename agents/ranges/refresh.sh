#!/usr/bin/env bash
# Fetches Google's published crawler address ranges into this directory (or
# the one given), for embedding at the next build or for robowatch --ranges
# DIR. Needs curl and the internet; builds and tests never run it.
set -euo pipefail
dir=${1:-$(dirname "$0")}
base=https://developers.google.com/static/search/apis/ipranges
curl -fsSL "$base/googlebot.json" -o "$dir/googlebot.json"
curl -fsSL "$base/special-crawlers.json" -o "$dir/googlesc.json"
curl -fsSL "$base/user-triggered-fetchers.json" -o "$dir/googleutf.json"
echo "refreshed $dir: googlebot.json googlesc.json googleutf.json"
