export { codeSpan, escapeMarkdown } from '../core/report/markdown-inert.js';
