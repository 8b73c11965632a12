// The payout's I/O, one named effect per stage (keyed: a state update inside a stage does not
// restart it). The wallet code (viem) is loaded only once the funding step needs it.
import { whenChecked } from '../../storage/storedCheck'
import type { Hex } from 'viem'
import { createPayout, getPayoutStatus, quotePayout } from '../../api/payout'
import type { PartnerHttp } from '../../api/partnerHttp'
import { getLimits } from '../../api/reference'
import type { ChainConfig, WidgetConfig } from '../../config/config'
import { chainOf } from '../../config/config'
import { ApiError, FieldRejected, QuoteExpired } from '../../errors/ApiError'
import { walletProblemOf } from '../../errors/WalletError'
import { walk } from '../../errors/WidgetError'
import { describeError } from '../../errors/describeError'
import { type IdentityDeps, identityEffect } from '../../identity/effects'
import { isIdentityState } from '../../identity/machine'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { followEffects } from '../../kernel/followEffects'
import { expiryEffect, staleness } from '../../kernel/quote'
import { exclusive } from '../../kernel/tabLock'
import type { Clock } from '../../kernel/types'
import { beneficiarySchema, buildBeneficiary } from './beneficiary'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import { pickLimit } from '../../lib/limits'
import type { Eip1193Provider } from '../../wallet/eip6963'
import { type PayoutEvent, type PayoutRecord, type PayoutState, type Source, isFinalPayoutStatus } from './machine'
import { type PayoutStore, type ReferenceStore, type SpentAddresses, newReference } from './persisted'
import { checkQuote } from './quoteCheck'
import { checkPayout, checkTransfer, transferOf } from './transfer'

type State<T extends PayoutState['tag']> = Extract<PayoutState, { tag: T }>

/** The wallet calls the funding step makes (src/wallet/chainActions.ts, loaded on demand). */
export type WalletActions = {
  connect(provider: Eip1193Provider): Promise<string | undefined>
  currentChainId(provider: Eip1193Provider): Promise<number>
  ensureChain(provider: Eip1193Provider, chain: ChainConfig): Promise<boolean>
  readClient(chain: ChainConfig, provider?: Eip1193Provider): import('viem').Client
  tokenBalance(client: import('viem').Client, token: Hex, owner: Hex): Promise<bigint>
  nativeBalance(client: import('viem').Client, owner: Hex): Promise<bigint>
  send(provider: Eip1193Provider, chain: ChainConfig, account: Hex, tx: { to: Hex; data: Hex; value: bigint }): Promise<Hex>
}

export type PayoutDeps = {
  config: WidgetConfig
  partner: PartnerHttp
  source: Source
  store: PayoutStore
  references: ReferenceStore
  spent: SpentAddresses
  clock: Clock
  identity: IdentityDeps
  loadWallet: () => Promise<WalletActions>
  /** EIP-6963: the wallets that announce themselves, and the provider of one. */
  discover: (onChange: (wallets: import('../../kernel/types').WalletInfo[]) => void) => () => void
  providerOf: (walletId: string) => Eip1193Provider | undefined
  newReference?: () => string
  pollIntervalMs?: number
}

/**
 * Clears one payout's record, once its check is here if it is not yet (even after the flow is
 * gone: a finished payout is not kept). Outside the effects' scope, so the wait holds the store
 * and the id, never the flow.
 */
function clearOnceChecked(store: PayoutDeps['store'], id: string) {
  whenChecked(() => store.clear(id), store.ready, store.arrived)
}

export function createPayoutEffects(deps: PayoutDeps, dispatch: (event: PayoutEvent) => void) {
  const { config, partner, source, store, clock } = deps
  let stopDiscovery: (() => void) | undefined

  function effectOf(state: PayoutState): Effect | Array<Effect | undefined> | undefined {
    if (isIdentityState(state)) return identityEffect(state, deps.identity, dispatch)
    switch (state.tag) {
      case 'form':
        return [
          state.limits ? undefined : { key: 'limits', start: (alive) => void loadLimits(alive) },
          // Started over before any transfer: that payout and its reference are forgotten, never resumed nor reused.
          state.abandoned ? { key: `abandon:${state.abandoned}`, start: () => forget(state.abandoned as string) } : undefined,
        ]
      case 'quoting':
        return { key: `quote:${JSON.stringify(state.ask)}:${state.requote}`, start: (alive, signal) => void requestQuote(state, alive, signal) }
      case 'quote':
        return state.stale ? undefined : expiryEffect(state.quotedAt, state.quote.expiresAt, clock, dispatch)
      case 'beneficiary':
        return state.work === 'creating'
          ? { key: `create:${state.quotedAt}`, start: (alive) => void create(state, alive) }
          : expiryEffect(state.quotedAt, state.quote.expiresAt, clock, dispatch)
      case 'funding':
        return [
          { key: 'discover', start: () => discover() },
          state.work === 'connecting' && state.wallet ? { key: `connect:${state.wallet.id}`, start: (alive) => void connect(state, alive) } : undefined,
          // One effect from the buyer's click to the hash: its own WORK reports (switching, sending) do not restart it.
          state.work !== 'idle' && state.work !== 'connecting' ? { key: `send:${state.record.id}`, start: (alive) => void fund(state, alive) } : undefined,
          // The wallet was asked and never answered (a reload): what arrived is read before the buyer may choose anything.
          state.verify === 'running' ? { key: `verify:${state.record.id}`, start: (alive) => void verify(state, alive) } : undefined,
        ]
      case 'following':
        return followEffects('payout', state.record.id, state, {
          fetch: () => getPayoutStatus(partner, state.record.id),
          isTerminal: (s) => isFinalPayoutStatus(s.status),
          intervalMs: deps.pollIntervalMs ?? config.timings?.bankPollMs ?? config.timings?.pollMs ?? 5_000,
          onData: (s) => dispatch({ type: 'TRACK', status: s }),
        }, dispatch)
      case 'result':
        return { key: `result:${state.record.id}`, start: () => forget(state.record.id) }
    }
  }

  /** This payout's record (only it: another buyer's stays) and our reference go. A signed reference's claim stays. */
  function forget(id: string) {
    clearOnceChecked(store, id)
    deps.references.clear()
  }

  async function loadLimits(alive: () => boolean) {
    try {
      const limits = await getLimits(partner)
      if (alive()) dispatch({ type: 'LIMITS', limits })
    } catch {
      // A courtesy check before quoting: the service still enforces its own limits.
    }
  }

  async function requestQuote(state: State<'quoting'>, alive: () => boolean, signal: AbortSignal) {
    const { ask } = state
    const amount = ask.kind === 'crypto' ? { cryptoAmount: ask.amount } : { fiatAmount: ask.amount }
    try {
      const quote = await quotePayout(
        partner,
        { cryptoCurrency: source.symbol, chain: source.chainId, fiatCurrency: ask.currency, country: ask.country, ...amount, ...(ask.rail ? { rail: ask.rail } : {}) },
        signal,
      )
      if (!alive()) return
      // Exactly what the buyer asked to send, or at least what they asked to arrive: else never shown, nothing created.
      const asked = checkQuote(ask, quote, source.decimals)
      if (!asked.ok) return dispatch({ type: 'QUOTE_FAILED', problem: { key: `payout.problem.${asked.rule}`, code: `payout_${asked.rule}` } })
      const at = clock.now()
      dispatch({ type: 'QUOTED', quote, at, stale: staleness(quote.expiresAt, at) === 'expired' ? 'expired' : undefined })
    } catch (error) {
      if (alive()) dispatch({ type: 'QUOTE_FAILED', problem: describeError(error) })
    }
  }

  async function create(state: State<'beneficiary'>, alive: () => boolean) {
    const schema = state.draft.schema
    const built = schema ? buildBeneficiary(beneficiarySchema(schema), state.draft.values) : undefined
    if (!schema || !built?.ok) return dispatch({ type: 'CREATE_FAILED', problem: { key: 'payout.problem.beneficiary' } })
    const purpose = beneficiarySchema(schema).purpose ? state.draft.purpose.trim().replace(/\s+/g, ' ') : ''
    const request = {
      quoteId: state.quote.quoteId,
      accountId: state.buyer.accountId,
      beneficiary: built.beneficiary,
      ...(purpose ? { purpose } : {}),
    }
    // A reference belongs to exactly one request. The partner's signed one is one payout: a
    // different request is never sent under it (the service would hand back the first payout).
    // Ours is made per request and stored before the first attempt: a retry of this very request
    // after a lost answer sends the same one and gets the same payout, never a second.
    const signed = config.reference
    try {
      // The stored references and payouts are read from here on: their checks first.
      await Promise.all([store.ready(), deps.references.ready()])
    } catch (error) {
      if (alive()) dispatch({ type: 'CREATE_FAILED', problem: describeError(error) })
      return
    }
    if (signed && !deps.references.claim(signed, request)) {
      return dispatch({ type: 'CREATE_FAILED', problem: { key: 'payout.problem.referenceUsed', code: 'payout_reference_used' } })
    }
    const reference = signed ?? deps.references.forRequest(request, deps.newReference ?? (() => newReference()))
    try {
      const payout = await createPayout(partner, { ...request, reference })
      const verdict = checkPayout(payout, state.quote, source)
      if (!verdict.ok) {
        if (alive()) dispatch({ type: 'CREATE_FAILED', problem: { key: 'payout.problem.mismatch', code: `payout_${verdict.rule}` } })
        return
      }
      const entry = state.limits && pickLimit(state.limits, { currency: state.ask.currency, direction: 'payout', rail: state.quote.rail })
      const record: PayoutRecord = {
        id: payout.id,
        depositAddress: payout.depositAddress,
        depositAmount: payout.depositAmount,
        chain: payout.chain,
        expiresAt: payout.expiresAt,
        token: source.token,
        symbol: source.symbol,
        decimals: source.decimals,
        fiatAmount: state.quote.fiatAmount,
        fiatCurrency: state.ask.currency,
        rail: state.quote.rail,
        settlement: entry?.settlement ?? state.quote.estimatedSettlement,
        // Whose it is: resumed for this buyer only.
        accountId: state.buyer.accountId,
        wallet: state.buyer.wallet,
        createdAt: clock.now(),
      }
      // The payout exists: kept before anything else, so a reload funds this one, not a new one.
      store.save(record)
      dispatch({ type: 'CREATED', record })
      // The same reference gave back a payout whose address already received: follow it, never fund it again.
      if (payout.status !== 'pending' || deps.spent.has(payout.depositAddress)) dispatch({ type: 'ALREADY_FUNDED' })
    } catch (error) {
      // The service refused the request outright: nothing exists under the signed reference, so a corrected request may use it.
      if (signed && error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 409) deps.references.release(signed)
      if (!alive()) return
      const field = error instanceof FieldRejected && error.field?.startsWith('beneficiary.') ? error.field.slice('beneficiary.'.length) : undefined
      dispatch({ type: 'CREATE_FAILED', problem: describeError(error), field, expired: error instanceof QuoteExpired })
    }
  }

  function discover() {
    stopDiscovery ??= deps.discover((wallets) => dispatch({ type: 'WALLETS', wallets }))
  }

  async function connect(state: State<'funding'>, alive: () => boolean) {
    const provider = state.wallet && deps.providerOf(state.wallet.id)
    try {
      if (!provider) throw Object.assign(new Error('wallet gone'), { code: 4900 })
      const w = await deps.loadWallet()
      const sender = await w.connect(provider)
      if (!alive()) return
      dispatch(sender ? { type: 'CONNECTED', sender } : { type: 'BLOCKED', problem: { kind: 'noAccount' } })
    } catch (error) {
      if (alive()) dispatch({ type: 'BLOCKED', problem: { kind: 'wallet', problem: walletProblemOf(error) } })
    }
  }

  async function fund(state: State<'funding'>, alive: () => boolean) {
    // Two tabs on the same payout: only one may ask the wallet.
    const result = await exclusive(`stablecoin-widget:payout:send:${state.record.id}`, () => send(state, alive))
    if (result === 'elsewhere' && alive()) dispatch({ type: 'BLOCKED', problem: { kind: 'elsewhere' } })
  }

  async function send(state: State<'funding'>, alive: () => boolean) {
    const { record } = state
    const sender = state.sender as Hex
    const provider = state.wallet && deps.providerOf(state.wallet.id)
    const block = (problem: import('./machine').FundingProblem) => alive() && dispatch({ type: 'BLOCKED', problem })
    if (!provider || !sender) return block({ kind: 'wallet', problem: 'disconnected' })
    const chain = chainOf(config, record.chain)
    const tx = transferOf(record, source)
    const checked = () => {
      const verdict = checkTransfer(tx, record, source, sender)
      if (!verdict.ok) block({ kind: 'refused', rule: verdict.rule })
      return verdict.ok
    }
    let asked = false
    try {
      if (!checked()) return
      // One address serves one payout: never a second transfer to it, from this browser or any.
      if (deps.spent.has(record.depositAddress)) return alive() && dispatch({ type: 'ALREADY_FUNDED' })
      const status = await getPayoutStatus(partner, record.id)
      if (!alive()) return
      if (status.depositTxHash || status.status !== 'pending') return dispatch({ type: 'ALREADY_FUNDED' })
      const w = await deps.loadWallet()
      if (!alive()) return
      // The wallet is on the payout's chain before the prompt (a switch is asked for, never assumed).
      if ((await w.currentChainId(provider)) !== chain.id) {
        if (alive()) dispatch({ type: 'WORK', work: 'switching' })
        const switched = await w.ensureChain(provider, chain).catch(() => false)
        if (!switched) return block({ kind: 'wrongChain' })
      }
      if (!alive()) return
      const reader = w.readClient(chain, provider)
      // Before every prompt, the first too: another device or storage may have funded this payout
      // (the same signed reference gives the same payout back) before the service saw it. Its
      // address's token balance, not its Transfer logs: the service cannot sweep what it has not
      // seen, and a log range from the payout's creation (a block no other device knows) is one
      // that public RPCs refuse. Read on the payout's chain (the wallet is on it now).
      if ((await w.tokenBalance(reader, source.token as Hex, record.depositAddress as Hex)) > 0n) return alive() && dispatch({ type: 'ALREADY_FUNDED' })
      const balance = await w.tokenBalance(reader, source.token as Hex, sender)
      if (balance < toBaseUnits(record.depositAmount, source.decimals)) return block({ kind: 'insufficient', balance: fromBaseUnits(balance, source.decimals) })
      if ((await w.nativeBalance(reader, sender)) === 0n) return block({ kind: 'insufficientGas' })
      if (!alive()) return
      if (Date.parse(record.expiresAt) <= clock.now()) return block({ kind: 'expired' })
      // Checked again right before sending: the chain (chainActions.send asks the wallet once more) and the transfer.
      if ((await w.currentChainId(provider)) !== chain.id) return block({ kind: 'wrongChain' })
      if (!checked() || !alive()) return
      // Kept BEFORE the wallet is asked: a reload while its confirmation is open (it stays in the
      // wallet's queue) must know a transfer to this address may be on its way.
      const marked: PayoutRecord = { ...record, promptedAt: clock.now() }
      store.save(marked)
      dispatch({ type: 'PROMPTED', record: marked })
      asked = true
      const txHash = await w.send(provider, chain, sender, { to: tx.to as Hex, data: tx.data as Hex, value: tx.value })
      // Past the point of no return: kept before anything else, so a reload follows it and never asks again.
      deps.spent.add(record.depositAddress)
      store.save({ ...marked, txHash, sender })
      dispatch({ type: 'SENT', txHash, sender })
    } catch (error) {
      const mismatch = !!walk(error, (e) => (e as Error | null)?.name === 'ChainMismatchError')
      const problem = walletProblemOf(error)
      if (asked && (mismatch || problem === 'rejected')) {
        // The wallet refused before sending, or the buyer declined: this ask left nothing on its way (an earlier unanswered one still counts).
        store.save(record)
        if (alive()) dispatch({ type: 'BLOCKED', problem: mismatch ? { kind: 'wrongChain' } : { kind: 'wallet', problem }, record, asked: true })
        return
      }
      if (!alive()) return
      if (mismatch) return block({ kind: 'wrongChain' })
      // Before the prompt, a failure is the service's or the chain's (the status check, a read): nothing was sent.
      if (!asked && problem === 'unknown') return block({ kind: 'check', problem: describeError(error) })
      // Asked, and no answer we can trust: the mark stays, and the buyer checks before any new send.
      dispatch({ type: 'BLOCKED', problem: { kind: 'wallet', problem }, asked })
    }
  }

  /**
   * After a reload (or a lost answer) while the wallet was asked: the service's status and the
   * deposit address's token balance on chain. Money there, or a status past pending, is followed;
   * only when neither shows anything may the buyer choose to send (a second confirmation).
   */
  async function verify(state: State<'funding'>, alive: () => boolean) {
    const { record } = state
    try {
      if (deps.spent.has(record.depositAddress)) return alive() && dispatch({ type: 'ALREADY_FUNDED' })
      const status = await getPayoutStatus(partner, record.id)
      if (!alive()) return
      if (status.depositTxHash || status.status !== 'pending') return dispatch({ type: 'ALREADY_FUNDED' })
      const w = await deps.loadWallet()
      const held = await w.tokenBalance(w.readClient(chainOf(config, record.chain)), source.token as Hex, record.depositAddress as Hex)
      if (!alive()) return
      dispatch(held > 0n ? { type: 'ALREADY_FUNDED' } : { type: 'VERIFIED' })
    } catch (error) {
      if (alive()) dispatch({ type: 'VERIFY_FAILED', problem: { kind: 'check', problem: describeError(error) } })
    }
  }

  const runner = createEffectRunner(effectOf)
  return {
    run: runner.run,
    dispose() {
      runner.dispose()
      stopDiscovery?.()
    },
  }
}
