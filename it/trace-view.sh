#!/usr/bin/env bash
# The trace of `tutti run --trace` as a person sees it: serves a trace viewer (speedscope, from npm) and the trace on
# this machine, loads it in Debian's headless Chromium, and checks the page the browser rendered: the viewer took the
# file (its title names it, and it shows no import error) and shows one profile per rank's thread; a screenshot is
# kept.
#
#   it/trace-view.sh [--trace FILE] [--out DIR] [--no-install]
#
# Without --trace it makes one: bin/tutti run -n 4 --trace of tutti-examples' ChannelPipeline (collectives,
# point-to-point and a channel; tutti-examples must be built). Installs what is missing, explicitly: the Debian
# package chromium (apt-get, as root) and the npm package speedscope (pinned, into the state directory); with
# --no-install it skips (exit 0) when either is missing. Output: DIR (default /tmp/tutti-trace-view): the trace,
# the page's DOM (dom.html) and the screenshot (trace.png). Exit status 0 when the check passes, 1 when it fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SPEEDSCOPE_VERSION=1.25.0
STATE="${TUTTI_TRACE_VIEW_DIR:-/tmp/tutti-trace-view-tools}"
OUT=/tmp/tutti-trace-view
TRACE=""
INSTALL=1

usage() { sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
die() { echo "trace-view.sh: $*" >&2; exit 1; }
log() { printf '== %s\n' "$*" >&2; }

while (($#)); do
    case "$1" in
        --trace) TRACE="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        --no-install) INSTALL=0; shift ;;
        -h|--help) usage 0 ;;
        *) echo "trace-view.sh: unknown argument $1" >&2; usage 2 ;;
    esac
done

browser() { command -v chromium || command -v chromium-browser || true; }

if [ -z "$(browser)" ]; then
    if ((INSTALL == 0)); then log "no chromium: skipped"; exit 0; fi
    [ "$(id -u)" = 0 ] || die "chromium is missing and installing it needs root (apt-get install chromium)"
    log "installing chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
VIEWER="$STATE/node_modules/speedscope/dist/release"
if [ ! -f "$VIEWER/index.html" ]; then
    if ((INSTALL == 0)); then log "no speedscope: skipped"; exit 0; fi
    command -v npm >/dev/null || die "npm is missing (apt-get install npm)"
    log "installing speedscope@$SPEEDSCOPE_VERSION (npm)"
    mkdir -p "$STATE"
    npm install --silent --no-audit --no-fund --prefix "$STATE" "speedscope@$SPEEDSCOPE_VERSION" >/dev/null
fi
[ -f "$VIEWER/index.html" ] || die "speedscope has no $VIEWER/index.html"

mkdir -p "$OUT"
rm -f "$OUT/trace.json" "$OUT/dom.html" "$OUT/trace.png"
if [ -z "$TRACE" ]; then
    [ -d "$ROOT/tutti-examples/target/classes" ] || die "tutti-examples is not built (mvn -B -o package -DskipTests)"
    log "tutti run -n 4 --trace"
    (cd "$ROOT" && bin/tutti run -n 4 --trace "$OUT/trace.json" -cp tutti-examples/target/classes \
        dev.tutti.examples.ChannelPipeline 8 50 >/dev/null)
else
    cp "$TRACE" "$OUT/trace.json"
fi

# The viewer and the trace from one origin, on a free port of the loopback address.
SITE="$OUT/site"
rm -rf "$SITE"
cp -r "$VIEWER" "$SITE"
cp "$OUT/trace.json" "$SITE/trace.json"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$SITE" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$PORT/trace.json" >/dev/null 2>&1 && break
    sleep 0.1
done
URL="http://127.0.0.1:$PORT/index.html#profileURL=trace.json"
CHROME=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --window-size=1600,900
    --virtual-time-budget=15000)
log "loading the trace in headless $(basename "$(browser)")"
"$(browser)" "${CHROME[@]}" --dump-dom "$URL" >"$OUT/dom.html" 2>/dev/null
"$(browser)" "${CHROME[@]}" --screenshot="$OUT/trace.png" "$URL" >/dev/null 2>&1

# The check: the title the viewer gives a loaded file, no import error, one profile per rank's thread (the toolbar's
# "1/N"), each named after its rank's process track, and a screenshot that is not one plain colour.
python3 - "$OUT" "$OUT/trace.json" <<'PY'
import json, re, struct, sys, zlib
out, trace = sys.argv[1], sys.argv[2]
dom = open(out + "/dom.html", encoding="utf-8", errors="replace").read()
events = json.load(open(trace))["traceEvents"]
threads = {(e["pid"], e["tid"]) for e in events if e["ph"] == "X"}
problems = []
title = re.search(r"<title>(.*?)</title>", dom, re.S)
if not title or "trace.json" not in title.group(1):
    problems.append("the page's title does not name the trace: %r" % (title.group(1) if title else None))
for bad in ("Failed to import", "Something went wrong", "Unrecognized format"):
    if bad in dom:
        problems.append("the viewer says: " + bad)
count = re.search(r"\b1\s*/\s*(\d+)\b", re.sub(r"<[^>]+>", " ", dom))
if not count or int(count.group(1)) != len(threads):
    problems.append("the viewer shows %s profiles, expected %d (one per rank's thread)"
                    % (count.group(1) if count else "no", len(threads)))
text = re.sub(r"<[^>]+>", " ", dom)
for rank in sorted({e["pid"] for e in events if e["ph"] == "X"}):
    if "rank %d" % rank not in text:
        problems.append("no profile of rank %d in the viewer's list" % rank)
png = open(out + "/trace.png", "rb").read()
if png[:8] != b"\x89PNG\r\n\x1a\n":
    problems.append("no PNG screenshot")
else:
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = len(raw) // height
    colours = {raw[y * stride + 1 + x * 4:y * stride + 4 + x * 4] for y in range(0, height, 7)
               for x in range(0, width, 7) if 1 + x * 4 + 3 <= stride}
    if len(colours) < 8:
        problems.append("the screenshot is nearly one colour (%d colours)" % len(colours))
if problems:
    print("trace-view.sh: FAILED\n  " + "\n  ".join(problems))
    sys.exit(1)
print("trace-view.sh: the viewer shows the trace (%d events, %d threads); screenshot %s/trace.png"
      % (len(events), len(threads), out))
PY
