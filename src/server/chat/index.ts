/** The chat module's door: what the other modules may use of it. */
export { chatModule } from './chat-module';
export { type ChatParty, type MessageInput, writeMessage } from './chat';
