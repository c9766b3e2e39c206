/**
 * Telegram's limits on what a bot sends (https://core.telegram.org/bots/faq#broadcasting-to-users)
 * as sliding windows: about 30 a second overall, one a second per private chat, 20 a minute per
 * group. grammY's throttler counts fixed seconds, so 60 could leave within milliseconds across a
 * boundary. One limiter serves the process: the outbox and the bot's replies share its windows.
 */
import type { Transformer } from 'grammy';

interface Window {
  readonly limit: number;
  readonly ms: number;
}

/** A little longer than Telegram's: two calls can reach Telegram closer together than they left. */
export const TELEGRAM_LIMITS = {
  overall: { limit: 30, ms: 1_050 },
  /** Calls leaving at once arrive over tens of ms; the next 30 would catch up with their tail. */
  spacingMs: 34,
  privateChat: { limit: 1, ms: 1_050 },
  group: { limit: 20, ms: 61_000 },
} as const;

const SENDING_METHODS: ReadonlySet<string> = new Set([
  'sendMessage',
  'editMessageText',
  'sendPhoto',
  'sendDocument',
  'copyMessage',
  'forwardMessage',
]);

/**
 * A place counts from when its call leaves (`leave`), or is given back (`release`); until then it
 * counts as leaving now, so marking the row can never bunch calls closer than the windows allow.
 */
export interface Place {
  leave(): void;
  release(): void;
}

interface Entry {
  at: number | null;
}

const PENDING_RECHECK_MS = 10;

export class TelegramLimiter {
  private readonly overall: Entry[] = [];
  private readonly chats = new Map<number, Entry[]>();
  private lastTaken = -Infinity;

  constructor(
    private readonly limits: {
      readonly overall: Window;
      readonly privateChat: Window;
      readonly group: Window;
      readonly spacingMs: number;
    } = TELEGRAM_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Rejects with the signal's reason if aborted first (the server closing): nothing was taken. */
  async reserve(chatId: number, signal?: AbortSignal): Promise<Place> {
    for (;;) {
      signal?.throwIfAborted();
      const place = this.tryReserve(chatId);
      if (typeof place !== 'number') return place;
      await sleep(place, signal);
    }
  }

  async take(chatId: number, signal?: AbortSignal): Promise<void> {
    (await this.reserve(chatId, signal)).leave();
  }

  tryReserve(chatId: number): Place | number {
    const now = this.clock();
    const chat = chatId < 0 ? this.limits.group : this.limits.privateChat;
    const sent = this.chats.get(chatId) ?? [];
    const wait = Math.max(
      waitIn(this.overall, this.limits.overall, now),
      waitIn(sent, chat, now),
      this.lastTaken + this.limits.spacingMs - now,
    );
    if (wait > 0) return wait;
    this.lastTaken = now;
    const entry: Entry = { at: null };
    this.overall.push(entry);
    sent.push(entry);
    this.chats.set(chatId, sent);
    this.forgetIdleChats(now);
    return {
      leave: () => {
        entry.at ??= this.clock();
      },
      release: () => {
        if (entry.at !== null) return;
        remove(this.overall, entry);
        remove(sent, entry);
      },
    };
  }

  readonly transformer: Transformer = async (prev, method, payload, signal) => {
    const chatId = (payload as { chat_id?: unknown } | undefined)?.chat_id;
    if (SENDING_METHODS.has(method) && typeof chatId === 'number') {
      // grammY types its signals with the abort-controller shim's type; Node's is the same object.
      await this.take(chatId, signal as AbortSignal | undefined);
    }
    return prev(method, payload, signal);
  };

  /** So that the map stays as small as the traffic. */
  private forgetIdleChats(now: number): void {
    if (this.chats.size < 1_000) return;
    const longest = Math.max(this.limits.privateChat.ms, this.limits.group.ms);
    for (const [chatId, sent] of this.chats) {
      const last = sent.at(-1);
      if (last === undefined || (last.at !== null && last.at <= now - longest)) {
        this.chats.delete(chatId);
      }
    }
  }
}

function remove(entries: Entry[], entry: Entry): void {
  const i = entries.indexOf(entry);
  if (i >= 0) entries.splice(i, 1);
}

/** Places whose calls have not left count as leaving now. */
function waitIn(entries: Entry[], window: Window, now: number): number {
  while (entries.length > 0 && (entries[0]?.at ?? now) <= now - window.ms) entries.shift();
  if (entries.length < window.limit) return 0;
  // Left entries are in about the order they left: the latest candidate is the safe one to await.
  let until = 0;
  for (const entry of entries.slice(0, entries.length - window.limit + 1)) {
    until = Math.max(until, entry.at === null ? now + PENDING_RECHECK_MS : entry.at + window.ms);
  }
  return Math.max(1, until - now);
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
