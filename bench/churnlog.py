#!/usr/bin/env python3
"""churnlog.py - a high-churn Combined log: every line its own client.

Usage:
    churnlog.py LINES OUTPUT [--seed N] [--rotators N]

What a botnet, a CDN edge or a User-agent-rotating scraper writes: LINES
lines, each from a distinct (address, User-agent) pair. Addresses are
spread over the IPv4 space (about 1 in 50 is an IPv6 address); User-agents
are current browser strings with per-line build numbers, so nearly every string
is new; --rotators addresses (default 200) each send 100 of the lines with
a fresh User-agent every time, 10 a second, as a rotating scraper does.
Timestamps run over 24 hours. Same arguments give the same bytes.
"""
import argparse
import random
import sys
import time

TEMPLATES = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.{b}.{c} Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_{m}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{safari}.{m} Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:{firefox}.0) Gecko/20100101 Firefox/{firefox}.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS {safari}_{m} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/{b}.0.0.{c}]",
    "Mozilla/5.0 (Linux; Android {android}; SM-G{b}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.{b}.{c} Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{chrome}.0.{b}.{c} Safari/537.36 Edg/{chrome}.0.{c}.{m}",
]
PATHS = ["/", "/index.html", "/blog/", "/products/{n}", "/search?q={n}", "/about",
         "/static/app.js", "/img/{n}.jpg", "/api/items/{n}", "/wp-login.php"]
METHODS = ["GET"] * 18 + ["POST", "HEAD"]
STATUS = [200] * 16 + [301, 304, 404, 500]
START = 1710028800  # 2024-03-10T00:00:00Z


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lines", type=int)
    ap.add_argument("output")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rotators", type=int, default=200)
    a = ap.parse_args()
    r = random.Random(a.seed)
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    rot_lines = min(a.rotators * 100, a.lines // 2)
    plain = a.lines - rot_lines
    step = 86400.0 / max(plain, 1)
    events = []
    used = set()
    for n in range(plain):
        while True:
            if r.random() < 0.02:
                ip = "2001:db8:%x:%x::%x" % (r.randrange(65536), r.randrange(65536), r.randrange(1, 65536))
            else:
                ip = "%d.%d.%d.%d" % (r.randrange(1, 224), r.randrange(256), r.randrange(256), r.randrange(1, 255))
            if ip not in used and not ip.startswith("203.0."):
                used.add(ip)
                break
        events.append((START + n * step, ip))
    used = None
    for i in range(rot_lines // 100 if rot_lines else 0):
        ip = "203.0.%d.%d" % (i // 250, i % 250 + 1)
        t0 = START + r.randrange(86000)
        events.extend((t0 + k * 0.1, ip) for k in range(100))
    events.sort()
    w = out.write
    for t, ip in events:
        line(w, r, ip, t)
    if out is not sys.stdout:
        out.close()


def line(w, r, ip, t):
    ua = r.choice(TEMPLATES).format(chrome=r.randrange(110, 124), firefox=r.randrange(110, 124),
                                    safari=r.randrange(15, 18), android=r.randrange(10, 15),
                                    m=r.randrange(0, 8), b=r.randrange(1000, 9999), c=r.randrange(0, 300))
    path = r.choice(PATHS).format(n=r.randrange(100000))
    stamp = time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(t))
    w('%s - - [%s] "%s %s HTTP/1.1" %d %d "-" "%s"\n' % (
        ip, stamp, r.choice(METHODS), path, r.choice(STATUS), r.randrange(200, 60000), ua))


if __name__ == "__main__":
    main()
