/** What the chain checker's files share: its context, options and outcomes. */
import type { FastifyBaseLogger } from 'fastify';
import type { NetworkId } from '../../shared/networks';
import type { ServerContext } from '../platform/context';
import type { Dialect } from '../platform/db/migrations';
import type { JobMonitor } from '../platform/jobs/periodic';

export const CHAIN_CHECK_JOB = 'chain checker';

export type CheckOutcome =
  | 'waiting' // not found yet, or counting confirmations
  | 'fault' // the node did not answer: tried later
  | 'seen'
  | 'confirmed'
  | 'flagged'
  | 'closed'
  | 'stale' // its lease had passed to another instance: its verdict dropped, nothing written
  | 'failed'; // threw: logged, flagged, set aside

export interface ChainCheckResult {
  readonly outcomes: ReadonlyMap<string, CheckOutcome>;
  readonly heads: readonly NetworkId[];
}

export interface ChainCheckOptions {
  readonly signal?: AbortSignal | undefined;
  /** Hash lookups this round may make per network: lookupsPerRound of the interval by default. */
  readonly lookups?: number | undefined;
  readonly log?: FastifyBaseLogger | undefined;
  readonly monitor?: JobMonitor | undefined;
}

export type ChainCheckContext = Pick<ServerContext, 'db' | 'config' | 'chain'> & {
  readonly dialect: Dialect;
};
