// What the service says about paying here (GET /payment-methods and /limits), for the form.
import { getLimits, getPaymentMethods } from '../../api/reference'
import { describeError } from '../../errors/describeError'
import type { BankDepositContext } from './context'

export async function loadReference(ctx: BankDepositContext, alive: () => boolean, signal: AbortSignal) {
  try {
    const [methods, limits] = await Promise.all([
      getPaymentMethods(ctx.http, signal),
      // Limits are a courtesy check before the request; without them the service still has the last word.
      getLimits(ctx.http, undefined, signal).catch(() => []),
    ])
    if (alive()) ctx.dispatch({ type: 'REFERENCE', data: { methods, limits } })
  } catch (error) {
    if (alive()) ctx.dispatch({ type: 'REFERENCE_FAILED', problem: describeError(error) })
  }
}
