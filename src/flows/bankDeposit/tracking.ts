// Following the deposit through the partner backend (POST /bank/deposit/status) until it settles
// or is returned, and keeping its last status: a reload resumes there.
import { getBankDepositStatus } from '../../api/bankDeposit'
import type { Effect } from '../../kernel/effects'
import { followEffects } from '../../kernel/followEffects'
import { isBankDepositFinal } from '../../lib/status/bankDeposit'
import type { BankDepositContext } from './context'
import type { BankDepositState, StatusView } from './machine'

/** Bank transfers take minutes to days: a status every 15 s is plenty (sandbox builds poll faster). */
export const BANK_POLL_MS = 15_000

type Kept = Extract<BankDepositState, { tag: 'tracking' | 'result' }>

export function trackingEffects(ctx: BankDepositContext, state: Extract<BankDepositState, { tag: 'tracking' }>): Effect[] {
  const { id } = state.deposit
  return [
    keep(ctx, state),
    ...followEffects(
      'bankDeposit',
      id,
      state,
      {
        fetch: () => getBankDepositStatus(ctx.http, id),
        isTerminal: (s) => isBankDepositFinal(s.status),
        intervalMs: ctx.pollIntervalMs ?? BANK_POLL_MS,
        onData: (s) => ctx.dispatch({ type: 'TRACK', status: view(s) }),
      },
      ctx.dispatch,
    ),
  ]
}

/** The deposit and its last status, saved at every change of status (a reload resumes there). */
export function keep(ctx: BankDepositContext, state: Kept): Effect {
  const s = state.status
  return {
    key: `keep:${state.deposit.id}:${s.status}:${s.fiatAmount ?? ''}:${s.settlementTxHash ?? ''}`,
    start: () => ctx.store.save({ deposit: state.deposit, status: s }),
  }
}

function view(s: StatusView & { updatedAt?: string }): StatusView {
  const { updatedAt: _, ...rest } = s
  return rest
}
