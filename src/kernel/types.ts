// What every flow shares, owned by none of them: how a failure is told (its types live with the
// words, in errors/problem.ts), which wallet, what time it is, and the work a screen has under way.
export type { Problem, Rejection, SendProblem } from '../errors/problem'
/** A machine names a wallet's refusal through the kernel (machines import no errors/). */
export type { WalletProblem } from '../errors/WalletError'

/** A wallet that announced itself (EIP-6963). */
export type WalletInfo = { id: string; name: string; icon?: string; rdns: string }

/** WalletConnect's own entry among the page's wallets, by the rdns it announces (wallet/walletConnectWallet.tsx): a session the page can end. */
export const isWalletConnect = (wallet?: { rdns: string }): boolean => wallet?.rdns === 'com.walletconnect'

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

/** Where the header's "step N of M" stands: every flow's `stepOf` says it so. */
export type Step = { step: number; of: number }

/** Whose tab follows a transfer: this one, or another (one tab at a time). */
export type Tab = 'held' | 'elsewhere'
