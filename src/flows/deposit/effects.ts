// The deposit's I/O: each state the machine enters may start one effect (keyed, so a state
// update inside the same stage does not restart it); leaving the stage cancels it.
import type { Hex } from 'viem'
import type { ApiClient } from '../../api/client'
import type { DepositQuote, DepositQuoteRequest } from '../../api/schemas'
import { getDepositStatus, quoteDeposit } from '../../api/deposit'
import { type WidgetConfig, chainOf } from '../../config/config'
import { describeError } from '../../errors/words'
import { walletProblemOf } from '../../errors/WalletError'
import { walk } from '../../errors/WidgetError'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import { pollLater } from '../../polling/pollLater'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { exclusive } from '../../kernel/tabLock'
import { tabLockEffect } from '../../kernel/follow'
import { expiryEffect, staleness } from '../../kernel/quote'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import { discoverWallets, providerByRdns, providerOf } from '../../wallet/eip6963'
import { type DepositEvent, type DepositState, type Form, type ReceiptSummary, type Rejection, type Session, type Tracking, trackingId } from './machine'
import { type Expected, isNativeToken, judgeOutflow, previewOf } from './preview'

type QuoteState = Extract<DepositState, { tag: 'quote' }>


type ChainActions = typeof import('../../wallet/chainActions')

export type DepositDeps = {
  config: WidgetConfig
  api: ApiClient
  store: FlowStore<Tracking>
  target: Window
  clock: Clock
  loadChainActions: () => Promise<ChainActions>
  pollIntervalMs?: number
  dropCheckMs?: number
}

export function createDepositEffects(deps: DepositDeps, dispatch: (event: DepositEvent) => void) {
  const { config, api, store, clock } = deps
  const receipts = new Map<string, ReceiptSummary>()
  // Nonce slots of transactions sent in this visit (kept in memory: they name the sender).
  const sent = new Map<string, import('../../wallet/chainActions').SentTransaction>()
  let wallets: import('../../kernel/types').WalletInfo[] = []
  let stopDiscovery: (() => void) | undefined
  // Quotes refused by the guard or the simulation: never used again, even if the service repeats one.
  const rejected = new Set<string>()
  // What the quote would make the wallet do, written one way: a re-cased address, a value "00" or an
  // amountIn "25.50" is the same quote.
  const fingerprint = (quote: DepositQuote) => {
    const tx = quote.transaction
    const a = quote.approval
    const big = (v: string) => {
      try {
        return BigInt(v).toString()
      } catch {
        return v
      }
    }
    const decimals = config.sources.find((s) => s.chainId === tx.chainId)?.decimals
    let amountIn = quote.amountIn
    try {
      if (decimals !== undefined) amountIn = toBaseUnits(quote.amountIn, decimals).toString()
    } catch {}
    return JSON.stringify([
      tx.chainId,
      tx.to.toLowerCase(),
      tx.data.toLowerCase(),
      big(tx.value),
      a ? [a.token.toLowerCase(), a.spender.toLowerCase(), big(a.amount)] : null,
      amountIn,
    ])
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => clock.setTimeout(resolve, ms))
  }

  function effectOf(state: DepositState): Effect | Effect[] | undefined {
    switch (state.tag) {
      case 'discovering':
        return { key: 'discover', start: (alive) => discover(alive) }
      case 'connecting':
        return { key: `connect:${state.wallet.id}`, start: (alive) => void connect(state, alive) }
      case 'quoting':
        return { key: `quote:${state.amount}:${state.requote}`, start: (alive) => void requestQuote(state, alive) }
      case 'quote':
        if (state.work !== 'idle') return { key: `send:${state.quotedAt}`, start: (alive) => void sendDeposit(state, alive) }
        // A quote that came expired, or valid for too long to trust: nothing runs; the buyer asks again.
        if (state.stale) return undefined
        return [
          expiryEffect(state.quotedAt, state.quote.expiresAt, clock, dispatch),
          ...(state.preview
            ? []
            : [{ key: `preview:${state.quotedAt}:${state.previewAttempt ?? 0}`, start: (alive: () => boolean) => void preview(state, alive) }]),
        ]
      case 'tracking': {
        const { txHash } = state.tracking
        // The batch's id when there is one: the lock keeps its name once the hash is known.
        const name = (state.tracking.callsId ?? txHash).toLowerCase()
        const lock = tabLockEffect('deposit', name, dispatch)
        // Only the tab holding the lock reads the chain and polls; the others wait their turn.
        if (state.tab !== 'held') return [lock]
        if (state.phase === 'batching') {
          return [
            lock,
            {
              key: `batch:${name}:${state.attempt}`,
              start: (alive) => {
                // After a reload the wallet must announce itself again before it can be asked.
                const stop = discoverWallets(deps.target, () => {})
                void followBatch(state, alive)
                return stop
              },
            },
          ]
        }
        return [
          lock,
          state.phase === 'confirming'
            ? { key: `receipt:${txHash}:${state.attempt}`, start: (alive, signal) => void confirm(state, alive, signal) }
            : { key: `status:${txHash}:${state.attempt}`, start: (alive) => followStatus(state, alive) },
        ]
      }
      case 'result':
        return { key: `result:${trackingId(state.tracking)}`, start: () => store.clear() }
      default:
        return undefined
    }
  }



  function discover(alive: () => boolean) {
    stopDiscovery ??= discoverWallets(deps.target, (found) => {
      wallets = found
      dispatch({ type: 'WALLETS', wallets })
    })
    deps.target.dispatchEvent(new Event('eip6963:requestProvider'))
    const timer = clock.setTimeout(() => alive() && dispatch({ type: 'WALLETS', wallets }), 400)
    return () => clock.clearTimeout(timer)
  }

  async function connect(state: Extract<DepositState, { tag: 'connecting' }>, alive: () => boolean) {
    const provider = providerOf(state.wallet.id)
    try {
      if (!provider) throw Object.assign(new Error('wallet gone'), { code: 4900 })
      const actions = await deps.loadChainActions()
      const account = await actions.connect(provider)
      if (!alive()) return
      dispatch(account ? { type: 'CONNECTED', account } : { type: 'CONNECT_FAILED', problem: 'noAccount' })
    } catch (error) {
      if (alive()) dispatch({ type: 'CONNECT_FAILED', problem: walletProblemOf(error) })
    }
  }

  const sourceOf = (form: Form) => config.sources[form.source] ?? config.sources[0]

  /** What the buyer asked for: the request the quote must answer, and the guard's reference. */
  function requestOf(form: Form, session: Session, amount: string): DepositQuoteRequest {
    const source = sourceOf(form)
    const fixed = config.destination
    return {
      source: { chainId: source.chainId, token: source.token, address: session.account },
      destination: fixed ? { chainId: fixed.chainId, token: fixed.token, address: fixed.address ?? session.account } : undefined,
      amount,
      method: 'crypto',
    }
  }

  function reject(quote: DepositQuote, rejection: Rejection, alive: () => boolean) {
    rejected.add(fingerprint(quote))
    if (alive()) dispatch({ type: 'QUOTE_REJECTED', rejection })
  }

  /** The guard, with the wallet code (it decodes calldata with viem): `true` when the quote may be used. */
  function guard(w: ChainActions, quote: DepositQuote, request: DepositQuoteRequest, alive: () => boolean): boolean {
    const verdict = rejected.has(fingerprint(quote)) ? ({ ok: false, rule: 'reused' } as const) : w.guardQuote(request, quote, config)
    if (verdict.ok) return true
    reject(quote, { rule: verdict.rule }, alive)
    return false
  }

  async function requestQuote(state: Extract<DepositState, { tag: 'quoting' }>, alive: () => boolean) {
    const request = requestOf(state.form, state.session, state.amount)
    try {
      const [quote, w] = await Promise.all([quoteDeposit(api, request), deps.loadChainActions()])
      // Before anything reaches the wallet, and before the buyer sees a price to confirm.
      if (!alive() || !guard(w, quote, request, alive)) return
      // Already expired, or "valid" for more than an hour: shown as such, never used, never re-asked on its own.
      const at = clock.now()
      dispatch({ type: 'QUOTED', quote, at, stale: staleness(quote.expiresAt, at) })
    } catch (error) {
      if (alive()) dispatch({ type: 'QUOTE_FAILED', problem: describeError(error) })
    }
  }

  function expectedOf(state: QuoteState): Expected {
    const source = sourceOf(state.form)
    const chain = chainOf(config, state.quote.transaction.chainId)
    return {
      token: source.token,
      amountIn: toBaseUnits(state.quote.amountIn, source.decimals),
      decimals: source.decimals,
      symbol: source.symbol,
      native: isNativeToken(source.token),
      value: BigInt(state.quote.transaction.value),
      feeSymbol: chain.nativeSymbol ?? 'ETH',
      spender: state.quote.approval?.spender,
    }
  }

  /** The calls the wallet will be asked for: the approval when the allowance is short, then the deposit. */
  async function callsOf(w: ChainActions, reader: import('viem').Client, quote: DepositQuote, account: Hex) {
    const deposit = { to: quote.transaction.to as Hex, data: quote.transaction.data as Hex, value: BigInt(quote.transaction.value) }
    const approval = quote.approval
    if (!approval) return { calls: [deposit], approve: undefined }
    const needed = BigInt(approval.amount)
    const current = await w.allowance(reader, approval.token as Hex, account, approval.spender as Hex)
    if (current >= needed) return { calls: [deposit], approve: undefined }
    const approve = { to: approval.token as Hex, data: w.approveData(approval.spender as Hex, needed), value: 0n }
    return { calls: [approve, deposit], approve }
  }

  /**
   * Before the wallet opens: the approval and the deposit run on the source chain as the buyer, and
   * the confirm screen shows what leaves the wallet. Anything but amountIn of the source token (and
   * gas) leaving it refuses the quote, as the guard does; a revert says why.
   */
  async function preview(state: QuoteState, alive: () => boolean) {
    const { quote, session } = state
    const chain = chainOf(config, quote.transaction.chainId)
    const provider = providerOf(session.wallet.id)
    const account = session.account as Hex
    const expected = expectedOf(state)
    const done = (preview: import('./machine').Preview) => alive() && dispatch({ type: 'PREVIEW', preview })
    try {
      const w = await deps.loadChainActions()
      // Reads through the wallet only when it is on the source chain already (no prompt to switch here).
      if (!chain.rpcUrl && (!provider || (await w.currentChainId(provider)) !== chain.id)) return done({ kind: 'unavailable' })
      const reader = w.readClient(chain, provider)
      // A balance too low would only revert: the send says it in the buyer's words instead (and
      // runs this preview again, should the balance be enough by then).
      if (!expected.native && (await w.tokenBalance(reader, source(state).token as Hex, account)) < expected.amountIn) {
        return done({ kind: 'short' })
      }
      const { calls } = await callsOf(w, reader, quote, account)
      const simulated = await w.simulate(reader, account, calls)
      if (!alive()) return
      if (simulated.kind === 'reverted') return reject(quote, { rule: 'simulation.revert', reason: simulated.reason }, alive)
      const fee = simulated.gasUsed * simulated.gasPrice
      // No eth_simulateV1: nothing judged what leaves the wallet. Only a quote whose every call the
      // guard understands (a plain transfer of amountIn, the Depositor's deposit) may be sent.
      if (simulated.kind === 'estimated') {
        return done(previewOf(expected, fee, w.understood(requestOf(state.form, session, state.amount), quote, config)))
      }
      const verdict = judgeOutflow(simulated.changes, expected, fee)
      if (verdict.ok) done(verdict.preview)
      else reject(quote, verdict.rejection, alive)
    } catch {
      // The chain could not be asked (network trouble, an odd answer): nothing is sent unjudged;
      // the buyer may try again.
      done({ kind: 'unavailable' })
    }
  }
  const source = (state: QuoteState) => sourceOf(state.form)

  async function sendDeposit(state: QuoteState, alive: () => boolean) {
    // Two tabs at the same confirm screen: only one sends.
    const result = await exclusive('stablecoin-widget:deposit:send', () => send(state, alive))
    if (result === 'elsewhere' && alive()) dispatch({ type: 'BLOCKED', notice: { kind: 'elsewhere' } })
  }

  async function send(state: QuoteState, alive: () => boolean) {
    const { quote, session } = state
    const source = sourceOf(state.form)
    const chain = chainOf(config, quote.transaction.chainId)
    const provider = providerOf(session.wallet.id)
    const account = session.account as Hex
    const request = requestOf(state.form, session, state.amount)
    const step = (event: DepositEvent) => alive() && dispatch(event)
    if (!provider) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'disconnected' } })
    try {
      const w = await deps.loadChainActions()
      // Once more before the first prompt (a network switch is one): the quote must still be the one checked.
      if (!guard(w, quote, request, alive)) return
      if ((await w.currentChainId(provider)) !== chain.id) {
        step({ type: 'WORK', work: 'switching' })
        if (!(await w.ensureChain(provider, chain))) return step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
      }
      if (!alive()) return
      step({ type: 'WORK', work: 'checking' })
      const reader = w.readClient(chain, provider)
      // A native source has no token contract to ask: its balance is the account's own.
      const native = isNativeToken(source.token)
      const balance = native ? await w.nativeBalance(reader, account) : await w.tokenBalance(reader, source.token as Hex, account)
      if (balance < toBaseUnits(quote.amountIn, source.decimals)) {
        const notice = { kind: 'insufficient', balance: fromBaseUnits(balance, source.decimals) } as const
        return step({ type: 'BLOCKED', notice })
      }
      // The preview said only "balance too low": with enough now, it runs (and judges) first.
      if (!(state.preview?.kind === 'ready' && state.preview.safe)) return step({ type: 'RETRY_PREVIEW' })
      const gas = await w.nativeBalance(reader, account)
      if (gas === 0n || gas < BigInt(quote.transaction.value)) {
        return step({ type: 'BLOCKED', notice: { kind: 'insufficientGas' } })
      }
      const { calls, approve } = await callsOf(w, reader, quote, account)
      const deposit = calls[calls.length - 1]
      const stillValid = async () => {
        if (!alive()) return false
        if (Date.parse(quote.expiresAt) <= clock.now()) {
          // Back to idle, then priced again: the new price is shown, never sent under the buyer.
          step({ type: 'BLOCKED' })
          step({ type: 'EXPIRED' })
          return false
        }
        // The wallet may have been switched meanwhile: check once more before sending.
        if ((await w.currentChainId(provider)) !== chain.id) {
          step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
          return false
        }
        return guard(w, quote, request, alive)
      }
      const trackingOf = (txHash: string, callsId?: string): Tracking => ({
        provider: quote.provider,
        chainId: chain.id,
        txHash,
        callsId,
        walletRdns: session.wallet.rdns,
        summary: {
          amountIn: quote.amountIn,
          amountOut: quote.amountOut,
          fee: quote.fee,
          sourceChainId: chain.id,
          destChainId: config.destination?.chainId ?? config.defaultDestination.chainId,
          sourceSymbol: source.symbol,
          destSymbol: config.destination?.symbol ?? config.defaultDestination.symbol,
        },
        createdAt: clock.now(),
        approvalHash: state.approvalHash,
      })

      // One confirmation where the wallet can batch (EIP-5792): the approval and the deposit together.
      if (approve && (await w.canBatch(provider, account, chain.id))) {
        if (!(await stillValid())) return
        step({ type: 'WORK', work: 'batching' })
        const callsId = await w.sendBatch(provider, chain, account, calls)
        const tracking = trackingOf('', callsId)
        // Persisted like a hash: a reload follows the batch, with no second prompt.
        store.save(tracking)
        return dispatch({ type: 'SENT', tracking })
      }

      if (approve) {
        if (!(await stillValid())) return
        step({ type: 'WORK', work: 'approving' })
        const hash = await w.send(provider, chain, account, approve)
        step({ type: 'WORK', work: 'approvalConfirming', approvalHash: hash })
        const receipt = await w.waitReceipt(reader, hash, () => {})
        if (!receipt.success) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'unknown' } })
      }
      if (!(await stillValid())) return
      step({ type: 'WORK', work: 'sending' })
      const txHash = await w.send(provider, chain, account, deposit)
      const tracking = trackingOf(txHash)
      // Persist before anything else: from here on the buyer's money is moving.
      store.save(tracking)
      const known = await w.sentTransaction(reader, txHash)
      if (known) sent.set(txHash.toLowerCase(), known)
      dispatch({ type: 'SENT', tracking })
    } catch (error) {
      if (!alive()) return
      const mismatch = walk(error, (e) => (e as Error | null)?.name === 'ChainMismatchError')
      const notice = mismatch
        ? ({ kind: 'wrongChain' } as const)
        : ({ kind: 'wallet', problem: walletProblemOf(error) } as const)
      dispatch({ type: 'BLOCKED', notice })
    }
  }

  /** A batch the wallet holds: ask it until it tells the deposit's hash (no prompt: a status read). */
  async function followBatch(state: Extract<DepositState, { tag: 'tracking' }>, alive: () => boolean) {
    const { tracking } = state
    store.save(tracking)
    const w = await deps.loadChainActions()
    while (alive()) {
      try {
        const provider = tracking.walletRdns ? providerByRdns(tracking.walletRdns) : undefined
        if (!provider) throw new Error('the wallet has not announced itself yet')
        const answer = await w.batchStatus(provider, tracking.callsId ?? '')
        if (!alive()) return
        if (answer.status === 'failure') return dispatch({ type: 'BATCH_FAILED', outcome: answer.reverted ? 'reverted' : 'dropped' })
        if (answer.status === 'success' && answer.hashes.length > 0) {
          // Calls run in order: the last transaction is the deposit, an earlier one the approval.
          const txHash = answer.hashes[answer.hashes.length - 1]
          const approvalHash = answer.hashes.length > 1 ? answer.hashes[0] : undefined
          store.save({ ...tracking, txHash, approvalHash })
          dispatch({ type: 'WAITING', waiting: false })
          return dispatch({ type: 'BATCHED', txHash, approvalHash })
        }
        await sleep(1_000)
      } catch {
        if (!alive()) return
        dispatch({ type: 'WAITING', waiting: true })
        await sleep(2_000)
      }
    }
  }

  /** Whether anything here can read the chain: its own RPC, or the wallet that sent on it. */
  function readable(tracking: Tracking) {
    const chain = config.chains.find((c) => c.id === tracking.chainId)
    if (!chain) return false
    return !!chain.rpcUrl || !!(tracking.walletRdns && providerByRdns(tracking.walletRdns))
  }

  async function confirm(state: Extract<DepositState, { tag: 'tracking' }>, alive: () => boolean, signal: AbortSignal) {
    const { tracking } = state
    store.save(tracking)
    // No endless loop on a chain nothing here can read: say so, and let the buyer stop following.
    if (!readable(tracking)) return dispatch({ type: 'UNREADABLE' })
    const w = await deps.loadChainActions()
    const chain = chainOf(config, tracking.chainId)
    watchForDrop(tracking, alive).catch(() => {})
    while (alive()) {
      try {
        const provider = tracking.walletRdns ? providerByRdns(tracking.walletRdns) : undefined
        const receipt = await w.waitReceipt(
          w.readClient(chain, provider),
          tracking.txHash as Hex,
          (r) => {
            if (!alive()) return
            if (r.reason === 'repriced') store.save({ ...tracking, txHash: r.hash })
            dispatch({ type: 'REPLACED', reason: r.reason, txHash: r.hash })
          },
          sent.get(tracking.txHash.toLowerCase()),
          signal,
        )
        if (!alive()) return
        receipts.set(receipt.txHash.toLowerCase(), { txHash: receipt.txHash, logs: receipt.logs })
        if (receipt.txHash.toLowerCase() !== tracking.txHash.toLowerCase()) return
        dispatch({ type: 'WAITING', waiting: false })
        return dispatch({ type: 'RECEIPT', success: receipt.success })
      } catch {
        if (!alive()) return
        dispatch({ type: 'WAITING', waiting: true })
        await sleep(3_000)
      }
    }
  }

  /**
   * A transaction the chain stops knowing (dropped from the mempool) never gets a receipt. After two
   * checks that cannot find it, the buyer is told; it is never resent for them.
   */
  async function watchForDrop(tracking: Tracking, alive: () => boolean) {
    const w = await deps.loadChainActions()
    const provider = tracking.walletRdns ? providerByRdns(tracking.walletRdns) : undefined
    let reader: import('viem').Client
    try {
      reader = w.readClient(chainOf(config, tracking.chainId), provider)
    } catch {
      return
    }
    let misses = 0
    while (alive()) {
      await sleep(deps.dropCheckMs ?? deps.config.timings?.dropCheckMs ?? 10_000)
      if (!alive()) return
      const seen = (await w.sentTransaction(reader, tracking.txHash as Hex)) !== undefined
      misses = seen ? 0 : misses + 1
      dispatch({ type: 'MISSING', missing: misses >= 2 })
    }
  }

  function followStatus(state: Extract<DepositState, { tag: 'tracking' }>, alive: () => boolean) {
    const { tracking } = state
    let stop: (() => void) | undefined
    const start = (receipt: ReceiptSummary) => {
      if (!alive()) return
      stop = pollLater({
        key: ['deposit-status', tracking.txHash],
        fetch: () => getDepositStatus(api, { provider: tracking.provider, receipt }, 'poll'),
        isTerminal: (s) => s.status !== 'pending',
        intervalMs: deps.pollIntervalMs ?? deps.config.timings?.pollMs ?? 3_000,
        onData: (s) =>
          dispatch({ type: 'TRACK', status: s.status, origin: s.txHashes?.origin, delivered: s.txHashes?.delivered }),
        onError: (error) => dispatch({ type: 'TRACK_ERROR', problem: describeError(error) }),
        onRetrying: () => dispatch({ type: 'WAITING', waiting: true }),
      })
    }
    const known = receipts.get(tracking.txHash.toLowerCase())
    if (known) start(known)
    else void readReceipt(tracking).then(start, (error) => alive() && dispatch({ type: 'TRACK_ERROR', problem: describeError(error) }))
    return () => stop?.()
  }

  async function readReceipt(tracking: Tracking): Promise<ReceiptSummary> {
    const w = await deps.loadChainActions()
    const provider = tracking.walletRdns ? providerByRdns(tracking.walletRdns) : undefined
    const receipt = await w.waitReceipt(w.readClient(chainOf(config, tracking.chainId), provider), tracking.txHash as Hex, () => {})
    return { txHash: receipt.txHash, logs: receipt.logs }
  }

  // A deposit sent from another tab of this origin: follow it here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== store.key || !event.newValue) return
    const tracking = store.load()
    if (tracking) dispatch({ type: 'ADOPT', tracking })
  }
  deps.target.addEventListener('storage', onStorage)

  const runner = createEffectRunner(effectOf)
  return {
    run: runner.run,
    dispose() {
      runner.dispose()
      stopDiscovery?.()
      deps.target.removeEventListener('storage', onStorage)
    },
  }
}
