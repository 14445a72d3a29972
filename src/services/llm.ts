// The optional LLM endpoint, configured from the environment by the edge that was asked for it (`--llm`).
export { readChatClientOptions, type ChatClientOptions } from '../llm/chat-client.js';
