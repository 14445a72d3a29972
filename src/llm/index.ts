export {
  requestChatCompletion,
  readChatClientOptions,
  type ChatClientOptions,
  type ChatMessage,
  type LlmErrorCode,
} from './chat-client.js';
export { writeUmbrellaProse, buildProseMessages, type LlmNote, type ProseResult } from './umbrella-prose.js';
export { writeDraftProse, buildDraftProseMessages } from './draft-prose.js';
