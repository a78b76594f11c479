#!/usr/bin/env python3
"""The link between network.sh's hosts: one TUN interface per host, and this process forwarding every
IPv4 packet from one host to the host its destination address names, after a one-way delay, with
optional jitter, loss and a rate limit per receiving host. It does what tc netem would do on each host's
interface, in user space, for kernels built without netem (CONFIG_NET_SCH_NETEM); packets to an address
that is not one of the hosts are dropped, so nothing leaves the hosts.

TUN interfaces carry whole IP packets with their checksums computed and no segmentation offload, so a
packet is forwarded as it was written. Every packet crosses the switch once: a round trip between two
hosts costs twice the one-way delay.

  switch.py SETTINGS NAME=ADDRESS...   creates a TUN interface NAME per host, prints "ready" when they
                                       exist (network.sh then moves each into its host's namespace),
                                       and forwards until SIGTERM. SETTINGS is a file of
                                       "delay_ms jitter_ms loss_pct rate_mbit" read again on SIGHUP.
Statistics on exit (stderr): packets forwarded, dropped by loss, dropped for an unknown address. On
SIGUSR1 it writes SETTINGS.stats: "forwarded lost syn client_hello", the last two counting TCP connection
opens (SYN without ACK) and TLS ClientHello records among the forwarded packets: a capture's count of the
handshakes, independent of what the workloads report.
"""
import fcntl
import heapq
import os
import random
import select
import signal
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def open_tun(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def main():
    settings_file = sys.argv[1]
    by_addr, fds = {}, []
    for spec in sys.argv[2:]:
        name, address = spec.split("=")
        fd = open_tun(name)
        fds.append(fd)
        by_addr[bytes(int(x) for x in address.split("."))] = fd
    settings = {"delay": 0.0, "jitter": 0.0, "loss": 0.0, "rate": 0.0}

    def load(*_):
        with open(settings_file) as f:
            d, j, l, r = (float(x) for x in f.read().split())
        settings.update(delay=d / 1000, jitter=j / 1000, loss=l / 100, rate=r * 1e6 / 8)

    stop = []
    counts = {"forwarded": 0, "lost": 0, "syn": 0, "hello": 0}

    def stats(*_):
        with open(settings_file + ".stats", "w") as f:
            f.write("%(forwarded)d %(lost)d %(syn)d %(hello)d\n" % counts)

    load()
    signal.signal(signal.SIGUSR1, stats)
    signal.signal(signal.SIGHUP, load)
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    print("ready", flush=True)
    queue, seq = [], 0
    busy_until = {fd: 0.0 for fd in fds}  # per receiving host, for the rate limit
    unknown = 0
    while not stop:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, out, packet = heapq.heappop(queue)
            try:
                os.write(out, packet)
                counts["forwarded"] += 1
            except OSError:
                pass  # the host's interface is down or gone: as a cable pulled out
        timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else 0.5
        try:
            ready, _, _ = select.select(fds, [], [], timeout)
        except InterruptedError:
            continue
        now = time.monotonic()
        for fd in ready:
            while True:
                try:
                    packet = os.read(fd, 65536)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    break
                if len(packet) < 20 or packet[0] >> 4 != 4:
                    continue  # IPv4 only (IPv6 is off on the hosts)
                out = by_addr.get(packet[16:20])
                if out is None:
                    unknown += 1
                    continue
                if settings["loss"] and random.random() < settings["loss"]:
                    counts["lost"] += 1
                    continue
                if packet[9] == 6:  # TCP
                    tcp = packet[(packet[0] & 0x0F) * 4 :]
                    if len(tcp) >= 14 and tcp[13] & 0x12 == 0x02:
                        counts["syn"] += 1
                    payload = tcp[(tcp[12] >> 4) * 4 :] if len(tcp) >= 13 else b""
                    if len(payload) > 5 and payload[0] == 22 and payload[5] == 1:
                        counts["hello"] += 1
                due = now + settings["delay"]
                if settings["jitter"]:
                    due = max(now, due + random.uniform(-settings["jitter"], settings["jitter"]))
                if settings["rate"]:
                    start = max(now, busy_until[out])
                    busy_until[out] = start + len(packet) / settings["rate"]
                    due = max(due, busy_until[out] + settings["delay"])
                seq += 1
                if due <= now and not queue:
                    try:
                        os.write(out, packet)
                        counts["forwarded"] += 1
                    except OSError:
                        pass
                else:
                    heapq.heappush(queue, (due, seq, out, packet))
    print("switch: forwarded %d, lost %d, unknown address %d" % (counts["forwarded"], counts["lost"], unknown), file=sys.stderr)


if __name__ == "__main__":
    main()
