#!/usr/bin/env python3
"""dask_shards.py - robowatch on a Dask cluster: --shard I/N tasks, one merge.

Usage:
    python3 bench/dask_shards.py [--lines 3000000] [--shards 8] [--workers 2]
                                 [--dir /tmp/robowatch-dask] [--keep-cluster]

Starts a real Dask cluster on this machine (a dask-scheduler process and
--workers dask-worker processes, one thread each, talking over TCP as on
separate machines), generates a Combined log of --lines lines with
bench/genlog.py (once; kept in --dir), and then:

  1. submits --shards tasks to the cluster; task I runs
         robowatch --shard I/N -o json --top 0 --robots R LOG
     (every worker reads the whole log, as machines sharing a file system
     or each holding a copy would) and writes its part to --dir;
  2. the driver runs  robowatch merge -o json PART...  on the parts;
  3. for the check, one plain run  robowatch -o json --robots R LOG.

It prints the records, the wall time of each way, and whether the merged
report equals the single run's byte for byte (exit status 1 if not).

Needs python3-distributed (Debian) or `pip install distributed`, Go (to
build robowatch) and python3. Not run in CI: it takes minutes.
"""
import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def run_shard(robowatch, i, n, robots, log, out):
    """A Dask task: one shard of the log into one JSON part."""
    import subprocess as sp
    import time as t
    t0 = t.time()
    with open(out, "wb") as f:
        sp.run([robowatch, "--shard", "%d/%d" % (i, n), "-o", "json", "--top", "0",
                "--robots", robots, log], stdout=f, check=True)
    return out, t.time() - t0


def wait_for(path, seconds=30):
    end = time.time() + seconds
    while not os.path.exists(path):
        if time.time() > end:
            raise SystemExit("dask_shards.py: the scheduler did not start (no %s)" % path)
        time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=3000000)
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--ips", type=int, default=50000)
    ap.add_argument("--dir", default="/tmp/robowatch-dask")
    a = ap.parse_args()
    try:
        from distributed import Client
    except ImportError:
        # Debian's python3-distributed is for Debian's python3, which a
        # pyenv or virtualenv python3 earlier on PATH does not see.
        if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        raise SystemExit("dask_shards.py: needs Dask distributed (apt-get install -y python3-distributed)")

    os.makedirs(a.dir, exist_ok=True)
    robowatch = os.path.join(a.dir, "robowatch")
    subprocess.run(["go", "build", "-o", robowatch, "."], cwd=REPO, check=True)
    log = os.path.join(a.dir, "combined-%d.log" % a.lines)
    robots = log + ".robots.txt"
    if not os.path.exists(log) or not os.path.exists(robots):
        print("generating %s ..." % log, file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(HERE, "genlog.py"), str(a.lines), log + ".tmp",
                        "--ips", str(a.ips), "--robots-out", robots], check=True)
        os.rename(log + ".tmp", log)

    parts_dir = tempfile.mkdtemp(prefix="parts-", dir=a.dir)
    sched_file = os.path.join(parts_dir, "scheduler.json")
    procs = []
    try:
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                       "--host", "127.0.0.1", "--port", "0", "--dashboard-address", ":0",
                                       "--scheduler-file", sched_file],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(sched_file)
        for _ in range(a.workers):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                           "--scheduler-file", sched_file, "--nthreads", "1",
                                           "--no-dashboard", "--host", "127.0.0.1"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        client = Client(scheduler_file=sched_file, timeout=60)
        client.wait_for_workers(a.workers, timeout=60)

        t0 = time.time()
        futures = [client.submit(run_shard, robowatch, i, a.shards, robots, log,
                                 os.path.join(parts_dir, "part-%03d.json" % i), pure=False)
                   for i in range(1, a.shards + 1)]
        done = client.gather(futures)
        t_tasks = time.time() - t0
        merged = os.path.join(parts_dir, "merged.json")
        t1 = time.time()
        with open(merged, "wb") as f:
            subprocess.run([robowatch, "merge", "-o", "json"] + [p for p, _ in done], stdout=f, check=True)
        t_merge = time.time() - t1
        client.close()
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()

    single = os.path.join(parts_dir, "single.json")
    t2 = time.time()
    with open(single, "wb") as f:
        subprocess.run([robowatch, "-o", "json", "--robots", robots, log], stdout=f, check=True)
    t_single = time.time() - t2

    with open(single) as f:
        s = json.load(f)["summary"]
    equal = filecmp.cmp(single, merged, shallow=False)
    print("log:            %s (%d lines, %d records, %d clients, %d robots, %d violations, %d incidents)" % (
        log, s["lines"], s["records"], s["clients"], s["robots"], s["violations"], s["incidents"]))
    print("cluster:        1 dask-scheduler, %d dask-worker processes (1 thread each) on %d cores" % (
        a.workers, os.cpu_count()))
    print("dask, %2d tasks: %.2f s (slowest task %.2f s) + merge %.2f s = %.2f s" % (
        a.shards, t_tasks, max(d for _, d in done), t_merge, t_tasks + t_merge))
    print("single run:     %.2f s" % t_single)
    print("merged == single run, byte for byte: %s" % ("yes" if equal else "NO"))
    if equal:
        shutil.rmtree(parts_dir)
    else:
        print("parts and reports kept in %s" % parts_dir)
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())
