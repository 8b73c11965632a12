// The checks of a send (send.ts): before the first prompt, and again right before each one.
import type { Client, Hex } from 'viem'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import { isNativeToken } from './preview'
import { guard, sourceOf } from './quoting'
import type { Sending } from './sending'
import { asksWalletLink } from './walletCheck'

/** The checks before the first prompt; the chain's reader when the deposit may go on. */
export async function readyToSend(s: Sending): Promise<Client | undefined> {
  const { ctx, state, w, provider, chain, account, step } = s
  const { quote } = state
  // Once more before the first prompt (a network switch is one): the quote must still be the one checked.
  if (!guard(ctx, w, quote, s.request, s.alive)) return
  if ((await w.currentChainId(provider)) !== chain.id) {
    step({ type: 'WORK', work: 'switching' })
    if (!(await w.ensureChain(provider, chain))) return void step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
  }
  if (!s.alive()) return
  step({ type: 'WORK', work: 'checking' })
  const reader = w.readClient(chain, provider, s.signal)
  const source = sourceOf(ctx, state.form)
  // A native source has no token contract to ask: its balance is the account's own.
  const balance = isNativeToken(source.token) ? await w.nativeBalance(reader, account) : await w.tokenBalance(reader, source.token as Hex, account)
  if (balance < toBaseUnits(quote.amountIn, source.decimals)) {
    return void step({ type: 'BLOCKED', notice: { kind: 'insufficient', balance: fromBaseUnits(balance, source.decimals) } })
  }
  // The preview said only "balance too low": with enough now, it runs (and judges) first.
  if (!(state.preview?.kind === 'ready' && state.preview.safe)) return void step({ type: 'RETRY_PREVIEW' })
  const gas = await w.nativeBalance(reader, account)
  if (gas === 0n || gas < BigInt(quote.transaction.value)) return void step({ type: 'BLOCKED', notice: { kind: 'insufficientGas' } })
  // Only where the registry (or a script-mode page) says the partner's backend links wallets.
  if (asksWalletLink(ctx.config) && !(await linked(s))) return
  return reader
}

/** The wallet proven the buyer's to the partner's kit, before its first deposit from it (linkWallet.ts, fetched then). */
async function linked(s: Sending): Promise<boolean> {
  const { linkWallet } = await import('./linkWallet')
  const notice = await linkWallet(s.ctx, s.provider, s.account, s.chain.id, s.step, s.signal)
  if (notice) s.step({ type: 'BLOCKED', notice })
  return !notice && s.alive()
}

/** Right before each prompt: the quote has not expired, the wallet is still on the chain, the guard still agrees. */
export async function stillValid(s: Sending): Promise<boolean> {
  if (!s.alive()) return false
  if (Date.parse(s.state.quote.expiresAt) <= s.ctx.clock.now()) {
    // Back to idle, then priced again: the new price is shown, never sent under the buyer.
    s.step({ type: 'BLOCKED' })
    s.step({ type: 'EXPIRED' })
    return false
  }
  // The wallet may have been switched meanwhile: check once more before sending.
  if ((await s.w.currentChainId(s.provider)) !== s.chain.id) {
    s.step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
    return false
  }
  return guard(s.ctx, s.w, s.state.quote, s.request, s.alive)
}
