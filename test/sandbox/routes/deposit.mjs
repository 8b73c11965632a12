// /deposit/quote and /deposit/status, with a routing layer that checks each receipt against the
// source chain and really delivers on the destination chain. The partner path mirrors the status
// under /v1/deposit/status: the same request and answer, with the key (server.mjs counts it
// against the key's rate; the widget path's is the per-IP limit).
import { randomBytes } from 'node:crypto'
import { createWalletClient, decodeEventLog, encodeFunctionData, erc20Abi, formatUnits, http, parseEventLogs, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import { HttpError, invalid, parseBody } from '../http.mjs'
import { createKeyring } from './reference.mjs'

const PROVIDER = 'sandbox-relay'
const SOURCE_CHAIN = 8453
const DEST_CHAIN = 42161
const MAX_AMOUNT = 500_000n * 10n ** 6n
const MAX_UINT = 2n ** 256n - 1n
const DEAD = '0x000000000000000000000000000000000000dEaD'
const WETH = '0x4200000000000000000000000000000000000006'
const STRANGER = '0x1111111111111111111111111111111111111111'
// The ERC-20 calls and the Transfer event, as viem has them.
const erc20 = erc20Abi

/**
 * A hostile or buggy routing provider: each rule of the widget's quote guard, broken once
 * (`POST /__sandbox/control {"hostileQuote": "<rule>"}`). The quote is otherwise the real one.
 */
export const HOSTILE_RULES = {
  chain: (q) => ({ ...q, transaction: { ...q.transaction, chainId: 1 } }),
  amount: (q, { units, deposit }) => ({
    ...q,
    amountIn: formatUnits(units + 1n, 6),
    approval: { ...q.approval, amount: (units + 1n).toString() },
    transaction: { ...q.transaction, data: deposit(units + 1n) },
  }),
  value: (q) => ({ ...q, transaction: { ...q.transaction, value: '500000000000000000' } }),
  target: (q) => ({ ...q, transaction: { ...q.transaction, to: '0x0000000000000000000000000000000000000000' } }),
  'approval.token': (q) => ({ ...q, approval: { ...q.approval, token: WETH } }),
  'approval.amount': (q) => ({ ...q, approval: { ...q.approval, amount: MAX_UINT.toString() } }),
  'approval.spender': (q) => ({ ...q, approval: { ...q.approval, spender: DEAD } }),
  // Not the destination token: deployed first on each anvil, both tokens share one address.
  'transfer.token': (q, { units, addresses }) => ({
    ...q,
    approval: undefined,
    transaction: { ...q.transaction, to: WETH, data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [addresses.depositor, units] }) },
  }),
  'transfer.amount': (q, { units, addresses }) => ({
    ...q,
    approval: undefined,
    transaction: {
      ...q.transaction,
      to: addresses.sourceToken,
      data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [addresses.depositor, units * 2n] }),
    },
  }),
  'transfer.from': (q, { units, addresses }) => ({
    ...q,
    approval: undefined,
    transaction: {
      ...q.transaction,
      to: addresses.sourceToken,
      data: encodeFunctionData({ abi: erc20, functionName: 'transferFrom', args: [STRANGER, addresses.depositor, units] }),
    },
  }),
  'data.approve': (q, { addresses }) => ({
    ...q,
    approval: undefined,
    transaction: { ...q.transaction, to: addresses.sourceToken, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [DEAD, MAX_UINT] }) },
  }),
  // Quotes the guard cannot see through, caught by the simulation: the deposit pulls twice the
  // amount (from a standing allowance), or more than the approval allows (it reverts).
  'simulation.outflow': (q, { units, deposit }) => ({ ...q, approval: undefined, transaction: { ...q.transaction, data: deposit(units * 2n) } }),
  'simulation.revert': (q, { units, deposit }) => ({ ...q, transaction: { ...q.transaction, data: deposit(units + 1n) } }),
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex digits')
const endpoint = z.object({ chainId: z.number().int(), token: address, address })
const quoteRequest = z.object({
  source: endpoint,
  destination: endpoint.optional(),
  amount: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a decimal string')
    .regex(/^\d+(\.\d{1,6})?$/, 'at most 6 decimals'),
  method: z.literal('crypto', { message: 'must be "crypto"' }),
})
const statusRequest = z.object({
  provider: z.string(),
  receipt: z.object({
    txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 32-byte hex hash'),
    logs: z.array(z.object({ address, topics: z.array(z.string()) })),
  }),
})

export function depositRoutes({ chains, artifacts, addresses }) {
  // quoteStyle 'address': the quote is a plain ERC-20 transfer to a deposit address of its own (what a
  // deposit paid by address from another wallet or an exchange needs), checked by its Transfer log.
  const defaults = { nextOutcome: 'done', quoteTtlSeconds: 120, processingMs: 1500, hostileQuote: undefined, quoteStyle: 'contract' }
  let settings = { ...defaults }
  const quotes = new Map()
  // Quotes paid by address, by their deposit address (lower case).
  const byAddress = new Map()
  const transfers = new Map()
  // No permission of its own in the contract: any valid key.
  const keys = createKeyring()

  function fee(units) {
    const pct = units / 1000n
    return pct > 10_000n ? pct : 10_000n // 0.1 %, at least 0.01 USDC
  }

  async function quote({ body }) {
    const req = parseBody(quoteRequest, body)
    if (req.source.chainId !== SOURCE_CHAIN) throw new HttpError(403, 'chain_not_allowed', `source.chainId: ${req.source.chainId} is not enabled as a source`)
    const destination = req.destination ?? { chainId: DEST_CHAIN, token: addresses.destToken, address: req.source.address }
    if (destination.chainId !== DEST_CHAIN)
      throw new HttpError(403, 'chain_not_allowed', `destination.chainId: ${destination.chainId} is not enabled as a destination`)
    if (req.source.token.toLowerCase() !== addresses.sourceToken.toLowerCase() || destination.token.toLowerCase() !== addresses.destToken.toLowerCase()) {
      throw new HttpError(400, 'no_route', 'No provider can route this token pair right now.')
    }
    const units = parseUnits(req.amount, 6)
    if (units === 0n) throw invalid('amount', 'must be above zero')
    const charge = fee(units)
    if (units <= charge) throw invalid('amount', 'too small to cover the fee')
    if (units > MAX_AMOUNT) throw new HttpError(400, 'no_route', 'No provider can route this amount right now.')
    const quoteId = `0x${randomBytes(32).toString('hex')}`
    const expiresAt = new Date(Date.now() + settings.quoteTtlSeconds * 1000)
    const q = { sender: req.source.address, destination, units, out: units - charge, outcome: settings.nextOutcome, expiresAt }
    quotes.set(quoteId, q)
    settings.nextOutcome = defaults.nextOutcome
    const deposit = (amount) => encodeFunctionData({ abi: artifacts.Depositor.abi, functionName: 'deposit', args: [addresses.sourceToken, amount, quoteId] })
    const hostile = HOSTILE_RULES[settings.hostileQuote]
    settings.hostileQuote = undefined
    // What every quote answers, whichever way it is paid.
    const priced = {
      provider: PROVIDER,
      quoteId,
      amountIn: formatUnits(units, 6),
      amountOut: formatUnits(units - charge, 6),
      fee: formatUnits(charge, 6),
      expiresAt: expiresAt.toISOString(),
    }
    if (settings.quoteStyle === 'address') {
      q.key = generatePrivateKey()
      q.depositAddress = privateKeyToAccount(q.key).address
      byAddress.set(q.depositAddress.toLowerCase(), q)
      const answer = {
        ...priced,
        transaction: {
          chainId: SOURCE_CHAIN,
          to: addresses.sourceToken,
          data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [q.depositAddress, units] }),
          value: '0',
        },
      }
      return { body: hostile ? hostile(answer, { units, deposit, addresses }) : answer }
    }
    const answer = {
      ...priced,
      approval: { token: addresses.sourceToken, spender: addresses.depositor, amount: units.toString() },
      transaction: { chainId: SOURCE_CHAIN, to: addresses.depositor, data: deposit(units), value: '0' },
    }
    return { body: hostile ? hostile(answer, { units, deposit, addresses }) : answer }
  }

  // txHash → promise of the transfer, so concurrent first calls verify and deliver only once.
  const pendingChecks = new Map()
  const timers = new Set()

  async function verify(hash) {
    const receipt = await chains.src.public.getTransactionReceipt({ hash }).catch(() => undefined)
    if (!receipt) throw invalid('receipt.txHash', 'not found on the source chain')
    const transfer = { origin: hash, status: 'pending', chainLogs: receipt.logs }
    if (receipt.status !== 'success') {
      transfer.status = 'failed'
      return transfer
    }
    const paid = paidByAddress(receipt)
    if (paid) return paidTransfer(transfer, receipt, paid)
    const deposit = receipt.logs
      .filter((log) => log.address.toLowerCase() === addresses.depositor.toLowerCase())
      .map((log) => {
        try {
          return decodeEventLog({ abi: artifacts.Depositor.abi, data: log.data, topics: log.topics })
        } catch {
          return undefined
        }
      })
      .find((e) => e?.eventName === 'Deposited')
    const q = deposit && quotes.get(deposit.args.quoteId)
    if (!q) throw invalid('receipt', 'carries no deposit of a known quote')
    const block = await chains.src.public.getBlock({ blockNumber: receipt.blockNumber })
    const late = Number(block.timestamp) * 1000 > q.expiresAt.getTime() && Date.now() > q.expiresAt.getTime()
    const wrongToken = deposit.args.token.toLowerCase() !== addresses.sourceToken.toLowerCase()
    transfer.quote = q
    transfer.sender = deposit.args.sender
    transfer.deposited = deposit.args.amount
    transfer.outcome = wrongToken || deposit.args.amount < q.units ? 'failed' : late ? 'expired' : q.outcome
    return settleLater(transfer)
  }

  /** The transfer settles once the sandbox's processing time has passed (its timer cleared on close). */
  function settleLater(transfer) {
    const timer = setTimeout(() => {
      timers.delete(timer)
      settle(transfer)
    }, settings.processingMs)
    timers.add(timer)
    return transfer
  }

  /** The receipt's Transfer of the source token into a deposit address this sandbox quoted. */
  function paidByAddress(receipt) {
    const logs = parseEventLogs({ abi: erc20, eventName: 'Transfer', logs: receipt.logs, strict: false })
    for (const log of logs) {
      const q = log.address.toLowerCase() === addresses.sourceToken.toLowerCase() && byAddress.get(String(log.args.to).toLowerCase())
      if (q) return { q, from: log.args.from, value: log.args.value }
    }
    return undefined
  }

  async function paidTransfer(transfer, receipt, { q, from, value }) {
    const block = await chains.src.public.getBlock({ blockNumber: receipt.blockNumber })
    const late = Number(block.timestamp) * 1000 > q.expiresAt.getTime() && Date.now() > q.expiresAt.getTime()
    transfer.quote = q
    transfer.sender = from
    transfer.deposited = value
    transfer.outcome = value < q.units ? 'failed' : late ? 'expired' : q.outcome
    return settleLater(transfer)
  }

  /** An expired deposit paid by address goes back to its sender from the deposit address itself. */
  async function refundFromAddress(transfer) {
    const account = privateKeyToAccount(transfer.quote.key)
    await chains.src.public.request({ method: 'anvil_setBalance', params: [account.address, '0x16345785D8A0000'] })
    const wallet = createWalletClient({ chain: chains.src.public.chain, transport: http(chains.src.public.transport.url), account })
    return wallet.sendTransaction({
      to: addresses.sourceToken,
      data: encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [transfer.sender, transfer.deposited] }),
    })
  }

  async function status({ body }) {
    const req = parseBody(statusRequest, body)
    if (req.provider !== PROVIDER) throw invalid('provider', `unknown provider "${req.provider}"`)
    const key = req.receipt.txHash.toLowerCase()
    let check = pendingChecks.get(key)
    if (!check) {
      check = verify(req.receipt.txHash)
      pendingChecks.set(key, check)
      // A hash not (yet) on chain or without a known deposit may be retried later.
      check.catch(() => pendingChecks.delete(key))
    }
    const transfer = await check
    const given = req.receipt.logs
    const same =
      transfer.chainLogs.length === given.length &&
      transfer.chainLogs.every(
        (log, i) => log.address.toLowerCase() === given[i].address.toLowerCase() && log.topics.join().toLowerCase() === given[i].topics.join().toLowerCase(),
      )
    if (!same) throw invalid('receipt.logs', 'do not match the transaction on the source chain')
    return {
      body: {
        status: transfer.status,
        txHashes: transfer.delivered ? { origin: transfer.origin, delivered: transfer.delivered } : { origin: transfer.origin },
      },
    }
  }

  async function settle(transfer) {
    try {
      if (transfer.outcome === 'done') {
        const hash = await chains.dst.wallet.writeContract({
          address: addresses.destToken,
          abi: artifacts.TestUSDC.abi,
          functionName: 'mint',
          args: [transfer.quote.destination.address, transfer.quote.out],
        })
        await chains.dst.public.waitForTransactionReceipt({ hash })
        transfer.delivered = hash
        transfer.status = 'done'
      } else if (transfer.outcome === 'expired' && transfer.quote.key) {
        await chains.src.public.waitForTransactionReceipt({ hash: await refundFromAddress(transfer) })
        transfer.status = 'expired'
      } else if (transfer.outcome === 'expired') {
        const hash = await chains.src.wallet.writeContract({
          address: addresses.depositor,
          abi: artifacts.Depositor.abi,
          functionName: 'refund',
          args: [addresses.sourceToken, transfer.sender, transfer.deposited],
        })
        await chains.src.public.waitForTransactionReceipt({ hash })
        transfer.status = 'expired'
      } else {
        transfer.status = 'failed'
      }
    } catch (error) {
      console.error('[sandbox] settlement failed', error)
      transfer.status = 'failed'
    }
  }

  return {
    routes: {
      'POST /deposit/quote': quote,
      // The partner path (a kit asking for a deposit paid by address on its user's behalf): the same request and answer, with the key.
      'POST /v1/deposit/quote': (input) => (keys.check(input.req), quote(input)),
      'POST /deposit/status': status,
      'POST /v1/deposit/status': (input) => (keys.check(input.req), status(input)),
    },
    control: {
      set(body) {
        if (['done', 'failed', 'expired'].includes(body.nextOutcome)) settings.nextOutcome = body.nextOutcome
        if (Number.isFinite(body.quoteTtlSeconds)) settings.quoteTtlSeconds = body.quoteTtlSeconds
        if (Number.isFinite(body.processingMs)) settings.processingMs = body.processingMs
        if (body.quoteStyle === 'address' || body.quoteStyle === 'contract') settings.quoteStyle = body.quoteStyle
        if (typeof body.hostileQuote === 'string') {
          if (!HOSTILE_RULES[body.hostileQuote]) throw new HttpError(400, 'invalid_request', `hostileQuote: one of ${Object.keys(HOSTILE_RULES).join(', ')}`)
          settings.hostileQuote = body.hostileQuote
        }
      },
      reset() {
        settings = { ...defaults }
      },
    },
    close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}
