/** The default bank account: bank buys start with its requisites when all of it is set. */
import * as v from 'valibot';
import type { BankRequisites } from '../../../shared/api';
import { BANK_DETAIL_PATTERNS, type BankDetail } from '../../../shared/schemas/fields';
import { documented } from './documented';
import { text, type CheckedVariables, type ParsedVariables } from './values';

export interface BankConfig {
  readonly bankAccount: BankRequisites | undefined;
}

/** How each bank detail's format reads, in its refusal and in the reference alike. */
const BANK_DETAIL_FORMATS: Readonly<Record<BankDetail, string>> = {
  accountNumber: '20 digits',
  bik: '9 digits',
  correspondentAccount: '20 digits',
  inn: '10 or 12 digits',
};

const bankDetail = (name: string, detail: BankDetail, description: string) => {
  const format = BANK_DETAIL_FORMATS[detail];
  return documented(
    v.optional(v.pipe(text, v.regex(BANK_DETAIL_PATTERNS[detail], `${name} must be ${format}`))),
    `${description}, ${format}`,
    { group: 'bank' },
  );
};

export const BANK_VARIABLES = {
  BANK_RECIPIENT_NAME: documented(
    v.optional(text),
    'the recipient; it and the five below are set together or not at all, and bank buys then start with these requisites instead of waiting for an operator',
    { group: 'bank' },
  ),
  BANK_ACCOUNT_NUMBER: bankDetail('BANK_ACCOUNT_NUMBER', 'accountNumber', 'the account number'),
  BANK_NAME: documented(v.optional(text), 'the bank', { group: 'bank' }),
  BANK_BIK: bankDetail('BANK_BIK', 'bik', "the bank's BIK"),
  BANK_CORRESPONDENT_ACCOUNT: bankDetail(
    'BANK_CORRESPONDENT_ACCOUNT',
    'correspondentAccount',
    "the bank's correspondent account",
  ),
  BANK_INN: bankDetail('BANK_INN', 'inn', "the recipient's INN"),
  BANK_ADDRESS: documented(v.optional(text), "the bank's address (optional)", { group: 'bank' }),
  BANK_BENEFICIARY_NAME: documented(v.optional(text), 'the beneficiary, when not the recipient', {
    group: 'bank',
    unset: 'the recipient',
  }),
  BANK_BENEFICIARY_ACCOUNT: documented(
    v.optional(text),
    "the beneficiary's account, when not the recipient's",
    { group: 'bank', unset: 'the account number' },
  ),
};

/** The account's variables that are all set or none. */
const REQUIRED_TOGETHER = [
  'BANK_RECIPIENT_NAME',
  'BANK_ACCOUNT_NUMBER',
  'BANK_NAME',
  'BANK_BIK',
  'BANK_CORRESPONDENT_ACCOUNT',
  'BANK_INN',
] as const satisfies readonly (keyof typeof BANK_VARIABLES)[];

/** A half-configured account would send customers to pay with a field missing. */
export function bankProblems(env: CheckedVariables<keyof typeof BANK_VARIABLES>): string[] {
  const missing = REQUIRED_TOGETHER.filter((name) => env[name] === undefined);
  return missing.length > 0 && missing.length < REQUIRED_TOGETHER.length
    ? [`the default bank account is incomplete: set ${missing.join(', ')} as well`]
    : [];
}

/** The beneficiary falls back to the recipient. */
export function bankConfigOf(variables: ParsedVariables<typeof BANK_VARIABLES>): BankConfig {
  const {
    BANK_RECIPIENT_NAME: recipientName,
    BANK_ACCOUNT_NUMBER: accountNumber,
    BANK_NAME: bankName,
    BANK_BIK: bik,
    BANK_CORRESPONDENT_ACCOUNT: correspondentAccount,
    BANK_INN: inn,
    BANK_ADDRESS: bankAddress,
  } = variables;
  if (
    recipientName === undefined ||
    accountNumber === undefined ||
    bankName === undefined ||
    bik === undefined ||
    correspondentAccount === undefined ||
    inn === undefined
  ) {
    return { bankAccount: undefined };
  }
  return {
    bankAccount: {
      recipientName,
      accountNumber,
      bankName,
      bik,
      correspondentAccount,
      inn,
      ...(bankAddress === undefined ? {} : { bankAddress }),
      beneficiaryName: variables.BANK_BENEFICIARY_NAME ?? recipientName,
      beneficiaryAccount: variables.BANK_BENEFICIARY_ACCOUNT ?? accountNumber,
    },
  };
}
