// The deposit's I/O: each state the machine enters may start one effect (keyed, so a state
// update inside the same stage does not restart it); leaving the stage cancels it.
import type { Hex } from 'viem'
import type { ApiClient } from '../../api/client'
import { getDepositStatus, quoteDeposit } from '../../api/deposit'
import { type WidgetConfig, chainOf } from '../../config/config'
import { describeError } from '../../errors/describe'
import { walletProblemOf } from '../../errors/WalletError'
import { walk } from '../../errors/WidgetError'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import { pollLater } from '../../polling/pollLater'
import { type Effect, createEffectRunner } from '../effectRunner'
import { exclusive, holdTabLock } from '../tabLock'
import type { Clock } from '../../rateLimit/rateLimiter'
import type { FlowStore } from '../../storage/flowStore'
import { discoverWallets, providerByRdns, providerOf } from '../../wallet/eip6963'
import type { DepositEvent, DepositState, ReceiptSummary, Tracking } from './machine'

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
  let wallets: import('./machine').WalletInfo[] = []
  let stopDiscovery: (() => void) | undefined

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
        return state.step === 'idle'
          ? { key: `expiry:${state.quotedAt}`, start: () => expiryTimer(state) }
          : { key: `send:${state.quotedAt}`, start: (alive) => void sendDeposit(state, alive) }
      case 'tracking': {
        const { txHash } = state.tracking
        const lock: Effect = {
          key: `tab:${txHash}`,
          start: () => holdTabLock(`stablecoin-widget:deposit:${txHash.toLowerCase()}`, (tab) => dispatch({ type: 'TAB', tab })),
        }
        // Only the tab holding the lock reads the chain and polls; the others wait their turn.
        if (state.tab !== 'held') return [lock]
        return [
          lock,
          state.phase === 'confirming'
            ? { key: `receipt:${txHash}:${state.attempt}`, start: (alive, signal) => void confirm(state, alive, signal) }
            : { key: `status:${txHash}:${state.attempt}`, start: (alive) => followStatus(state, alive) },
        ]
      }
      case 'result':
        return { key: `result:${state.tracking.txHash}`, start: () => store.clear() }
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

  async function requestQuote(state: Extract<DepositState, { tag: 'quoting' }>, alive: () => boolean) {
    const source = config.sources[state.form.source] ?? config.sources[0]
    const fixed = config.destination
    try {
      const quote = await quoteDeposit(api, {
        source: { chainId: source.chainId, token: source.token, address: state.session.account },
        destination: fixed
          ? { chainId: fixed.chainId, token: fixed.token, address: fixed.address ?? state.session.account }
          : undefined,
        amount: state.amount,
        method: 'crypto',
      })
      if (alive()) dispatch({ type: 'QUOTED', quote, at: clock.now() })
    } catch (error) {
      if (alive()) dispatch({ type: 'QUOTE_FAILED', problem: describeError(error) })
    }
  }

  function expiryTimer(state: Extract<DepositState, { tag: 'quote' }>) {
    const left = Date.parse(state.quote.expiresAt) - clock.now()
    const timer = clock.setTimeout(() => dispatch({ type: 'QUOTE_EXPIRED' }), Math.max(0, left))
    return () => clock.clearTimeout(timer)
  }

  async function sendDeposit(state: Extract<DepositState, { tag: 'quote' }>, alive: () => boolean) {
    // Two tabs at the same confirm screen: only one sends.
    const result = await exclusive('stablecoin-widget:deposit:send', () => send(state, alive))
    if (result === 'elsewhere' && alive()) dispatch({ type: 'BLOCKED', notice: { kind: 'elsewhere' } })
  }

  async function send(state: Extract<DepositState, { tag: 'quote' }>, alive: () => boolean) {
    const { quote, session } = state
    const source = config.sources[state.form.source] ?? config.sources[0]
    const chain = chainOf(config, quote.transaction.chainId)
    const provider = providerOf(session.wallet.id)
    const account = session.account as Hex
    const step = (event: DepositEvent) => alive() && dispatch(event)
    if (!provider) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'disconnected' } })
    try {
      const w = await deps.loadChainActions()
      if ((await w.currentChainId(provider)) !== chain.id) {
        step({ type: 'STEP', step: 'switching' })
        if (!(await w.ensureChain(provider, chain))) return step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
      }
      if (!alive()) return
      step({ type: 'STEP', step: 'checking' })
      const reader = w.readClient(chain, provider)
      const balance = await w.tokenBalance(reader, source.token as Hex, account)
      if (balance < toBaseUnits(quote.amountIn, source.decimals)) {
        const notice = { kind: 'insufficient', balance: fromBaseUnits(balance, source.decimals) } as const
        return step({ type: 'BLOCKED', notice })
      }
      const gas = await w.nativeBalance(reader, account)
      if (gas === 0n || gas < BigInt(quote.transaction.value)) {
        return step({ type: 'BLOCKED', notice: { kind: 'insufficientGas' } })
      }
      const approval = quote.approval
      if (approval) {
        const needed = BigInt(approval.amount)
        const current = await w.allowance(reader, approval.token as Hex, account, approval.spender as Hex)
        if (current < needed) {
          if (!alive()) return
          step({ type: 'STEP', step: 'approving' })
          const hash = await w.sendApprove(provider, chain, account, approval.token as Hex, approval.spender as Hex, needed)
          step({ type: 'STEP', step: 'approvalConfirming', approvalHash: hash })
          const receipt = await w.waitReceipt(reader, hash, () => {})
          if (!receipt.success) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'unknown' } })
        }
      }
      if (!alive()) return
      if (Date.parse(quote.expiresAt) <= clock.now()) {
        step({ type: 'BLOCKED', notice: { kind: 'refreshed' } })
        return step({ type: 'QUOTE_EXPIRED' })
      }
      // The wallet may have been switched while the buyer approved: check once more before sending.
      if ((await w.currentChainId(provider)) !== chain.id) return step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
      step({ type: 'STEP', step: 'sending' })
      const txHash = await w.send(provider, chain, account, {
        to: quote.transaction.to as Hex,
        data: quote.transaction.data as Hex,
        value: BigInt(quote.transaction.value),
      })
      const tracking: Tracking = {
        provider: quote.provider,
        chainId: chain.id,
        txHash,
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
      }
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

  async function confirm(state: Extract<DepositState, { tag: 'tracking' }>, alive: () => boolean, signal: AbortSignal) {
    const { tracking } = state
    store.save(tracking)
    const w = await deps.loadChainActions()
    const chain = chainOf(config, tracking.chainId)
    void watchForDrop(tracking, alive)
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
    const reader = w.readClient(chainOf(config, tracking.chainId), provider)
    let misses = 0
    while (alive()) {
      await sleep(deps.dropCheckMs ?? 10_000)
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
        intervalMs: deps.pollIntervalMs ?? 3_000,
        onData: (s) =>
          dispatch({ type: 'STATUS', status: s.status, origin: s.txHashes?.origin, delivered: s.txHashes?.delivered }),
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
