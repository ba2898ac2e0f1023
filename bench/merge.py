#!/usr/bin/env python3
"""Merges benchmark CSVs (impl,op,ranks,bytes,avg_us) and prints one table per (op, ranks) with the ratios
Tutti / Open MPI: tutti-shm and tutti-inproc vs openmpi-vader (shared memory), tutti-tcp vs openmpi-tcp, tutti-shm
vs openmpi-vader-mt and tutti-tcp vs openmpi-tcp-mt (Open MPI at MPI_THREAD_MULTIPLE, Tutti's level); and for
the mpi layer (tutti-mpi-inproc, -shm, -tcp, from tutti bench mpi-pingpong / mpi-allreduce) its overhead over
Tutti's own API on the same transport (mpi/tutti for inproc, mpi-shm/shm, mpi-tcp/tcp), and mpi/vader, mpi-shm/vader.
When a cell has several rows (repeated runs), the table shows their median and notes the spread. When the runs are
numbered (compare.sh --repeat names its CSVs IMPL-OP-rN.csv), each ratio column gets two more: "/round", the
median over the rounds of the ratio of the two runs of one round, which ran one after the other, and "/best", the
ratio of the two sides' fastest runs. The host's speed of shared-memory traffic changes between two levels for
seconds to minutes at a time (both libraries see it, and it may change within a run), so two medians taken from
different runs may come from different levels; the fastest run of each side is the one most likely at the faster.

    merge.py [--merged FILE] [--sizes B1,B2,...] [--markdown] CSV...

--sizes prints only those message sizes; --markdown prints Markdown tables (for RESULTS.md).

A ratio above 1 means Tutti takes longer per operation (for bandwidth, avg_us is the time per message, so the
ratio is Open MPI's MB/s over Tutti's). Missing runs show as "-". Standard library only.

When the CSVs hold more than one form of an exchange (alltoall, alltoall_init, alltoall_channel; allreduce,
allreduce_init), a further table per (family, ranks) puts the forms side by side, with each build-once form's
speed-up over the per-call form of the same impl (per-call avg_us / form avg_us: > 1 means the form is faster).
"""
import csv
import math
import os
import re
import sys
from collections import defaultdict

COLUMNS = ["impl", "op", "ranks", "bytes", "avg_us"]
# (tutti impl, openmpi impl, ratio column title)
PAIRS = [("tutti-shm", "openmpi-vader", "shm/vader"), ("tutti-inproc", "openmpi-vader", "inproc/vader"),
         ("tutti-tcp", "openmpi-tcp", "tcp/tcp"), ("tutti-mpi-inproc", "tutti-inproc", "mpi/tutti"),
         ("tutti-mpi-inproc", "openmpi-vader", "mpi/vader"), ("tutti-mpi-shm", "tutti-shm", "mpi-shm/shm"),
         ("tutti-mpi-shm", "openmpi-vader", "mpi-shm/vader"), ("tutti-mpi-tcp", "tutti-tcp", "mpi-tcp/tcp"),
         ("tutti-shm", "openmpi-vader-mt", "shm/vader-mt"), ("tutti-tcp", "openmpi-tcp-mt", "tcp/tcp-mt")]
IMPL_ORDER = ["openmpi-vader", "openmpi-vader-mt", "tutti-shm", "tutti-mpi-shm", "tutti-inproc", "tutti-mpi-inproc",
              "openmpi-tcp", "openmpi-tcp-mt", "tutti-tcp", "tutti-mpi-tcp"]
OP_ORDER = ["pingpong", "bandwidth", "barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather",
            "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce", "allreduce", "reduce_scatter",
            "reduce_scatter_block", "scan", "exscan", "allreduce_init", "alltoall_init", "alltoall_channel"]
LARGE_MESSAGE_BYTES = 8192
# per-call op -> its build-once forms
FAMILIES = {"alltoall": ["alltoall_init", "alltoall_channel"], "allreduce": ["allreduce_init"]}


def run_number(path):
    """The round of a CSV named IMPL-OP-rN.csv (compare.sh --repeat), or None."""
    m = re.search(r"-r(\d+)\.csv$", os.path.basename(path))
    return int(m.group(1)) if m else None


def read_rows(paths):
    rows = []
    for path in paths:
        run = run_number(path)
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                continue
            if header != COLUMNS:
                sys.exit(f"merge.py: {path}: header {header}, expected {COLUMNS}")
            for line, r in enumerate(reader, start=2):
                if len(r) != len(COLUMNS):
                    sys.exit(f"merge.py: {path}:{line}: {r}, expected {len(COLUMNS)} columns")
                rows.append({"impl": r[0], "op": r[1], "ranks": int(r[2]), "bytes": int(r[3]),
                             "avg_us": float(r[4]), "run": run})
    return rows


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt(v, width, digits=2):
    return f"{v:>{width}.{digits}f}" if v is not None else f"{'-':>{width}}"


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def print_tables(rows, out=sys.stdout, only_sizes=None, markdown=False):
    runs = defaultdict(lambda: defaultdict(list))  # (op, ranks) -> {(impl, bytes): [avg_us, ...]}
    for r in rows:
        runs[(r["op"], r["ranks"])][(r["impl"], r["bytes"])].append(r["avg_us"])
    table = {k: {c: median(v) for c, v in cells.items()} for k, cells in runs.items()}
    by_round = defaultdict(dict)  # (op, ranks, impl, bytes) -> {run: avg_us}
    for r in rows:
        if r["run"] is not None:
            by_round[(r["op"], r["ranks"], r["impl"], r["bytes"])][r["run"]] = r["avg_us"]

    def round_ratio(op, ranks, tutti, ompi, b):
        """The median of the per-round ratios, when at least two rounds have both runs."""
        t, o = by_round.get((op, ranks, tutti, b), {}), by_round.get((op, ranks, ompi, b), {})
        paired = [t[n] / o[n] for n in t if n in o and o[n] > 0]
        return median(paired) if len(paired) > 1 else None

    def best_ratio(op, ranks, tutti, ompi, b):
        """The ratio of the fastest runs, when both sides have at least two numbered runs."""
        t, o = by_round.get((op, ranks, tutti, b), {}), by_round.get((op, ranks, ompi, b), {})
        return min(t.values()) / min(o.values()) if len(t) > 1 and len(o) > 1 and min(o.values()) > 0 else None

    def op_key(k):
        return (OP_ORDER.index(k[0]) if k[0] in OP_ORDER else len(OP_ORDER), k[0], k[1])

    def row(values, widths):
        if markdown:
            return "| " + " | ".join(v.strip() for v in values) + " |"
        return "".join(f"{v:>{w}}" for v, w in zip(values, widths))

    for key in sorted(table, key=op_key):
        op, ranks = key
        cells = table[key]
        impls = [i for i in IMPL_ORDER if any(i == c[0] for c in cells)]
        impls += sorted({c[0] for c in cells} - set(impls))
        pairs = [p for p in PAIRS if p[0] in impls]
        sizes = sorted({c[1] for c in cells if only_sizes is None or c[1] in only_sizes})
        if not sizes:
            continue
        rounds = [p for p in pairs if any(round_ratio(op, ranks, p[0], p[1], b) is not None for b in sizes)]
        title = (f"{op}, ranks={ranks}: avg_us per operation"
                 + (" (per message; MB/s = bytes / avg_us)" if op == "bandwidth" else "")
                 + "; ratio = tutti / openmpi, > 1 means Tutti is slower")
        print(f"\n#### {title}\n" if markdown else f"\n== {title}", file=out)
        widths = [10] + [max(15, len(i) + 2) for i in impls] + [14] * len(pairs) + [20, 20] * len(rounds)
        print(row(["bytes"] + impls + [p[2] for p in pairs]
                  + [p[2] + suffix for p in rounds for suffix in ("/round", "/best")], widths), file=out)
        if markdown:
            print("|" + "---:|" * len(widths), file=out)
        ratios = {name: {"small": [], "large": []}
                  for name in [p[2] for p in pairs] + [p[2] + x for p in rounds for x in ("/round", "/best")]}
        for b in sizes:
            values = [str(b)] + [fmt(cells.get((i, b)), w, 3) for i, w in zip(impls, widths[1:])]
            for tutti, ompi, name in pairs:
                t, o = cells.get((tutti, b)), cells.get((ompi, b))
                ratio = t / o if t is not None and o else None
                if ratio is not None:
                    ratios[name]["large" if b > LARGE_MESSAGE_BYTES else "small"].append(ratio)
                values.append(fmt(ratio, 14))
            for tutti, ompi, name in rounds:
                for suffix, how in (("/round", round_ratio), ("/best", best_ratio)):
                    ratio = how(op, ranks, tutti, ompi, b)
                    if ratio is not None:
                        ratios[name + suffix]["large" if b > LARGE_MESSAGE_BYTES else "small"].append(ratio)
                    values.append(fmt(ratio, 20))
            print(row(values, widths), file=out)
        if markdown:
            print(file=out)
        repeats = max(len(v) for v in runs[key].values())
        if repeats > 1:
            spread = defaultdict(float)
            for (impl, b), v in runs[key].items():
                if len(v) > 1 and min(v) > 0 and b in sizes:
                    spread[impl] = max(spread[impl], max(v) / min(v) - 1)
            print("   median of up to %d runs; largest spread (max/min - 1) per impl: %s" % (repeats, ", ".join(
                f"{i} {100 * spread[i]:.0f}%" for i in impls if i in spread)), file=out)
        for name, parts in ratios.items():
            small, large = geomean(parts["small"]), geomean(parts["large"])
            print(f"   {name}: geometric mean of ratios <= 8 KiB {fmt(small, 0)}, > 8 KiB {fmt(large, 0)}",
                  file=out)


def print_family_tables(rows, out=sys.stdout, only_sizes=None, markdown=False):
    runs = defaultdict(list)  # (op, ranks, impl, bytes) -> [avg_us, ...]
    for r in rows:
        runs[(r["op"], r["ranks"], r["impl"], r["bytes"])].append(r["avg_us"])
    cell = {k: median(v) for k, v in runs.items()}
    for base, forms in FAMILIES.items():
        for ranks in sorted({k[1] for k in cell if k[0] == base}):
            present = [f for f in forms if any(k[0] == f and k[1] == ranks for k in cell)]
            if not present:
                continue
            ops = [base] + present
            impls = [i for i in IMPL_ORDER if any(k[2] == i and k[1] == ranks and k[0] in ops for k in cell)]
            impls += sorted({k[2] for k in cell if k[1] == ranks and k[0] in ops} - set(impls))
            columns = [(i, o) for i in impls for o in ops if any(k[:3] == (o, ranks, i) for k in cell)]
            speedups = [(i, o) for i, o in columns if o != base and (base, ranks, i) in {k[:3] for k in cell}]
            sizes = sorted({k[3] for k in cell if k[0] in ops and k[1] == ranks
                            and (only_sizes is None or k[3] in only_sizes)})
            title = (f"{base} forms, ranks={ranks}: avg_us per operation; x = {base} avg_us / form avg_us of the "
                     f"same impl, > 1 means the build-once form is faster")
            print(f"\n#### {title}\n" if markdown else f"\n== {title}", file=out)
            heads = ["bytes"] + [f"{i} {o}" for i, o in columns] + [f"x {i} {o}" for i, o in speedups]
            widths = [10] + [max(15, len(h) + 2) for h in heads[1:]]

            def line(values):
                if markdown:
                    return "| " + " | ".join(v.strip() for v in values) + " |"
                return "".join(f"{v:>{w}}" for v, w in zip(values, widths))
            print(line(heads), file=out)
            if markdown:
                print("|" + "---:|" * len(widths), file=out)
            for b in sizes:
                values = [str(b)] + [fmt(cell.get((o, ranks, i, b)), w, 3) for (i, o), w in zip(columns, widths[1:])]
                for (i, o), w in zip(speedups, widths[1 + len(columns):]):
                    per_call, form = cell.get((base, ranks, i, b)), cell.get((o, ranks, i, b))
                    values.append(fmt(per_call / form if per_call is not None and form else None, w))
                print(line(values), file=out)


def main(argv):
    merged = None
    only_sizes = None
    markdown = False
    paths = []
    i = 0
    while i < len(argv):
        if argv[i] == "--merged" and i + 1 < len(argv):
            merged = argv[i + 1]
            i += 2
        elif argv[i] == "--sizes" and i + 1 < len(argv):
            only_sizes = {int(x) for x in argv[i + 1].split(",") if x}
            i += 2
        elif argv[i] == "--markdown":
            markdown = True
            i += 1
        else:
            paths.append(argv[i])
            i += 1
    if not paths:
        sys.exit(__doc__)
    rows = read_rows(paths)
    if merged:
        with open(merged, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(COLUMNS)
            for r in rows:
                w.writerow([r["impl"], r["op"], r["ranks"], r["bytes"], f"{r['avg_us']:.3f}"])
    print_tables(rows, only_sizes=only_sizes, markdown=markdown)
    print_family_tables(rows, only_sizes=only_sizes, markdown=markdown)


if __name__ == "__main__":
    main(sys.argv[1:])
