import { finding, type Finding } from '../findings.js';

/** A finding about a manifest or the layout, at the start of its line. */
export function manifestFinding(
  file: string,
  line: number,
  code: string,
  message: string,
  hint: string,
  severity: 'error' | 'warning' = 'error',
): Finding {
  return finding({ code, severity, file, line, column: 1, message, hint });
}
