/**
 * A local EVM chain to try the chain checks by hand, as the README tells: starts Hardhat's network
 * on 127.0.0.1:8545 with the test tokens, mines a block every two seconds so confirmations count
 * up, and prints the variables to give the server. Then reads commands from the terminal:
 *
 *   send 150.25     the customer sends 150.25 of the 6-decimal USDT to the deposit address
 *   fake 150.25     the same amount of the look-alike USDT
 *   mine 20         mines 20 blocks at once
 *
 *   node --import tsx tests/helpers/local-chain.ts
 *
 * The deposit address is DEPOSIT_ADDRESS_EVM when set, else the server's demo address.
 */
import readline from 'node:readline';
import { parseUnits, type Address } from 'viem';
import { startEvmChain } from './evm-chain';

const NODE_PORT = Number(process.env['LOCAL_CHAIN_PORT'] ?? 8545);
const BLOCK_EVERY_MS = 2_000;
const deposit = (process.env['DEPOSIT_ADDRESS_EVM'] ??
  '0x000000000000000000000000000000000000dEaD') as Address;

const chain = await startEvmChain({ port: NODE_PORT });
await chain.rpc('evm_setIntervalMining', [BLOCK_EVERY_MS]);

console.log(`Local chain on ${chain.nodeUrl} (a block every ${BLOCK_EVERY_MS / 1000} s).`);
console.log('Give the server:');
console.log(`  CHAIN_RPC_BEP20=${chain.nodeUrl}`);
console.log('  CHAIN_CONFIRMATIONS_BEP20=5');
console.log(`  TOKEN_CONTRACT_USDT_BEP20=${chain.tokens.usdt6}`);
console.log(`  DEPOSIT_ADDRESS_EVM=${deposit}`);
console.log(`The look-alike USDT is ${chain.tokens.lookAlike}.`);
console.log('Commands: send <amount>, fake <amount>, mine <blocks>; Ctrl+C stops.');

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const [command, value = ''] = line.trim().split(/\s+/);
  const run = async () => {
    if ((command === 'send' || command === 'fake') && /^\d+(\.\d{1,6})?$/.test(value)) {
      const token = command === 'send' ? chain.tokens.usdt6 : chain.tokens.lookAlike;
      const hash = await chain.transfer(token, chain.customer, deposit, parseUnits(value, 6));
      console.log(`sent ${value} ${command === 'fake' ? 'look-alike ' : ''}USDT: ${hash}`);
    } else if (command === 'mine' && /^\d+$/.test(value)) {
      await chain.mine(Number(value));
      console.log(`block ${await chain.blockNumber()}`);
    } else if (command !== '') {
      console.log('Commands: send <amount>, fake <amount>, mine <blocks>');
    }
  };
  run().catch((error: unknown) => console.error(error));
});

const stop = () => {
  lines.close();
  chain.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
