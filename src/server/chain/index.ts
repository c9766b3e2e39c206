/** The chain module's door: what the other modules may use of it. */
export { chainModule } from './chain-module';
export { attachDeposit } from './deposit-attach';
export {
  PERSON_WAITS_MS,
  depositTargetOf,
  lookUpDeposit,
  nodeFaultOf,
  settledWithin,
} from './deposit-check';
export { judgePayout, refusalDetails } from './deposit-rules';
export { PAYOUT_FROM_STATUS, checkPayout, overrideEvidence } from './payout-check';
export { ChainIdMismatch, checkChainIds, testNetworksOf } from './readers/chain-ids';
