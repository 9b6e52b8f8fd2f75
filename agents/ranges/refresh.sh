#!/usr/bin/env bash
# Fetches the published crawler address ranges into this directory (or the
# one given), for embedding at the next build or for robowatch --ranges DIR:
# Google's own files, and ipverse/bot-ip-blocks' collection of the other
# operators' lists (CC0; see NOTICE.md). Needs curl and the internet;
# builds and tests never run it.
set -euo pipefail
dir=${1:-$(dirname "$0")}
base=https://developers.google.com/static/search/apis/ipranges
curl -fsSL "$base/googlebot.json" -o "$dir/googlebot.json"
curl -fsSL "$base/special-crawlers.json" -o "$dir/googlesc.json"
curl -fsSL "$base/user-triggered-fetchers.json" -o "$dir/googleutf.json"
curl -fsSL https://raw.githubusercontent.com/ipverse/bot-ip-blocks/master/crawlers.json -o "$dir/ipverse-crawlers.json"
echo "refreshed $dir: googlebot.json googlesc.json googleutf.json ipverse-crawlers.json"
