/** What the Action does to its runner, behind an interface: only the entry (`main.ts`) binds it to @actions/core. */
export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  title: string;
  file?: string;
  line?: number;
  column?: number;
}

export interface ActionIo {
  info(message: string): void;
  warning(message: string): void;
  annotate(annotation: Annotation): void;
  appendSummary(markdown: string): Promise<void>;
  setOutput(name: string, value: string): void;
  setSecret(secret: string): void;
}

/** A mode's verdict: the entry fails the step with `failure` when there is one. */
export interface ModeResult {
  failure?: string;
}
