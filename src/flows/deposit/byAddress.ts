// Paying by address, from another wallet or an exchange: the stage before the address is shown (the
// amount, where the deposit is delivered, the quote) and the watch once it is (a `tracking` state in
// phase `watching`, persisted, as the buyer may have sent). Pure; loaded with its screen
// (byAddressPart.ts), taken by the machine under BY_ADDRESS.
import { localeAmount, parseAmount } from '../../lib/decimal'
import { disconnected } from '../../kernel/connectWallet'
import { tracked } from './sent'
import type { ByAddress, ByAddressEvent, Context, DepositState } from './state'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export function byAddressTransition(state: DepositState, event: ByAddressEvent, ctx: Context): DepositState {
  if (state.tag === 'byAddress') return stageTransition(state, event, ctx)
  // From the choice of wallet, into paying by address.
  if (event.type === 'START' && (state.tag === 'wallets' || state.tag === 'discovering'))
    return { tag: 'byAddress', form: state.form, receiver: event.receiver ?? '', locked: !!event.receiver, kit: event.kit, stage: 'form' }
  if (state.tag !== 'tracking' || state.phase !== 'watching') return state
  // The buyer said they did not send, once the quote expired: the effects forget the record (effects.ts).
  switch (event.type) {
    case 'FOUND':
      // The transfer asked for is on the chain: followed from its hash as any sent deposit.
      return { ...state, phase: 'confirming', tracking: { ...state.tracking, txHash: event.txHash } }
    case 'STRAY': {
      const strays = state.strays ?? []
      if (strays.some((s) => s.txHash === event.stray.txHash)) return state
      return { ...state, strays: [...strays, event.stray] }
    }
    case 'ABANDON':
      return { ...disconnected(), form: { amount: localeAmount(state.tracking.summary.amountIn, ctx.decimalMark), source: 0 } }
    default:
      return state
  }
}

function stageTransition(state: ByAddress, event: ByAddressEvent, ctx: Context): DepositState {
  switch (event.type) {
    case 'EDIT':
      if (state.stage === 'quoting') return state
      return {
        ...state,
        stage: 'form',
        refusal: undefined,
        error: undefined,
        form: { amount: event.amount ?? state.form.amount, source: event.source ?? state.form.source },
        receiver: state.locked || state.kit ? state.receiver : (event.receiver ?? state.receiver),
      }
    case 'SUBMIT': {
      if (state.stage !== 'form') return state
      const parsed = parseAmount(state.form.amount, ctx.sourceDecimals[state.form.source] ?? 0, ctx.decimalMark)
      if (!parsed.ok) return { ...state, error: { kind: 'amount', problem: parsed.problem } }
      if (!state.kit && !ADDRESS.test(state.receiver.trim())) return { ...state, error: { kind: 'receiver' } }
      return { ...state, stage: 'quoting', amount: parsed.value, receiver: state.receiver.trim(), error: undefined }
    }
    case 'QUOTED':
      // The point of no return: once the address is shown, the buyer may send (the effect kept the record first).
      return state.stage === 'quoting' ? tracked(event.tracking) : state
    case 'QUOTE_FAILED':
      return state.stage === 'quoting' ? { ...state, stage: 'form', error: { kind: 'api', problem: event.problem } } : state
    case 'QUOTE_REJECTED':
      return state.stage === 'quoting' ? { ...state, stage: 'form', error: { kind: 'rejected', rejection: event.rejection } } : state
    case 'REFUSED':
      return state.stage === 'quoting' ? { ...state, stage: 'refused', refusal: event.refusal } : state
    case 'BACK':
      if (state.stage === 'quoting') return state
      return state.stage === 'refused' ? { ...state, stage: 'form', refusal: undefined } : { ...disconnected(), form: state.form }
    default:
      return state
  }
}
