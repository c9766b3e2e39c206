/**
 * A network's reader behind the check of which chain its node is on: every caller goes through
 * the same gate, and a closed gate throws ChainUnavailable, which callers already treat as a node
 * they cannot read. A node not reached at start-up is asked again at most once a minute; a wrong
 * answer later keeps the network unread until a restart.
 */
import {
  askChainId,
  judgeChainId,
  type ChainIdChecked,
  type ChainIdLog,
  type ChainIdOutcome,
  type TestNetworks,
} from './chain-ids';
import {
  ChainUnavailable,
  type ChainHead,
  type ChainReader,
  type IncomingTransfers,
  type ScanPosition,
  type TransactionLookup,
} from './chain-reader';
import type { EvmReader } from './evm-reader';
import type { TronReader } from './tron-reader';

export const CHAIN_ID_RECHECK_MS = 60_000;

type GateState =
  | { readonly kind: 'unchecked' }
  | { readonly kind: 'verified' }
  | {
      readonly kind: 'waiting';
      readonly nextAskAt: number;
      readonly testNetworks: TestNetworks;
      readonly log: ChainIdLog;
    }
  | { readonly kind: 'refused'; readonly reason: string };

export class CheckedReader implements ChainReader, ChainIdChecked {
  readonly network: ChainReader['network'];
  readonly #inner: EvmReader | TronReader;
  readonly #now: () => number;
  #state: GateState = { kind: 'unchecked' };
  #asking: Promise<void> | undefined;

  constructor(inner: EvmReader | TronReader, now: () => number = Date.now) {
    this.network = inner.network;
    this.#inner = inner;
    this.#now = now;
  }

  async checkAtStart(testNetworks: TestNetworks, log: ChainIdLog): Promise<ChainIdOutcome> {
    const outcome = await askChainId(this.#inner);
    if (outcome.kind === 'unreachable') {
      this.#state = {
        kind: 'waiting',
        nextAskAt: this.#now() + CHAIN_ID_RECHECK_MS,
        testNetworks,
        log,
      };
      return outcome;
    }
    const verdict = judgeChainId(outcome, testNetworks);
    this.#state = verdict.accepted
      ? { kind: 'verified' }
      : { kind: 'refused', reason: verdict.message };
    return outcome;
  }

  transaction(hash: string): Promise<TransactionLookup> {
    return this.#through('transaction', () => this.#inner.transaction(hash));
  }

  head(): Promise<ChainHead> {
    return this.#through('head', () => this.#inner.head());
  }

  decimals(contract: string): Promise<number> {
    return this.#through('decimals', () => this.#inner.decimals(contract));
  }

  transfersTo(
    address: string,
    contract: string,
    since: ScanPosition,
    head?: ChainHead,
  ): Promise<IncomingTransfers> {
    return this.#through('transfersTo', () =>
      this.#inner.transfersTo(address, contract, since, head),
    );
  }

  /** An open gate calls in the same tick, so lookups made together still travel as one batch. */
  #through<T>(method: string, call: () => Promise<T>): Promise<T> {
    if (this.#state.kind === 'unchecked' || this.#state.kind === 'verified') return call();
    return this.#opened(method).then(call);
  }

  async #opened(method: string): Promise<void> {
    const state = this.#state;
    if (state.kind === 'unchecked' || state.kind === 'verified') return;
    if (state.kind === 'refused') {
      throw new ChainUnavailable(this.network, method, 'unverified', state.reason);
    }
    const now = this.#now();
    if (now < state.nextAskAt) {
      const asked = this.network === 'TRC20' ? 'its genesis block' : 'its chain id';
      throw new ChainUnavailable(
        this.network,
        method,
        'unverified',
        `CHAIN_RPC_${this.network} has not answered ${asked} yet: not read until it has`,
        { retryAfterMs: state.nextAskAt - now },
      );
    }
    this.#asking ??= this.#askAgain(state).finally(() => {
      this.#asking = undefined;
    });
    await this.#asking;
    return this.#opened(method);
  }

  async #askAgain(state: Extract<GateState, { kind: 'waiting' }>): Promise<void> {
    const outcome = await askChainId(this.#inner);
    const { network } = this;
    if (outcome.kind === 'unreachable') {
      this.#state = { ...state, nextAskAt: this.#now() + CHAIN_ID_RECHECK_MS };
      return;
    }
    const verdict = judgeChainId(outcome, state.testNetworks);
    const fields = { network, chainId: outcome.id };
    if (verdict.accepted) {
      this.#state = { kind: 'verified' };
      state.log[verdict.level](fields, verdict.message);
      state.log.info(fields, `CHAIN_RPC_${network} has answered its chain: ${network} is read now`);
      return;
    }
    this.#state = { kind: 'refused', reason: verdict.message };
    state.log.error(
      fields,
      `${verdict.message}. Found after start-up: the server keeps running, and ${network} stays unread until it is restarted with the right URL`,
    );
  }
}
