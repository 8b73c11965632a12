// The failures every flow tells the buyer about, as data: errors/words.ts turns each into words.
import type { MessageKey } from '../i18n/i18n'
import type { WalletProblem } from './WalletError'

/** What the buyer is told about a failure: a catalog key, and the service's code for support. */
export type Problem = { key: MessageKey; code?: string; detail?: string; values?: Record<string, string> }

/** Why a quote is never used: a guard rule, or what its simulation showed. */
export type Rejection = { rule: string; taken?: string; asked?: string; reason?: string }

/**
 * Why the wallet was not asked, or what it answered, when a flow sends from it (a deposit, a
 * payout's funding): said to the buyer through errors/words.ts.
 */
export type SendProblem =
  | { kind: 'wallet'; problem: WalletProblem }
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
