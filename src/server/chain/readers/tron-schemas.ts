/** The shapes of TronGrid's answers the Tron reader reads, and its constants. */
import * as v from 'valibot';

/** keccak256("Transfer(address,address,uint256)"), as TRON's logs give topics: hex, no 0x. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
export const TX_ID = /^(0x)?[0-9a-fA-F]{64}$/;
export const HEX_WORD = /^[0-9a-fA-F]{64}$/;
export const MAX_SCAN_LIMIT = 200;

export const LogSchema = v.looseObject({
  address: v.string(),
  topics: v.optional(v.array(v.string()), []),
  data: v.optional(v.string(), ''),
});

/** Fields this reader does not use are let through. */
export const TransactionInfoSchema = v.looseObject({
  id: v.string(),
  blockNumber: v.pipe(v.number(), v.integer(), v.minValue(0)),
  blockTimeStamp: v.pipe(v.number(), v.integer(), v.minValue(0)),
  result: v.optional(v.string()),
  receipt: v.optional(v.looseObject({ result: v.optional(v.string()) }), {}),
  log: v.optional(v.array(LogSchema), []),
});

export const NowBlockSchema = v.looseObject({
  block_header: v.looseObject({
    raw_data: v.looseObject({ number: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
  }),
});

/** java-tron leaves zero fields out of its JSON, so block 0 carries no `number`. */
export const GenesisBlockSchema = v.looseObject({
  blockID: v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/)),
});

export const ConstantResultSchema = v.looseObject({
  result: v.optional(v.looseObject({ result: v.optional(v.boolean()) }), {}),
  constant_result: v.optional(v.array(v.string()), []),
});

export const Trc20HistorySchema = v.looseObject({
  success: v.optional(v.boolean(), true),
  /** Present when more rows match: the next page is the same query with `fingerprint`. */
  meta: v.optional(
    v.looseObject({
      fingerprint: v.optional(v.string()),
      links: v.optional(v.looseObject({ next: v.optional(v.string()) })),
    }),
  ),
  data: v.array(
    v.looseObject({
      transaction_id: v.string(),
      block_timestamp: v.number(),
      from: v.string(),
      to: v.string(),
      type: v.string(),
      value: v.pipe(v.string(), v.regex(/^\d+$/)),
      token_info: v.looseObject({ address: v.string() }),
    }),
  ),
});

export type Trc20Row = v.InferOutput<typeof Trc20HistorySchema>['data'][number];
