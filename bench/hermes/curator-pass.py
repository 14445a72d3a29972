"""Times Hermes Agent's own curator pass (agent.curator.apply_automatic_transitions) on a library
that bench/hermes-curator.ts generated. Our driver, not Hermes code: it imports the peer from
$HERMES_AGENT, points HERMES_HOME at the generated library, and runs the pass twice (the first
makes the transitions, the second has nothing to do). Prints one JSON line."""

import json
import os
import sys
import time
from datetime import datetime, timezone

peer = os.environ["HERMES_AGENT"]
sys.path.insert(0, peer)
os.environ["HERMES_HOME"] = sys.argv[1]
now = datetime.fromisoformat(sys.argv[2].replace("Z", "+00:00")).astimezone(timezone.utc)

started = time.perf_counter()
from agent import curator  # noqa: E402  (the peer's module, from $HERMES_AGENT)

imported = time.perf_counter()
first = curator.apply_automatic_transitions(now=now)
after_first = time.perf_counter()
steady = curator.apply_automatic_transitions(now=now)
after_steady = time.perf_counter()
print(
    json.dumps(
        {
            "import_ms": (imported - started) * 1000,
            "first_ms": (after_first - imported) * 1000,
            "first": first,
            "steady_ms": (after_steady - after_first) * 1000,
            "steady": steady,
        }
    )
)
