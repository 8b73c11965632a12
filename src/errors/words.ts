// Errors to words, in one place for every flow: any failure becomes what the buyer reads (a
// catalog key, plus the code for support: describeError.ts, with the flows' effects), and the same
// words go out with the `error` event, so the partner's logs read what the buyer read.
import type { Problem, Rejection, SendProblem } from './problem'
import { type MessageKey, t } from '../i18n/i18n'
import type { WalletProblem } from './WalletError'

/** What the buyer reads for a problem, on screen and in the `error` event alike. */
export function problemText(problem: Problem): string {
  return t(problem.key, { ...problem.values, detail: problem.detail ?? '' })
}

/** A banking partner's problem: its own message when it sent one (the /fiat endpoints pass it through). */
export function partnerProblemText(problem: Problem): string {
  return problem.key === 'error.unknown' || problem.key === 'error.invalid'
    ? t('onboarding.partnerError', { detail: problem.detail ?? '' })
    : problemText(problem)
}

const WALLET: Record<WalletProblem, MessageKey> = {
  rejected: 'send.rejected',
  pending: 'send.pending',
  unsupportedChain: 'wallet.problem.unsupportedChain',
  disconnected: 'wallet.problem.disconnected',
  ended: 'wallet.problem.ended',
  unknown: 'send.unknown',
}

/** What the wallet's refusal or failure means to the buyer. */
export function walletProblemText(problem: WalletProblem): string {
  return t(WALLET[problem])
}

/** Why connecting a wallet failed (no account shared, or the wallet's own refusal). */
export function connectProblemText(problem: WalletProblem | 'noAccount'): string {
  return t(`wallet.problem.${problem}`)
}

/**
 * A hosted-page or iframe link that does not start, on its screen and in the `error` event alike: a
 * changed or expired link (`bad_signature`), or an invalid one (an unknown partner, a flow it does not offer).
 */
export function linkProblemText(problem: { code: string }): { title: string; body: string } {
  const changed = problem.code === 'bad_signature'
  return { title: t(changed ? 'link.changed' : 'link.invalid'), body: t(changed ? 'link.changedBody' : 'link.invalidBody') }
}

/** Why a quote was refused, in the buyer's words: nothing was sent, and a new price is the way on. */
export function rejectionText(rejection: Rejection): string {
  if (rejection.rule === 'simulation.outflow') return t('quote.rejectedOutflow', { taken: rejection.taken ?? '', asked: rejection.asked ?? '' })
  if (rejection.rule === 'simulation.revert') {
    return rejection.reason ? t('quote.rejectedRevert', { reason: rejection.reason }) : t('quote.rejectedRevertUnknown')
  }
  return t('quote.rejected')
}

export type ErrorPayload = { code?: string; message: string; detail?: string }

/**
 * The `error` event's payload, the one way every flow's hostEvents.ts builds it: the code for support
 * (and the detail) of what went wrong, and the words the buyer read (problemText, sendProblemText,
 * …). A send problem's code is sendProblemCode's.
 */
export function errorPayload(problem: { code?: string; detail?: string }, message: string): ErrorPayload {
  return { code: problem.code, message, detail: problem.detail }
}

/** What a sending flow tells about its transfer: its flow's wording, the chain, the token, the amount. */
export type SendContext = { flow: 'deposit' | 'payout'; chain: string; symbol: string; amount: string; format?: (value: string) => string }

type SendKeys = { wallet: Record<WalletProblem, MessageKey> } & Partial<Record<Exclude<SendProblem['kind'], 'wallet' | 'check'>, MessageKey>>
const SEND_KEYS: Record<SendContext['flow'], SendKeys> = {
  deposit: {
    wallet: WALLET,
    noAccount: 'wallet.problem.noAccount',
    wrongChain: 'send.wrongChain',
    insufficient: 'send.insufficient',
    insufficientGas: 'send.insufficientGas',
    elsewhere: 'send.elsewhere',
    unlinked: 'link.declined',
    refused: 'link.mismatch',
  },
  payout: {
    wallet: {
      rejected: 'payout.wallet.rejected',
      pending: 'payout.wallet.pending',
      unsupportedChain: 'payout.wallet.unsupportedChain',
      disconnected: 'payout.wallet.disconnected',
      ended: 'payout.wallet.ended',
      unknown: 'payout.wallet.unknown',
    },
    noAccount: 'payout.fund.noAccount',
    wrongChain: 'payout.fund.wrongChain',
    insufficient: 'payout.fund.insufficient',
    insufficientGas: 'payout.fund.insufficientGas',
    elsewhere: 'payout.fund.elsewhere',
    refused: 'payout.fund.refused',
    spent: 'payout.fund.spent',
    expired: 'payout.fund.expired',
  },
}

/** A send problem in the buyer's words, on screen and in the `error` event alike. */
export function sendProblemText(problem: SendProblem, c: SendContext): string {
  const format = c.format ?? ((v: string) => v)
  if (problem.kind === 'check') return problemText(problem.problem)
  const keys = SEND_KEYS[c.flow]
  if (problem.kind === 'wallet') return t(keys.wallet[problem.problem])
  const key = keys[problem.kind as Exclude<SendProblem['kind'], 'wallet' | 'check'>]
  if (!key) return t('error.unknown')
  const balance = problem.kind === 'insufficient' ? format(problem.balance) : ''
  return t(key, { chain: c.chain, symbol: c.symbol, token: c.symbol, amount: format(c.amount), balance })
}

/** The `error` event's code for a send problem. */
export function sendProblemCode(problem: SendProblem): string {
  if (problem.kind === 'wallet') return problem.problem
  if (problem.kind === 'refused') return `transfer_${problem.rule}`
  if (problem.kind === 'check') return problem.problem.code ?? 'check_failed'
  return problem.kind
}
