/**
 * Telegram's limits on what a bot sends (https://core.telegram.org/bots/faq#broadcasting-to-users),
 * kept as sliding windows: about 30 messages in any second overall, one a second to a private
 * chat, 20 a minute to a group. grammY's throttler (bottleneck's reservoir) counts fixed seconds,
 * so 30 at the end of one second and 30 at the start of the next went out within a few
 * milliseconds (50 were seen in one second); here each window slides, and a message waits until
 * its chat's window and the overall one both have room.
 *
 * One limiter serves the whole process: the outbox's sender and the bot's replies take their
 * places from the same windows (plugins/bot.ts makes it and hands it to both).
 */
import type { Transformer } from 'grammy';

interface Window {
  /** How many messages the window holds. */
  readonly limit: number;
  /** Its length in milliseconds. */
  readonly ms: number;
}

/**
 * The windows, each a little longer than Telegram's own: a place is taken just before the call
 * leaves, and two calls can reach Telegram closer together than they left.
 */
export const TELEGRAM_LIMITS = {
  overall: { limit: 30, ms: 1_050 },
  privateChat: { limit: 1, ms: 1_050 },
  group: { limit: 20, ms: 61_000 },
} as const satisfies Record<string, Window>;

/** Calls that put a message in a chat, and so count against its limits. */
const SENDING_METHODS: ReadonlySet<string> = new Set([
  'sendMessage',
  'editMessageText',
  'sendPhoto',
  'sendDocument',
  'copyMessage',
  'forwardMessage',
]);

export class TelegramLimiter {
  /** When the last messages left, oldest first: overall, and per chat. */
  private readonly overall: number[] = [];
  private readonly chats = new Map<number, number[]>();

  constructor(
    private readonly limits: {
      readonly overall: Window;
      readonly privateChat: Window;
      readonly group: Window;
    } = TELEGRAM_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Waits until one more message may go to `chatId` and takes its place in the windows. Rejects
   * with the signal's reason if it is aborted first (the server closing): nothing was taken.
   */
  async take(chatId: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.tryTake(chatId);
      if (wait === 0) return;
      await sleep(wait, signal);
    }
  }

  /** Takes a place now and answers 0, or answers how long to wait before trying again. */
  tryTake(chatId: number): number {
    const now = this.clock();
    const chat = chatId < 0 ? this.limits.group : this.limits.privateChat;
    const sent = this.chats.get(chatId) ?? [];
    const wait = Math.max(waitIn(this.overall, this.limits.overall, now), waitIn(sent, chat, now));
    if (wait > 0) return wait;
    this.overall.push(now);
    sent.push(now);
    this.chats.set(chatId, sent);
    this.forgetIdleChats(now);
    return 0;
  }

  /** A grammY transformer that takes a place before every call that sends to a chat. */
  readonly transformer: Transformer = async (prev, method, payload, signal) => {
    const chatId = (payload as { chat_id?: unknown } | undefined)?.chat_id;
    if (SENDING_METHODS.has(method) && typeof chatId === 'number') {
      // grammY types its signals with the abort-controller shim's type; Node's is the same object.
      await this.take(chatId, signal as AbortSignal | undefined);
    }
    return prev(method, payload, signal);
  };

  /** Chats whose windows are empty are forgotten, so that the map stays as small as the traffic. */
  private forgetIdleChats(now: number): void {
    if (this.chats.size < 1_000) return;
    const longest = Math.max(this.limits.privateChat.ms, this.limits.group.ms);
    for (const [chatId, sent] of this.chats) {
      if ((sent.at(-1) ?? 0) <= now - longest) this.chats.delete(chatId);
    }
  }
}

/** How long until `sent` has room under `window` (0: now), dropping what has left it. */
function waitIn(sent: number[], window: Window, now: number): number {
  while (sent.length > 0 && (sent[0] ?? 0) <= now - window.ms) sent.shift();
  if (sent.length < window.limit) return 0;
  return (sent[sent.length - window.limit] ?? now) + window.ms - now;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
