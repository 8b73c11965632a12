// Creating the deposit (POST /bank/deposit) under an idempotency key kept before the first attempt:
// a retry after a lost answer sends it again and gets the same deposit.
import { type BankDeposit, createBankDeposit } from '../../api/bankDeposit'
import { ApiError } from '../../errors/ApiError'
import { describeError } from '../../errors/describeError'
import type { BankDepositContext } from './context'
import type { FormState, StatusView, StoredDeposit } from './machine'

export async function create(ctx: BankDepositContext, state: FormState, alive: () => boolean, signal: AbortSignal) {
  const { account } = state
  const { attempts, clock, dispatch } = ctx
  const currency = state.form.currency
  const amount = state.checked ?? ''
  const failed = (error: unknown) =>
    alive() &&
    dispatch({
      type: 'CREATE_FAILED',
      problem: describeError(error),
      pinned: ctx.partnerReference !== undefined,
      // A higher verification tier: nothing was created, and the attempt (its reference) is kept for the same request once verified.
      requiresAction: error instanceof ApiError && error.code === 'requires_action',
    })
  try {
    await attempts.ready?.()
  } catch (error) {
    failed(error)
    return
  }
  const pending = attempts.load()
  const same = pending && pending.accountId === account.accountId && pending.currency === currency && pending.amount === amount
  // A partner's reference is its own key, whatever we asked before.
  const reference = same ? pending.reference : (ctx.partnerReference ?? (ctx.newReference ?? newReference)())
  if (!same) attempts.save({ reference, accountId: account.accountId, currency, amount, savedAt: clock.now() })
  try {
    const created = await createBankDeposit(
      ctx.http,
      { accountId: account.accountId, walletId: account.walletId, fiatCurrency: currency, fiatAmount: amount, reference },
      signal,
    )
    const deposit = storedDeposit(created, state, amount, clock.now())
    const status: StatusView = { id: created.id, status: created.status }
    // The deposit exists: keep it before anything else, so no reload can lose it.
    ctx.store.save({ deposit, status })
    attempts.clear()
    dispatch({ type: 'CREATED', deposit, status })
  } catch (error) {
    failed(error)
  }
}

/** The record kept once the service answered the create request. */
function storedDeposit(created: BankDeposit, state: Pick<FormState, 'form' | 'account'>, amount: string, now: number): StoredDeposit {
  const { currency, country } = state.form
  return {
    id: created.id,
    rail: created.rail,
    expiresAt: created.expiresAt,
    details: created.details,
    currency,
    amount,
    country,
    wallet: state.account.wallet,
    createdAt: now,
  }
}

/** A fresh idempotency key (the contract allows 64 characters): 16 random bytes, hex. */
export function newReference(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16))
  return `bd-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}
