// The payout's own problems in words: the catalog key (and the code for support) each one takes,
// for the screens and the `error` event alike. The payout's flow carries them typed; errors/
// imports no flow, so their shapes are named here and the flow's must fit them (the compiler holds
// the two together where the flow hands one over), but the beneficiary field's problem, which both
// read from lib/accountChecks.ts, where the checks that find it are.
import type { FieldProblem } from '../lib/accountChecks'
import { t } from '../i18n/i18n'
import type { Problem } from './problem'

/**
 * `ask`: the quote is not for what the buyer asked (flows/payout/quoteCheck.ts). `beneficiary`: no
 * beneficiary could be built from the form. `referenceUsed`: the partner's signed reference already
 * went with another request. `mismatch`: the payout the service made is not the quote (its `rule`,
 * flows/payout/transfer.ts).
 */
export type PayoutProblem =
  | { kind: 'ask'; rule: 'ask.crypto' | 'ask.fiat' }
  | { kind: 'beneficiary' }
  | { kind: 'referenceUsed' }
  | { kind: 'mismatch'; rule: string }

/** A payout problem as the buyer is told it: its words' key, and its code. `card`: a card payout (the fiat lands on a card, not in a bank). */
export function payoutProblem(problem: PayoutProblem, card = false): Problem {
  switch (problem.kind) {
    case 'ask':
      return { key: card && problem.rule === 'ask.fiat' ? 'cardPayout.problem.ask.fiat' : `payout.problem.${problem.rule}`, code: `payout_${problem.rule}` }
    case 'beneficiary':
      return { key: 'payout.problem.beneficiary' }
    case 'referenceUsed':
      return { key: 'payout.problem.referenceUsed', code: 'payout_reference_used' }
    case 'mismatch':
      return { key: 'payout.problem.mismatch', code: `payout_${problem.rule}` }
  }
}

/**
 * What is wrong with a beneficiary field (flows/payout/beneficiary.ts and lib/accountChecks.ts check
 * it; `refused`: the service refused it), with the numbers its words take.
 */
export type { FieldProblem }

/** A beneficiary field's problem as the buyer reads it beside the field (the form's chunk brings these words). */
export function fieldProblemText({ kind, ...numbers }: FieldProblem): string {
  return t(`payout.problem.${kind}`, numbers)
}
