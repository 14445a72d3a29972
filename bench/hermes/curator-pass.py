"""Times Hermes Agent's own curator pass (agent.curator.apply_automatic_transitions) on a library
that bench/hermes-curator.ts generated. Our driver, not Hermes code: it imports the peer from
$HERMES_AGENT, points HERMES_HOME at the generated library, runs the first pass (it makes the
transitions) unless told the library already holds its result, then the steady pass (nothing to
do) several times. Wall and CPU (process_time) per pass. Prints one JSON line.

Usage: curator-pass.py HOME NOW_ISO STEADY_SAMPLES [--steady-only]"""

import json
import os
import sys
import time
from datetime import datetime, timezone

peer = os.environ["HERMES_AGENT"]
sys.path.insert(0, peer)
os.environ["HERMES_HOME"] = sys.argv[1]
now = datetime.fromisoformat(sys.argv[2].replace("Z", "+00:00")).astimezone(timezone.utc)
samples = int(sys.argv[3])
steady_only = "--steady-only" in sys.argv[4:]


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


started = time.perf_counter()
from agent import curator  # noqa: E402  (the peer's module, from $HERMES_AGENT)

import_ms = (time.perf_counter() - started) * 1000
out = {"import_ms": import_ms, "first": None, "first_ms": None, "first_cpu_ms": None}
if not steady_only:
    out["first"], out["first_ms"], out["first_cpu_ms"] = timed(lambda: curator.apply_automatic_transitions(now=now))
steady = [timed(lambda: curator.apply_automatic_transitions(now=now)) for _ in range(samples)]
out["steady"] = steady[-1][0]
out["steady_changes"] = sum(r["marked_stale"] + r["archived"] + r["reactivated"] + r["seeded"] for r, _, _ in steady)
out["steady_ms"] = [ms for _, ms, _ in steady]
out["steady_cpu_ms"] = [cpu for _, _, cpu in steady]
print(json.dumps(out))
