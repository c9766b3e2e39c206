/**
 * Telegram's limits on what a bot sends (https://core.telegram.org/bots/faq#broadcasting-to-users),
 * kept as sliding windows: about 30 messages in any second overall, one a second to a private
 * chat, 20 a minute to a group. grammY's throttler (bottleneck's reservoir) counts fixed seconds,
 * so 30 at the end of one second and 30 at the start of the next went out within a few
 * milliseconds (50 were seen in one second); here each window slides, and a message waits until
 * its chat's window and the overall one both have room.
 *
 * One limiter serves the whole process: the outbox's sender and the bot's replies take their
 * places from the same windows (notifications/notifications-plugin.ts makes it and hands it to both).
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
  /**
   * And overall, messages leave at least this far apart (1 s / 30, and a little): 30 calls leaving
   * at one instant reach Telegram spread over tens of milliseconds, and the next 30 a second later
   * would catch up with their tail.
   */
  spacingMs: 34,
  privateChat: { limit: 1, ms: 1_050 },
  group: { limit: 20, ms: 61_000 },
} as const;

/** Calls that put a message in a chat, and so count against its limits. */
const SENDING_METHODS: ReadonlySet<string> = new Set([
  'sendMessage',
  'editMessageText',
  'sendPhoto',
  'sendDocument',
  'copyMessage',
  'forwardMessage',
]);

/**
 * A message's place in the windows: taken when the limits allow, counted from the moment its call
 * leaves (`leave`), or given back if it never does (`release`). Until it leaves it counts as
 * leaving now, so that what happens between the two (the row marked as being sent) can never
 * bunch calls closer together than the windows allow.
 */
export interface Place {
  leave(): void;
  release(): void;
}

/** A place in one window: when its call left, or null while it has not yet. */
interface Entry {
  at: number | null;
}

/** How long to look again when a window is full of places whose calls have not left yet. */
const PENDING_RECHECK_MS = 10;

export class TelegramLimiter {
  /** The places of the windows, oldest first: overall, and per chat. */
  private readonly overall: Entry[] = [];
  private readonly chats = new Map<number, Entry[]>();
  /** When the last place was taken. */
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

  /**
   * Waits until one more message may go to `chatId` and takes its place in the windows. Rejects
   * with the signal's reason if it is aborted first (the server closing): nothing was taken.
   */
  async reserve(chatId: number, signal?: AbortSignal): Promise<Place> {
    for (;;) {
      signal?.throwIfAborted();
      const place = this.tryReserve(chatId);
      if (typeof place !== 'number') return place;
      await sleep(place, signal);
    }
  }

  /** A place taken and left at once: for a call made right away. */
  async take(chatId: number, signal?: AbortSignal): Promise<void> {
    (await this.reserve(chatId, signal)).leave();
  }

  /** Takes a place now, or answers how long to wait before trying again. */
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

/**
 * How long until `entries` has room under `window` (0: now), dropping what has left it. Places
 * whose calls have not left count as leaving now.
 */
function waitIn(entries: Entry[], window: Window, now: number): number {
  while (entries.length > 0 && (entries[0]?.at ?? now) <= now - window.ms) entries.shift();
  if (entries.length < window.limit) return 0;
  // The place that must age out for one more to fit: left entries are in the order they were
  // taken, which is close to the order they left; take the latest of the candidates to be safe.
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
