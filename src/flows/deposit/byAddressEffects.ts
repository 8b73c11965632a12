// Paying by address: the quote (guarded as any, then held to the by-address rule), and the watch on
// the chain for the transfer into its deposit address, through the registry's rpcUrl. Fetched when
// the buyer picks it, or when a reload resumes a watch.
import { quoteDeposit } from '../../api/deposit'
import { quoteDepositAddress } from '../../api/depositAddress'
import type { DepositAddressRequest } from '../../api/schemas'
import { chainOf } from '../../config/config'
import { describeError } from '../../errors/describeError'
import { partnerStorage } from '../../storage/flowStore'
import { NS } from '../../storage/safeStorage'
import { blockNumber, transfersInto } from '../../wallet/watchTransfer'
import { byAddressPart } from './byAddressPart'
import type { DepositContext } from './context'
import type { ByAddress, ByAddressEvent, DepositState, Tracking } from './machine'
import { guard, sourceOf } from './quoting'

type Watching = Extract<DepositState, { tag: 'tracking' }>

/** Deposit addresses once offered here: never offered again, whatever a later quote says. */
const SPENT = `${NS}:spent-deposit-addresses`
const KEEP = 50

function spent(ctx: DepositContext): string[] {
  try {
    const list = JSON.parse(partnerStorage(ctx.config)?.getItem(SPENT) ?? '[]')
    return Array.isArray(list) ? list.filter((a): a is string => typeof a === 'string') : []
  } catch {
    return []
  }
}

function markSpent(ctx: DepositContext, address: string) {
  try {
    partnerStorage(ctx.config)?.setItem(SPENT, JSON.stringify([address.toLowerCase(), ...spent(ctx)].slice(0, KEEP)))
  } catch {}
}

/** Events of paying by address reach the machine once its transition is here. */
async function tell(ctx: DepositContext, alive: () => boolean, event: ByAddressEvent) {
  await byAddressPart.load()
  if (alive()) ctx.dispatch({ type: 'BY_ADDRESS', event })
}

export async function quoteByAddress(ctx: DepositContext, state: ByAddress, alive: () => boolean) {
  const source = sourceOf(ctx, state.form)
  const fixed = ctx.config.destination
  // With the kit, the deposit settles where the partner set (its depositDestination, filled in by
  // the kit): only an address the registry or a signed link fixed is named, never the buyer's own;
  // with none fixed, no sender either: the kit names the partner's own (docs/assumptions.md).
  const kit = ctx.config.walletLink === true
  const request: DepositAddressRequest = {
    source: { chainId: source.chainId, token: source.token, ...(state.kit ? {} : { address: state.receiver }) },
    destination: fixed && (!kit || fixed.address) ? { chainId: fixed.chainId, token: fixed.token, address: fixed.address ?? state.receiver } : undefined,
    amount: state.amount ?? '',
    method: 'crypto' as const,
  }
  const refuse = (refusal: NonNullable<ByAddress['refusal']>) => tell(ctx, alive, { type: 'REFUSED', refusal })
  try {
    // Where the partner's backend is the kit, the kit asks for the quote and records its address to
    // the signed-in buyer first: the transfer is theirs whatever sends it (an exchange signs nothing).
    const asked = kit
      ? ctx.partner().then((http) => quoteDepositAddress(http, request))
      : quoteDeposit(ctx.api, { ...request, source: { ...request.source, address: state.receiver } })
    const [quote, w] = await Promise.all([asked, ctx.loadChainActions()])
    if (!alive()) return
    // The guard every quote passes (a refusal is the deposit's own QUOTE_REJECTED, said on the form).
    const rejected: ByAddressEvent[] = []
    if (!guard({ ...ctx, dispatch: (e) => e.type === 'QUOTE_REJECTED' && rejected.push(e) }, w, quote, request, alive)) {
      return rejected[0] && tell(ctx, alive, rejected[0])
    }
    const payable = w.payableByAddress(request, quote, source)
    if (!payable.ok) return refuse(payable.why)
    if (spent(ctx).includes(payable.address.toLowerCase())) return refuse('spent')
    const chain = chainOf(ctx.config, source.chainId)
    if (!chain.rpcUrl) return refuse('unreadable')
    const fromBlock = await blockNumber(w.readClient(chain))
    const dest = fixed ?? ctx.config.defaultDestination
    const tracking: Tracking = {
      provider: quote.provider,
      chainId: source.chainId,
      txHash: '',
      summary: {
        amountIn: quote.amountIn,
        amountOut: quote.amountOut,
        fee: quote.fee,
        sourceChainId: source.chainId,
        destChainId: dest.chainId,
        sourceSymbol: source.symbol,
        destSymbol: dest.symbol,
      },
      createdAt: ctx.clock.now(),
      watch: { address: payable.address, token: payable.token, units: payable.units, fromBlock, expiresAt: quote.expiresAt },
    }
    if (!alive()) return
    // Kept before the address is shown: from then on the buyer may send, and a reload must watch on.
    ctx.store.save(tracking)
    markSpent(ctx, payable.address)
    await tell(ctx, alive, { type: 'QUOTED', tracking })
  } catch (error) {
    if (alive()) await tell(ctx, alive, { type: 'QUOTE_FAILED', problem: describeError(error) })
  }
}

const hidden = (ctx: DepositContext) => (ctx.target as Window).document?.visibilityState === 'hidden'

/** Until the page is shown again (or the watch ends). */
function shown(ctx: DepositContext, alive: () => boolean): Promise<void> {
  const doc = (ctx.target as Window).document
  if (!doc || !hidden(ctx)) return Promise.resolve()
  return new Promise((resolve) => {
    const on = () => {
      if (hidden(ctx) && alive()) return
      doc.removeEventListener('visibilitychange', on)
      resolve()
    }
    doc.addEventListener('visibilitychange', on)
  })
}

/**
 * Looks for the transfer every few seconds while the page is shown: the one asked (token and amount
 * exactly) is followed from its hash; any other into the address is said, never followed.
 */
export async function watchTransfer(ctx: DepositContext, state: Watching, alive: () => boolean, signal: AbortSignal) {
  const watch = state.tracking.watch
  if (!watch) return
  ctx.store.save(state.tracking)
  const chain = chainOf(ctx.config, state.tracking.chainId)
  if (!chain.rpcUrl) return ctx.dispatch({ type: 'UNREADABLE' })
  const reader = (await ctx.loadChainActions()).readClient(chain, undefined, signal)
  const interval = Math.max(ctx.pollIntervalMs ?? ctx.config.timings?.pollMs ?? 4_000, 250)
  let failures = 0
  while (alive()) {
    await shown(ctx, alive)
    if (!alive()) return
    try {
      const transfers = await transfersInto(reader, watch.address, watch.fromBlock)
      if (!alive()) return
      failures = 0
      ctx.dispatch({ type: 'WAITING', waiting: false })
      const found = transfers.find((t) => t.token.toLowerCase() === watch.token.toLowerCase() && t.units === watch.units)
      if (found) {
        ctx.store.save({ ...state.tracking, txHash: found.txHash })
        return tell(ctx, alive, { type: 'FOUND', txHash: found.txHash })
      }
      for (const t of transfers) await tell(ctx, alive, { type: 'STRAY', stray: { txHash: t.txHash, token: t.token, units: t.units } })
    } catch {
      // The chain's RPC is down or slow: said as waiting, tried again later and less often.
      failures++
      if (failures > 1) ctx.dispatch({ type: 'WAITING', waiting: true })
    }
    await ctx.sleep(interval * Math.min(2 ** failures, 8))
  }
}
