#!/usr/bin/env python3
"""Sequential `balance` calls against subject-wl for network.sh, run inside the load generator's namespace.

Each call opens a fresh TCP connection (as curl did in the thesis' measurements), sends
POST /api/<mode>/balance with the user's bearer token, reads the whole answer and closes. One JSON
object on stdout: calls, failures (anything but 200, or no answer within --timeout), p50/p99 of the
successful calls (ms), and what the answers said about the wire: the median number of downstream
HTTP exchanges per call (entries of the Wire-Bytes header, docs/operations.md), the endpoints they
named, and the median duration of each Server-Timing entry (for the `*_call` and `jwks_fetch`
entries that show where the round trips go). The token is read from the environment, never printed.

  balance.py HOST PORT MODE (--count N | --seconds S) [--timeout SECONDS]
"""
import argparse
import collections
import http.client
import json
import os
import re
import statistics
import sys
import time


def pct(values, p):
    if not values:
        return None
    v = sorted(values)
    i = max(1, int((len(v) * p + 99) // 100))
    return v[i - 1]


def entries(header):
    """Names of the comma-separated entries of a Server-Timing or Wire-Bytes header, with their params."""
    out = []
    for part in re.split(r",\s*(?=[A-Za-z0-9_.-]+(?:;|$))", header or ""):
        part = part.strip()
        if not part:
            continue
        fields = part.split(";")
        params = {}
        for f in fields[1:]:
            if "=" in f:
                k, val = f.split("=", 1)
                params[k.strip()] = val.strip().strip('"')
        out.append((fields[0].strip(), params))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("mode")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--timeout", type=float, default=15)
    a = ap.parse_args()
    headers = {"Authorization": "Bearer " + os.environ["BALANCE_TOKEN"], "Connection": "close"}
    times, failures, statuses = [], 0, collections.Counter()
    exchanges, endpoint_sets = [], collections.Counter()
    timing = collections.defaultdict(list)
    end = time.monotonic() + a.seconds
    n = 0
    while (a.count and n < a.count) or (a.seconds and time.monotonic() < end):
        n += 1
        t = time.perf_counter()
        try:
            c = http.client.HTTPConnection(a.host, a.port, timeout=a.timeout)
            c.request("POST", "/api/%s/balance" % a.mode, headers=headers)
            r = c.getresponse()
            r.read()
            elapsed = time.perf_counter() - t
            c.close()
        except (OSError, http.client.HTTPException) as e:
            failures += 1
            statuses[type(e).__name__] += 1
            continue
        statuses[str(r.status)] += 1
        if r.status != 200:
            failures += 1
            continue
        times.append(elapsed * 1000)
        wire = entries(r.getheader("Wire-Bytes"))
        exchanges.append(len(wire))
        endpoint_sets[" ".join(sorted("%s%s" % (name, p.get("desc", "")) for name, p in wire))] += 1
        for name, p in entries(r.getheader("Server-Timing")):
            if "dur" in p:
                try:
                    timing[name].append(float(p["dur"]))
                except ValueError:
                    pass
    json.dump(
        {
            "calls": n,
            "failed": failures,
            "statuses": dict(statuses),
            "p50_ms": pct(times, 50),
            "p99_ms": pct(times, 99),
            "exchanges": statistics.median(exchanges) if exchanges else None,
            "endpoints": endpoint_sets.most_common(1)[0][0] if endpoint_sets else "",
            "server_timing_ms": {k: round(statistics.median(v), 3) for k, v in sorted(timing.items())},
        },
        sys.stdout,
    )
    print()


if __name__ == "__main__":
    main()
