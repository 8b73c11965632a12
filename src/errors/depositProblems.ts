// The deposit's own failures, as the partner is told them: the catalog key and the code for support
// are chosen here, not in the flow (its words: errors/words.ts). Pure data.
import type { Problem, Rejection } from './problem'

/** The partner's kit recorded no deposit for the buyer's wallet: it was not linked to the buyer. */
export const UNRECORDED: Problem = { key: 'track.unrecorded', code: 'wallet_not_linked' }

/** A quote refused by the guard: the rule goes to the partner as the detail (its words: rejectionText). */
export const rejectedProblem = (rejection: Rejection) => ({ code: 'quote_rejected', detail: rejection.rule })

/** A quote the service could not route, for more than the connected wallet holds: what it holds, in the source token. */
export const overBalance = (problem: Problem, balance: string, token: string): Problem => ({
  key: 'quote.overBalance',
  code: problem.code,
  values: { balance, token },
})
