import { parseProgram } from '../../core/patterns/shape.js';
import type { RecordSink } from './collector.js';
import { isObject, type RecordOutcome } from './records.js';

function readFunctionCalls(message: Record<string, unknown>, session: string, sink: RecordSink): void {
  if (!Array.isArray(message.tool_calls)) return;
  for (const call of message.tool_calls) {
    sink.call(session, isObject(call) && isObject(call.function) ? call.function.name : undefined, undefined);
  }
}

/**
 * SWE-agent `.traj`: `{trajectory: [{action, observation, …}], history, info}`.
 * An action is a command line (`find_file "x.py"`, `edit 4:4 …`, `python t.py`):
 * the tool is its first word. Trajectories recorded with function calling may
 * keep the actions only in `history` (assistant messages with `action`).
 */
export function readSweAgentDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  if (!isObject(doc) || !(Array.isArray(doc.trajectory) || Array.isArray(doc.history))) return 'unknown';
  const session = sink.defaultSession;
  const steps = Array.isArray(doc.trajectory) && doc.trajectory.length > 0 ? doc.trajectory : undefined;
  const actions = steps ?? (Array.isArray(doc.history) ? doc.history.filter((m) => isObject(m) && m.role === 'assistant') : []);
  for (const step of actions) {
    if (!isObject(step)) {
      sink.skip('trajectory steps that are not objects');
      continue;
    }
    const action = typeof step.action === 'string' ? step.action.trim() : '';
    if (action !== '') sink.call(session, parseProgram(action), undefined, step.timestamp);
    else if (steps !== undefined) sink.call(session, undefined, undefined);
    else readFunctionCalls(step, session, sink);
  }
  return 'handled';
}
