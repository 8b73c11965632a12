// The deposit's wallet check (flows/deposit/linkWallet.ts, loaded when it is asked) failed: the
// catalog key and code the buyer is told it with.
import { ApiError } from './ApiError'
import { describeError } from './describeError'
import type { Problem } from './problem'

/**
 * The wallet check before a deposit, failed. `chain_not_configured`: the kit reads deposits on other
 * chains (`choose`: the form offers another). A 404 is a backend not set up for crypto deposits yet,
 * not one that credits none. A 401 where no partner token was given is no sign-in that ended: there
 * was none. Any other failure as describeError says it.
 */
export function walletLinkProblem(error: unknown, sent: { partnerToken?: string; choose: boolean }): Problem {
  if (error instanceof ApiError && error.code === 'chain_not_configured')
    return { key: sent.choose ? 'link.chainNotTakenChoose' : 'link.chainNotTaken', code: error.code }
  if (error instanceof ApiError && error.status === 404) return { key: 'link.notReady', code: error.code }
  if (error instanceof ApiError && error.status === 401 && !sent.partnerToken) return { key: 'link.signIn', code: error.code }
  return describeError(error)
}
