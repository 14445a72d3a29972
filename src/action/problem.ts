import type { Annotation } from './io.js';

/** A row of the summary table and, for the first few of each level, an annotation. */
export interface Problem {
  level: Annotation['level'];
  code: string;
  file: string;
  line: number;
  column: number;
  message: string;
  hint: string;
}
