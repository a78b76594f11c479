#!/usr/bin/env python3
"""Deposit load with Idempotency-Key retries for deploy/fault-it/run.sh (Python 3 standard library only).

  load.py run --base URL --idp URL --users user0091,... --out DIR [--interval S] [--deadline-ms MS]
      One worker per (user, mode): every worker deposits a random amount under a new Idempotency-Key,
      retries the same key and amount until an answer is 2xx, then waits for its next tick. Every
      answer (status, problem code, latency) goes to DIR/answers.jsonl, every acknowledged deposit to
      DIR/acks.jsonl. Before the load it reads each user's balance; when DIR/stop exists it stops taking
      new keys, retries the open ones until acknowledged (at most --drain seconds) and reads each
      user's balance again (DIR/balances.json).
  load.py report --out DIR --faults FILE --db-keys FILE --deadline-ms MS --margin-ms MS --summary FILE
      Checks the run against the faults the driver recorded (see run.sh) and writes the summary.
      Exit status 1 when a check fails.

A request carries Spiffeidt-Timeout-Ms (its deadline) and the client waits deadline + 10 s, so a slow
answer is measured rather than cut short.
"""
import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

MODES = ["dvid", "id-mode", "anon-mode", "lsvid"]


def token(idp, user):
    data = urllib.parse.urlencode({"username": user, "password": "password"}).encode()
    with urllib.request.urlopen(idp + "/dev/token", data=data, timeout=30) as r:
        return json.load(r)["access_token"]


def post(url, bearer, body, headers, timeout):
    """One POST; answers (status, parsed JSON body or None). Status 0: no HTTP answer at all."""
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else b"", method="POST")
    req.add_header("Authorization", "Bearer " + bearer)
    req.add_header("Content-Type", "application/json")
    for k, v in headers.items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"null")
        except ValueError:
            return e.code, None
    except (OSError, urllib.error.URLError) as e:
        return 0, {"code": "CLIENT_" + type(getattr(e, "reason", e)).__name__}


class Recorder:
    def __init__(self, out):
        self.lock = threading.Lock()
        self.answers = open(os.path.join(out, "answers.jsonl"), "a", buffering=1)
        self.acks = open(os.path.join(out, "acks.jsonl"), "a", buffering=1)

    def answer(self, rec):
        with self.lock:
            self.answers.write(json.dumps(rec) + "\n")

    def ack(self, rec):
        with self.lock:
            self.acks.write(json.dumps(rec) + "\n")


def balance(args, user, tok, until):
    """The user's balance through LSVID, retried until it answers 2xx (or `until` passes)."""
    while time.time() < until:
        status, body = post(args.base + "/api/lsvid/balance", tok, None, {}, args.deadline_ms / 1000 + 10)
        if 200 <= status < 300:
            return body["balance"]
        time.sleep(0.5)
    raise SystemExit("load.py: no balance for %s" % user)


def worker(args, rec, run_id, user, mode, tokens, stop_file, drain_until):
    n = 0
    pending = None
    headers = {"Spiffeidt-Timeout-Ms": str(args.deadline_ms)}
    url = "%s/api/%s/deposit" % (args.base, mode)
    rng = random.Random(hash((run_id, user, mode)))
    next_tick = time.time()
    while True:
        stopping = os.path.exists(stop_file)
        if pending is None:
            if stopping:
                return
            time.sleep(max(0.0, next_tick - time.time()))
            next_tick = max(next_tick + args.interval, time.time())
            n += 1
            pending = {"key": "%s-%s-%s-%d" % (run_id, user, mode, n), "amount": rng.randint(1, 100), "attempt": 0}
        elif stopping and time.time() > drain_until[0]:
            return
        pending["attempt"] += 1
        h = dict(headers)
        h["Idempotency-Key"] = '"%s"' % pending["key"]
        start = time.time()
        status, body = post(url, tokens[user], {"amount": pending["amount"]}, h, args.deadline_ms / 1000 + 10)
        end = time.time()
        code = body.get("code") if isinstance(body, dict) else None
        rec.answer({"t": round(start, 3), "ms": round((end - start) * 1000, 1), "status": status, "code": code,
                    "user": user, "mode": mode, "key": pending["key"], "attempt": pending["attempt"]})
        if 200 <= status < 300:
            rec.ack({"t": round(end, 3), "user": user, "mode": mode, "key": pending["key"],
                     "amount": pending["amount"], "balance": body.get("balance"), "attempts": pending["attempt"]})
            pending = None
        elif status == 401:
            tokens[user] = token(args.idp, user)
        elif status == 422 or (400 <= status < 500 and pending["attempt"] > 50):
            # a mismatch can only be a bug: leave the key (the report fails on every 4xx)
            pending = None
        else:
            time.sleep(args.backoff)


def run(args):
    os.makedirs(args.out, exist_ok=True)
    users = args.users.split(",")
    run_id = "fault%d" % int(time.time())
    tokens = {u: token(args.idp, u) for u in users}
    initial = {u: balance(args, u, tokens[u], time.time() + 120) for u in users}
    rec = Recorder(args.out)
    stop_file = os.path.join(args.out, "stop")
    drain_until = [float("inf")]
    threads = []
    for i, user in enumerate(users):
        for mode in MODES:
            t = threading.Thread(target=worker, args=(args, rec, run_id, user, mode, tokens, stop_file, drain_until),
                                 daemon=True)
            t.start()
            threads.append(t)
    with open(os.path.join(args.out, "started"), "w") as f:
        f.write(run_id + "\n")
    while not os.path.exists(stop_file):
        time.sleep(0.2)
    drain_until[0] = time.time() + args.drain
    for t in threads:
        t.join()
    final = {u: balance(args, u, tokens[u], time.time() + 60) for u in users}
    with open(os.path.join(args.out, "balances.json"), "w") as f:
        json.dump({"run": run_id, "initial": initial, "final": final, "drained": time.time() <= drain_until[0]}, f)


def read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def report(args):
    answers = sorted(read_jsonl(os.path.join(args.out, "answers.jsonl")), key=lambda a: a["t"])
    acks = read_jsonl(os.path.join(args.out, "acks.jsonl"))
    faults = read_jsonl(args.faults)
    with open(os.path.join(args.out, "balances.json")) as f:
        balances = json.load(f)
    limit = args.deadline_ms + args.margin_ms
    lines, failures = [], []

    def check(ok, what):
        if not ok:
            failures.append(what)

    t0, t1 = answers[0]["t"], answers[-1]["t"]
    lines.append("load: %d workers (%d users x %d modes), %.0f s, %d requests (%.1f/s), %d deposits acknowledged"
                 % (len({(a["user"], a["mode"]) for a in answers}), len(balances["initial"]), len(MODES),
                    t1 - t0, len(answers), len(answers) / max(1.0, t1 - t0), len(acks)))
    by_status = {}
    for a in answers:
        by_status[a["status"]] = by_status.get(a["status"], 0) + 1
    lines.append("answers by status: " + ", ".join("%s: %d" % (k, v) for k, v in sorted(by_status.items())))
    slowest = max(answers, key=lambda a: a["ms"])
    lines.append("slowest answer: %.0f ms (%s %s, status %s); limit %d ms (deadline %d + margin %d)"
                 % (slowest["ms"], slowest["mode"], slowest["user"], slowest["status"], limit, args.deadline_ms,
                    args.margin_ms))
    check(slowest["ms"] <= limit, "an answer took %.0f ms > %d ms" % (slowest["ms"], limit))
    odd = [a for a in answers if not (200 <= a["status"] < 300 or a["status"] in (503, 504))]
    for a in odd[:5]:
        lines.append("  not 2xx/503/504: %s" % json.dumps(a))
    check(not odd, "%d answers neither 2xx nor a fast 503/504" % len(odd))

    lines.append("faults:")
    for f in faults:
        if f["kind"] == "kill":
            start, restart = f["killed"], f["restarted"]
            window = [a for a in answers if start <= a["t"] and a["t"] <= f.get("until", t1)]
            after = [a for a in window if a["t"] >= restart and 200 <= a["status"] < 300]
            back = {}
            for a in after:
                back.setdefault(a["mode"], a["t"] + a["ms"] / 1000)
            recovered = max(back.values()) if len(back) == len(MODES) else None
            outage = [a for a in window if recovered is None or a["t"] <= recovered]
            failed = [a for a in outage if not 200 <= a["status"] < 300]
            statuses = {}
            for a in failed:
                statuses[a["status"]] = statuses.get(a["status"], 0) + 1
            worst = max((a["ms"] for a in failed), default=0)
            if recovered is None:
                lines.append("  kill -9 %-12s down %.1f s, NOT back in every mode (back: %s)"
                             % (f["target"], restart - start, ",".join(sorted(back))))
                check(False, "%s: service not back in every mode" % f["target"])
                continue
            lines.append("  kill -9 %-12s down %.1f s, process up %.1f s after restart, service back in every mode"
                         " %.1f s after restart (%.1f s after the kill); during it %d answers, %d refused (%s),"
                         " slowest refusal %.0f ms"
                         % (f["target"], restart - start, f["up"] - restart, recovered - restart, recovered - start,
                            len(outage), len(failed),
                            ", ".join("%s: %d" % kv for kv in sorted(statuses.items())) or "none", worst))
            check(recovered - restart <= args.recover_s,
                  "%s: back %.1f s after restart > %d s" % (f["target"], recovered - restart, args.recover_s))
        elif f["kind"] == "spire":
            window = [a for a in answers if f["from"] <= a["t"] <= f["to"]]
            # a fault may allow some refusals (fresh X.509 sources need the agent at every request: 503)
            allowed = set(f.get("allowed", []))
            refused = [a for a in window if a["status"] in allowed]
            failed = [a for a in window if not 200 <= a["status"] < 300 and a["status"] not in allowed]
            lines.append("  %-40s %.1f s, %d answers, %d failed%s; %s"
                         % (f["what"], f["to"] - f["from"], len(window), len(failed),
                            ", %d refused with %s (allowed)" % (len(refused), "/".join(map(str, sorted(allowed))))
                            if allowed else "", f.get("note", "")))
            check(not failed, "%s: %d calls failed" % (f["what"], len(failed)))
            for a in failed[:3]:
                lines.append("    failed: %s" % json.dumps(a))

    # exactly once: every acknowledged deposit in the balance once, nothing else
    keys = {}
    for a in acks:
        keys.setdefault(a["key"], a)
    check(len(keys) == len(acks) or all(
        keys[a["key"]]["amount"] == a["amount"] for a in acks), "a key was acknowledged with two amounts")
    open_keys = {a["key"] for a in answers} - set(keys)
    lines.append("deposits: %d keys sent, %d acknowledged, %d never acknowledged (drain %s)"
                 % (len({a["key"] for a in answers}), len(keys), len(open_keys),
                    "complete" if balances["drained"] else "cut short"))
    check(not open_keys, "%d keys never acknowledged" % len(open_keys))
    for user in sorted(balances["initial"]):
        acked = sum(a["amount"] for a in keys.values() if a["user"] == user)
        n = sum(1 for a in keys.values() if a["user"] == user)
        delta = balances["final"][user] - balances["initial"][user]
        lines.append("  %s: %d deposits acknowledged, sum %d; balance %d -> %d (+%d)%s"
                     % (user, n, acked, balances["initial"][user], balances["final"][user], delta,
                        "" if delta == acked else "  MISMATCH"))
        check(delta == acked, "%s: balance grew by %d, acknowledged %d" % (user, delta, acked))
    with open(args.db_keys) as f:
        stored = {line.strip() for line in f if line.strip().startswith(balances["run"] + "-")}
    lines.append("idempotency_key rows of this run in PostgreSQL: %d (acknowledged keys: %d, in both: %d)"
                 % (len(stored), len(keys), len(stored & set(keys))))
    check(stored == set(keys), "stored keys and acknowledged keys differ (%d only stored, %d only acknowledged)"
          % (len(stored - set(keys)), len(set(keys) - stored)))

    lines.append("RESULT: " + ("PASSED" if not failures else "FAILED: " + "; ".join(failures)))
    text = "\n".join(lines) + "\n"
    with open(args.summary, "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0 if not failures else 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--base", required=True)
    r.add_argument("--idp", required=True)
    r.add_argument("--users", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--interval", type=float, default=0.5, help="seconds between a worker's new deposits")
    r.add_argument("--backoff", type=float, default=0.2, help="seconds before a retry")
    r.add_argument("--deadline-ms", type=int, default=5000)
    r.add_argument("--drain", type=float, default=90)
    s = sub.add_parser("report")
    s.add_argument("--out", required=True)
    s.add_argument("--faults", required=True)
    s.add_argument("--db-keys", required=True)
    s.add_argument("--deadline-ms", type=int, default=5000)
    s.add_argument("--margin-ms", type=int, default=2000)
    s.add_argument("--recover-s", type=int, default=180)
    s.add_argument("--summary", required=True)
    args = p.parse_args()
    if args.cmd == "run":
        run(args)
        return 0
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
