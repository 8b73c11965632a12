// The one-off deposit's I/O, keyed per stage: the reference data (payment methods and limits),
// creating the deposit under an idempotency key kept before the first attempt, following its
// status through the partner backend, and keeping what a reload needs.
import { createBankDeposit, getBankDepositStatus } from '../../api/bankDeposit'
import type { PartnerHttp } from '../../api/partnerHttp'
import { getLimits, getPaymentMethods } from '../../api/reference'
import { describeError } from '../../errors/describeError'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { followEffects } from '../../kernel/followEffects'
import type { Clock } from '../../kernel/types'
import type { IdentityState } from '../../identity/machine'
import { type AmountState, type FlowState, isIdentityStep, type BankDepositEvent, type BankDepositState, type StatusView, isFinalStatus, storedDeposit } from './machine'
import type { Attempt, KeptDeposit, Store } from './persisted'

/** Bank transfers take minutes to days: a status every 15 s is plenty (sandbox builds poll faster). */
export const BANK_POLL_MS = 15_000

export type BankDepositDeps = {
  http: PartnerHttp
  store: Store<KeptDeposit>
  attempts: Store<Attempt>
  clock: Clock
  /** The partner's own reference (config.reference): the idempotency key when given. */
  partnerReference?: string
  newReference: () => string
  pollIntervalMs?: number
}

/** The effects of every flow state: the identity steps' (when the flow composes them), then the deposit's. */
export function createBankDepositEffects(
  deps: BankDepositDeps,
  dispatch: (event: BankDepositEvent) => void,
  identity?: (state: IdentityState) => Effect | undefined,
) {
  const deposit = bankDepositEffects(deps, dispatch)
  return createEffectRunner((state: FlowState) => (state.tag === 'starting' ? undefined : isIdentityStep(state) ? identity?.(state) : deposit(state)))
}

export function bankDepositEffects(deps: BankDepositDeps, dispatch: (event: BankDepositEvent) => void) {
  const { http, store, attempts, clock } = deps

  function effectOf(state: BankDepositState): Effect | Effect[] | undefined {
    switch (state.tag) {
      case 'amount':
        if (state.work === 'creating') return { key: `create:${state.form.currency}:${state.checked}`, start: (alive, signal) => void create(state, alive, signal) }
        return state.reference || state.loadProblem ? undefined : { key: `reference:${state.loads}`, start: (alive, signal) => void loadReference(alive, signal) }
      case 'following':
        return [
          keep(state),
          ...followEffects(
            'bankDeposit',
            state.deposit.id,
            state,
            {
              fetch: () => getBankDepositStatus(http, state.deposit.id),
              isTerminal: (s) => isFinalStatus(s.status),
              intervalMs: deps.pollIntervalMs ?? BANK_POLL_MS,
              onData: (s) => dispatch({ type: 'TRACK', status: view(s) }),
            },
            dispatch,
          ),
        ]
      case 'done':
        return keep(state)
    }
  }

  /** The deposit and its last status, saved at every change of status (a reload resumes there). */
  function keep(state: Extract<BankDepositState, { tag: 'following' | 'done' }>): Effect {
    const s = state.status
    return { key: `keep:${state.deposit.id}:${s.status}:${s.fiatAmount ?? ''}:${s.settlementTxHash ?? ''}`, start: () => store.save({ deposit: state.deposit, status: s }) }
  }

  async function loadReference(alive: () => boolean, signal: AbortSignal) {
    try {
      const [methods, limits] = await Promise.all([
        getPaymentMethods(http, signal),
        // Limits are a courtesy check before the request; without them the service still has the last word.
        getLimits(http, undefined, signal).catch(() => []),
      ])
      if (alive()) dispatch({ type: 'REFERENCE', data: { methods, limits } })
    } catch (error) {
      if (alive()) dispatch({ type: 'REFERENCE_FAILED', problem: describeError(error) })
    }
  }

  async function create(state: AmountState, alive: () => boolean, signal: AbortSignal) {
    const { account } = state
    const currency = state.form.currency
    const amount = state.checked ?? ''
    try {
      await attempts.ready?.()
    } catch (error) {
      if (alive()) dispatch({ type: 'CREATE_FAILED', problem: describeError(error), pinned: deps.partnerReference !== undefined })
      return
    }
    const pending = attempts.load()
    const same = pending && pending.accountId === account.accountId && pending.currency === currency && pending.amount === amount
    // The key is kept before the first attempt: a retry after a lost answer sends it again and gets
    // the same deposit. A partner's reference is its own key, whatever we asked before.
    const reference = same ? pending.reference : (deps.partnerReference ?? deps.newReference())
    if (!same) attempts.save({ reference, accountId: account.accountId, currency, amount, savedAt: clock.now() })
    try {
      const created = await createBankDeposit(http, { accountId: account.accountId, walletId: account.walletId, fiatCurrency: currency, fiatAmount: amount, reference }, signal)
      const deposit = storedDeposit(created, state, amount, clock.now())
      const status: StatusView = { id: created.id, status: created.status }
      // The deposit exists: keep it before anything else, so no reload can lose it.
      store.save({ deposit, status })
      attempts.clear()
      dispatch({ type: 'CREATED', deposit, status })
    } catch (error) {
      if (alive()) dispatch({ type: 'CREATE_FAILED', problem: describeError(error), pinned: deps.partnerReference !== undefined })
    }
  }

  return effectOf
}

function view(s: StatusView & { updatedAt?: string }): StatusView {
  const { updatedAt: _, ...rest } = s
  return rest
}
