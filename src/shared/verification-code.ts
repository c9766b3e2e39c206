/**
 * An order's verification code: a few characters the app shows on the order and every operator
 * message and bot message about the order carries, so that a customer can tell the exchange
 * from someone writing in its name. Letters and digits that cannot be mistaken for each other
 * (no 0/O, no 1/I), 32 of them, so that one random byte picks one without bias.
 */

/** The characters a code is made of: 2–9 and the capital letters but I and O. */
export const VERIFICATION_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** How many characters a code has. */
export const VERIFICATION_CODE_LENGTH = 6;

/** What a code looks like. */
export const VERIFICATION_CODE_PATTERN = new RegExp(
  `^[${VERIFICATION_CODE_ALPHABET}]{${VERIFICATION_CODE_LENGTH}}$`,
);

/**
 * A code made of `random` (at least VERIFICATION_CODE_LENGTH bytes, say from the platform's
 * cryptographic generator): each byte's low five bits pick one character.
 */
export function verificationCodeFrom(random: Uint8Array): string {
  if (random.length < VERIFICATION_CODE_LENGTH) {
    throw new RangeError(`a verification code takes ${VERIFICATION_CODE_LENGTH} random bytes`);
  }
  let code = '';
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) {
    code += VERIFICATION_CODE_ALPHABET.charAt((random[i] ?? 0) & 31);
  }
  return code;
}
