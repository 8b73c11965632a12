// What every flow shares, owned by none of them: how a failure is told, which wallet, what time it is,
// and the work a screen has under way.
import type { MessageKey } from '../i18n/i18n'

/** What the buyer is told about a failure: a catalog key, and the service's code for support. */
export type Problem = { key: MessageKey; code?: string; detail?: string }

/** A wallet that announced itself (EIP-6963). */
export type WalletInfo = { id: string; name: string; icon?: string; rdns: string }

/** Time, faked in tests. */
export type Clock = {
  now(): number
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
}

/**
 * The work a state has under way, one word per flow step (`'idle'` when the buyer may act):
 * a screen disables its controls while it is not idle, and the effects start the work it names.
 */
export type Work<Step extends string = 'working'> = 'idle' | Step

/** Why a quote is never used: a guard rule, or what its simulation showed. */
export type Rejection = { rule: string; taken?: string; asked?: string; reason?: string }

/**
 * Why the wallet was not asked, or what it answered, when a flow sends from it (a deposit, a
 * payout's funding): said to the buyer through errors/words.ts.
 */
export type SendProblem =
  | { kind: 'wallet'; problem: import('../errors/WalletError').WalletProblem }
  | { kind: 'noAccount' }
  | { kind: 'wrongChain' }
  | { kind: 'insufficient'; balance: string }
  | { kind: 'insufficientGas' }
  /** Another tab of this origin is sending it. */
  | { kind: 'elsewhere' }
  /** The buyer declined to sign the partner's wallet check (a message, not a transaction). */
  | { kind: 'unlinked' }
  /** The transaction about to be asked for is not the one the flow needs (rule named). */
  | { kind: 'refused'; rule: string }
  /** The address already received a transfer: never sent to twice. */
  | { kind: 'spent' }
  /** The deadline passed: a transfer now would convert at another rate. */
  | { kind: 'expired' }
  /** A check before sending failed (the service could not be asked, say). */
  | { kind: 'check'; problem: Problem }

/** Whose tab follows a transfer: this one, or another (one tab at a time). */
export type Tab = 'held' | 'elsewhere'
