/**
 * Secrets too easy to guess, refused where they are chosen (sign-up; adr/0046; NIST SP
 * 800-63B 5.1.1.2: check against lists of commonly used values): a PIN of one repeated
 * digit, a run up or down (1234, 9876), or one of the twenty most common; a password that
 * is one repeated character or one of the most common of ten characters or more.
 * 400 VALIDATION_FAILED, like any other value the request cannot have.
 */
import { ApiProblem } from '../../errors/apiProblem.ts';

/** The twenty most common 4-digit PINs (DataGenetics' 3.4 million). */
const COMMON_PINS = new Set(['1234', '1111', '0000', '1212', '7777', '1004', '2000', '4444', '2222', '6969', '9999', '3333', '5555', '6666', '1122', '1313', '8888', '4321', '2001', '1010']);

/** The most common passwords of 10 characters or more (the shortest the spec allows), lower case. */
const COMMON_PASSWORDS = new Set([
  '1234567890', '0123456789', '9876543210', '12345678910', '123456789a', 'a123456789', '1234567890a', 'abc1234567',
  'qwertyuiop', 'qwertyuiop1', 'qwerty1234', '1q2w3e4r5t', 'zaq12wsxcde', 'asdfghjkl1', 'abcdefghij',
  'password12', 'password123', 'password1234', 'passw0rd12', 'iloveyou12', 'letmein123', 'welcome123', 'football12', 'princess12',
]);

/** True when every digit is the last plus `step`. */
function isRun(pin: string, step: number): boolean {
  return [...pin].every((digit, i) => i === 0 || Number(digit) === Number(pin[i - 1]) + step);
}

/** 400 VALIDATION_FAILED for a PIN a guesser tries first. */
export function refuseWeakPin(pin: string): void {
  if (COMMON_PINS.has(pin) || /^(\d)\1+$/.test(pin) || isRun(pin, 1) || isRun(pin, -1)) {
    throw new ApiProblem('VALIDATION_FAILED', 'That PIN is too easy to guess (a repeated digit, a run like 1234, or a common PIN). Choose another.');
  }
}

/** 400 VALIDATION_FAILED for a password a guesser tries first. */
export function refuseCommonPassword(password: string): void {
  if (COMMON_PASSWORDS.has(password.toLowerCase()) || /^(.)\1+$/su.test(password)) {
    throw new ApiProblem('VALIDATION_FAILED', 'That password is one of the most common. Choose another.');
  }
}
