#!/usr/bin/env python3
"""../shared/tools/genlog.py, usable with large address pools.

Same arguments and, for pools up to 20,000 addresses, the same bytes. Two
things stop genlog.py on a pool the size of a busy site's (100,000
clients): random.choices re-adds the whole weight list of a class for every
session (hours for 10M lines), and crawlers take addresses from their real,
small blocks until none is left (it never ends). Here the cumulative
weights are computed once (random.choices gives the same draws with them),
and for pools over 20,000 each crawler block spans its whole /16.

Set GENLOG to use another copy of genlog.py.
"""
import argparse
import importlib.util
import itertools
import os
import random
import sys
import types

here = os.path.dirname(os.path.abspath(__file__))
path = os.environ.get("GENLOG") or os.path.join(here, "..", "..", "shared", "tools", "genlog.py")
spec = importlib.util.spec_from_file_location("genlog", path)
genlog = importlib.util.module_from_spec(spec)
spec.loader.exec_module(genlog)


class Random(random.Random):
    """random.Random whose choices(weights=...) keeps each long weight
    list's cumulative sums."""

    def __init__(self, x=None):
        super().__init__(x)
        self._cum = {}

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        if weights is not None and cum_weights is None and len(weights) > 32:
            cached = self._cum.get(id(weights))
            if cached is None or cached[0] is not weights:
                cached = (weights, list(itertools.accumulate(weights)))
                self._cum[id(weights)] = cached
            weights, cum_weights = None, cached[1]
        return super().choices(population, weights, cum_weights=cum_weights, k=k)


shim = types.ModuleType("random")
shim.__dict__.update(random.__dict__)
shim.Random = Random
genlog.random = shim

ap = argparse.ArgumentParser(add_help=False)
ap.add_argument("--ips", type=int, default=5000)
known, _ = ap.parse_known_args()
if known.ips > 20000:
    genlog.CRAWLERS = [
        (tok, ua, [(a, b, (0, 255)) for a, b, _ in blocks], w)
        for tok, ua, blocks, w in genlog.CRAWLERS
    ]

sys.argv[0] = path
genlog.main()
