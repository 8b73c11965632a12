// Opening the virtual account (POST /fiat/account) once the service knows the buyer; while their
// identity check is pending, asked again now and then instead of hammering.
import { openAccount } from '../../api/onboarding'
import { KycPending } from '../../errors/ApiError'
import { describeError } from '../../errors/describeError'
import type { OnboardingContext } from './context'
import type { OnboardingState } from './machine'

type Opening = Extract<OnboardingState, { tag: 'opening' }>

export function open(ctx: OnboardingContext, state: Opening, alive: () => boolean) {
  if (!state.kycPending || state.attempt === 0) {
    void openNow(ctx, state, alive)
    return
  }
  const timer = ctx.clock.setTimeout(() => void openNow(ctx, state, alive), ctx.kycRecheckMs ?? ctx.config.timings?.kycRecheckMs ?? 15_000)
  return () => ctx.clock.clearTimeout(timer)
}

async function openNow(ctx: OnboardingContext, { record }: Opening, alive: () => boolean) {
  const { api, store, dispatch } = ctx
  try {
    // The point of no return is near: the ids are kept, so a reload opens the same account.
    await store.ready?.()
    if (!store.load()?.walletId) store.save(record)
    const account = await openAccount(api, record.accountId, record.walletId)
    const details = Object.fromEntries(Object.entries(account.details).filter((e): e is [string, string] => typeof e[1] === 'string'))
    const full = { ...record, virtualAccountId: account.id, details, feeBps: account.applicationFeeBps, asset: account.asset }
    store.save(full)
    const { asset: _, ...event } = full
    ctx.emit('account', event)
    if (alive()) dispatch({ type: 'ACCOUNT_OPENED', virtualAccountId: account.id, details, feeBps: account.applicationFeeBps, asset: account.asset })
  } catch (error) {
    if (!alive()) return
    if (error instanceof KycPending) dispatch({ type: 'ACCOUNT_PENDING' })
    else dispatch({ type: 'ACCOUNT_FAILED', problem: describeError(error) })
  }
}
