import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Language } from '../../shared/api';
import type { Dialect } from '../platform/db/migrations';
import type { Database } from '../platform/db/schema';
import type { JobMonitor } from '../platform/jobs/periodic';
import type { RenderOptions } from './render';
import type { MessageSender } from './telegram-sender';

/** How many rows one claim takes, and how many sends the running worker keeps going at once. */
export const CLAIM_BATCH = 30;

export interface OutboxSettings {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly now: () => number;
  readonly log: FastifyBaseLogger;
  /** Nothing is sent without one (demo mode): rows are marked skipped, for the console to show. */
  readonly sender: MessageSender | undefined;
  readonly operatorChatId: number | undefined;
  readonly operatorChatLanguage: Language;
  readonly render: () => RenderOptions;
  /** Aborted when the server closes: nothing more is claimed, and no unsent send starts. */
  readonly signal?: AbortSignal;
  /** Told how each claim went, and of each row a fault of ours kept from its send (metrics). */
  readonly monitor?: JobMonitor;
}

export const OUTBOX_JOB = 'notification outbox';

/** The server is closing: the row is let go as it was, for the next start to send. */
export class Stopping extends Error {}
