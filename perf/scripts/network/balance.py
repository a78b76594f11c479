#!/usr/bin/env python3
"""Sequential `balance` calls against subject-wl for network.sh, run inside the load generator's namespace.

Each call opens a fresh TCP connection (as curl did in the thesis' measurements), sends
POST /api/<mode>/balance with the user's bearer token, reads the whole answer and closes. With --rtts,
the calls go in rounds of --batch calls per round-trip time, the switch set to each in turn (its
settings file written, SIGHUP), so that every RTT's figures, RTT 0's included, come from the same minutes
of a machine whose other load changes. One JSON object per RTT on stdout (with "rtt_ms"): calls,
failures (anything but 200, or no answer within --timeout), p50/p99 of the
successful calls (ms), and what the answers said about the wire: the median number of downstream
HTTP exchanges per call (entries of the Wire-Bytes header, docs/operations.md), the endpoints they
named, and the median duration of each Server-Timing entry (for the `*_call` and `jwks_fetch`
entries that show where the round trips go). The token is read from the environment, never printed.

  balance.py HOST PORT MODE (--count N | --seconds S) [--timeout SECONDS]
             [--rtts 0,1,5 --batch 10 --switch SETTINGS_FILE:PID --link "JITTER LOSS RATE"]
"""
import argparse
import collections
import http.client
import json
import os
import re
import signal
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


class Series:
    """What the calls at one round-trip time gave."""

    def __init__(self):
        self.n, self.failures, self.times, self.elapsed = 0, 0, [], 0.0
        self.statuses, self.endpoint_sets = collections.Counter(), collections.Counter()
        self.exchanges, self.timing = [], collections.defaultdict(list)

    def call(self, a, headers):
        self.n += 1
        t = time.perf_counter()
        try:
            c = http.client.HTTPConnection(a.host, a.port, timeout=a.timeout)
            c.request("POST", "/api/%s/balance" % a.mode, headers=headers)
            r = c.getresponse()
            r.read()
            elapsed = time.perf_counter() - t
            c.close()
        except (OSError, http.client.HTTPException) as e:
            self.failures += 1
            self.statuses[type(e).__name__] += 1
            return
        self.statuses[str(r.status)] += 1
        if r.status != 200:
            self.failures += 1
            return
        self.times.append(elapsed * 1000)
        wire = entries(r.getheader("Wire-Bytes"))
        self.exchanges.append(len(wire))
        self.endpoint_sets[" ".join(sorted("%s%s" % (name, p.get("desc", "")) for name, p in wire))] += 1
        for name, p in entries(r.getheader("Server-Timing")):
            if "dur" in p:
                try:
                    self.timing[name].append(float(p["dur"]))
                except ValueError:
                    pass

    def summary(self, rtt):
        return {
            "rtt_ms": rtt,
            "calls": self.n,
            "failed": self.failures,
            "statuses": dict(self.statuses),
            "p50_ms": pct(self.times, 50),
            "p99_ms": pct(self.times, 99),
            "exchanges": statistics.median(self.exchanges) if self.exchanges else None,
            "endpoints": self.endpoint_sets.most_common(1)[0][0] if self.endpoint_sets else "",
            "server_timing_ms": {k: round(statistics.median(v), 3) for k, v in sorted(self.timing.items())},
        }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("host")
    ap.add_argument("port", type=int)
    ap.add_argument("mode")
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--timeout", type=float, default=15)
    ap.add_argument("--rtts", default="")
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--switch", default="")
    ap.add_argument("--link", default="0 0 0")
    a = ap.parse_args()
    headers = {"Authorization": "Bearer " + os.environ["BALANCE_TOKEN"], "Connection": "close"}
    rtts = [float(r) for r in a.rtts.split(",")] if a.rtts else [None]
    series = {r: Series() for r in rtts}

    def set_rtt(r):
        if r is None or not a.switch:
            return
        path, pid = a.switch.rsplit(":", 1)
        jitter, loss, rate = a.link.split()
        with open(path, "w") as f:
            f.write("%g %s %s %s\n" % (r / 2, jitter, loss, rate))
        os.kill(int(pid), signal.SIGHUP)
        time.sleep(0.05)

    # --seconds is per RTT: each RTT's calls take that long in all
    done = lambda s: (a.count and s.n >= a.count) or (a.seconds and s.elapsed >= a.seconds)
    while not all(done(s) for s in series.values()):
        for r in rtts:
            s = series[r]
            if done(s):
                continue
            set_rtt(r)
            for _ in range(a.batch if len(rtts) > 1 else 1):
                if done(s):
                    break
                t = time.monotonic()
                s.call(a, headers)
                s.elapsed += time.monotonic() - t
    for r in rtts:
        json.dump(series[r].summary(r), sys.stdout)
        print()


if __name__ == "__main__":
    main()
