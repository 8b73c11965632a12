// The point of no return: the KYC token, then the purchase, through the partner backend.
import { describeError } from '../../errors/describeError'
import type { CardContext } from './context'
import type { CardState, Purchase } from './machine'

export async function purchase(ctx: CardContext, state: Extract<CardState, { tag: 'quote' }>, alive: () => boolean) {
  const { partner, clock, dispatch } = ctx
  const walletAddress = state.form.address.trim()
  try {
    const { token } = await partner.kycToken(walletAddress)
    if (!alive()) return
    const created = await partner.purchase({
      kycToken: token,
      fiatCurrency: state.form.currency,
      fiatAmount: state.amount,
      walletAddress,
      returnUrl: ctx.returnUrl(),
    })
    const record: Purchase = {
      id: created.id,
      environment: created.environment,
      currency: state.form.currency,
      total: state.quote.total,
      cryptoAmount: state.quote.cryptoAmount,
      cryptoCurrency: state.quote.cryptoCurrency,
      createdAt: clock.now(),
      redirectUrl: created.redirectUrl,
    }
    // The purchase exists: keep it before anything else, so no return path can lose it.
    ctx.store.save(record)
    dispatch({ type: 'PURCHASED', purchase: record, redirectUrl: created.redirectUrl })
  } catch (error) {
    if (alive()) dispatch({ type: 'PURCHASE_FAILED', problem: describeError(error) })
  }
}
