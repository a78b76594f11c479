#!/usr/bin/env python3
"""network.sh's report: from results.tsv, summary.md (round trips per mode and profile, then predicted and
measured p50 per RTT, with the deviation) and p50-vs-rtt.svg (measured p50 against RTT, one line per mode
and profile, the prediction dashed in the same colour). No plotting library: the SVG is written by hand.

  report.py RESULTS_TSV OUT_DIR
"""
import csv
import sys
from collections import defaultdict

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#843c39", "#7b4173"]


def main():
    path, out = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    if not rows:
        return
    lines = defaultdict(list)
    for r in rows:
        lines[(r["mode"], r["profile"])].append(r)
    rtts = sorted({float(r["rtt_ms"]) for r in rows})
    md = ["# Sequential `balance` with each workload on its own host", "",
          "Round trips on the critical path of one `balance` (model from the code paths / seen on the wire),",
          "and p50 in ms: predicted p50(0) + round trips x RTT / measured (deviation).", "",
          "| mode | profile | round trips (model / wire) | " + " | ".join("RTT %g ms" % r for r in rtts) + " |",
          "|---|---|---|" + "---|" * len(rtts)]
    for (mode, profile), rs in lines.items():
        by_rtt = {float(r["rtt_ms"]): r for r in rs}
        wire = sorted({r["wire_round_trips"] for r in rs})
        cells = []
        for t in rtts:
            r = by_rtt.get(t)
            if r is None:
                cells.append("")
            elif t == 0:
                cells.append("%s" % r["measured_ms"])
            else:
                cells.append("%s / %s (%+.0f %%)" % (r["predicted_ms"], r["measured_ms"], float(r["deviation_pct"])))
        md.append("| %s | %s | %s / %s | %s |" % (mode, profile, rs[0]["round_trips"], ", ".join(wire), " | ".join(cells)))
    md += ["", "![p50 against RTT](p50-vs-rtt.svg)", ""]
    open(out + "/summary.md", "w").write("\n".join(md))

    # the plot
    w, h, left, right, top, bottom = 760, 460, 60, 200, 20, 50
    xmax = max(rtts) or 1
    ymax = max(max(float(r["measured_ms"] or 0), float(r["predicted_ms"] or 0)) for r in rows) * 1.05 or 1
    x = lambda v: left + (w - left - right) * v / xmax
    y = lambda v: h - bottom - (h - top - bottom) * v / ymax
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, h - bottom, w - right, h - bottom),
           '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top, left, h - bottom)]
    for t in rtts:
        svg.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (x(t), h - bottom + 15, t))
    for i in range(6):
        v = ymax * i / 5
        svg.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>' % (left - 5, y(v) + 4, v))
        svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (left, y(v), w - right, y(v)))
    svg.append('<text x="%d" y="%d" text-anchor="middle">RTT between hosts (ms)</text>' % ((left + w - right) / 2, h - 10))
    svg.append('<text x="15" y="%d" transform="rotate(-90 15 %d)" text-anchor="middle">balance p50 (ms)</text>' % (h / 2, h / 2))
    for k, ((mode, profile), rs) in enumerate(lines.items()):
        c = COLOURS[k % len(COLOURS)]
        rs = sorted(rs, key=lambda r: float(r["rtt_ms"]))
        meas = " ".join("%.1f,%.1f" % (x(float(r["rtt_ms"])), y(float(r["measured_ms"] or 0))) for r in rs)
        pred = " ".join("%.1f,%.1f" % (x(float(r["rtt_ms"])), y(float(r["predicted_ms"]))) for r in rs)
        svg.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>' % (meas, c))
        svg.append('<polyline points="%s" fill="none" stroke="%s" stroke-dasharray="4 3"/>' % (pred, c))
        ly = top + 14 * k + 10
        svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (w - right + 10, ly - 4, w - right + 30, ly - 4, c))
        svg.append('<text x="%d" y="%d">%s %s (n=%s)</text>' % (w - right + 35, ly, mode, profile, rs[0]["round_trips"]))
    ly = top + 14 * len(lines) + 14
    svg.append('<text x="%d" y="%d">solid: measured; dashed: predicted</text>' % (w - right + 10, ly))
    svg.append("</svg>")
    open(out + "/p50-vs-rtt.svg", "w").write("\n".join(svg))


if __name__ == "__main__":
    main()
