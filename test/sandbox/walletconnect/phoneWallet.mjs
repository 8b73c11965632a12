// The sandbox's phone wallet: a WalletConnect wallet (@walletconnect/sign-client) holding one of
// anvil's dev accounts, that pairs from a `wc:` URI and answers session proposals and requests by
// its mode: 'auto-approve', 'auto-reject', or 'hold' (each waits in `pending` for approve/reject,
// from a test or the control API in phoneControl.mjs). It signs locally (viem, the account derived
// from anvil's default mnemonic) and sends transactions to the chain's RPC.
//
// Answers: eth_sendTransaction, personal_sign (SIWE messages too), eth_signTypedData_v4,
// eth_chainId, eth_accounts, eth_requestAccounts, wallet_switchEthereumChain (emits chainChanged),
// wallet_addEthereumChain (a chain it does not hold: added and the session updated),
// wallet_getCapabilities, wallet_sendCalls (EIP-5792: calls sent one by one, atomic unsupported)
// and wallet_getCallsStatus. Anything else: 4200. A rejected request answers 4001 (EIP-1193
// "User Rejected Request"), a rejected proposal 5000 (WalletConnect's USER_REJECTED).
import { SignClient } from '@walletconnect/sign-client'
import { buildApprovedNamespaces, getSdkError } from '@walletconnect/utils'
import { createPublicClient, createWalletClient, defineChain, hexToBigInt, http, isHex, numberToHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { memoryStorage } from './memoryStorage.mjs'
import { offlineOptions, withoutVerify } from './offline.mjs'

export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'
export const PHONE_METHODS = [
  'eth_sendTransaction',
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_chainId',
  'eth_accounts',
  'eth_requestAccounts',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
]
const EVENTS = ['chainChanged', 'accountsChanged']
const MODES = ['auto-approve', 'auto-reject', 'hold']
let started = 0
const rpcError = (code, message) => Object.assign(new Error(message), { code })

/** chains: [{ id, rpcUrl, name? }]; accountIndex: anvil's dev account (8 by default: the browser's sandbox wallet is 9). */
export async function startPhoneWallet({ relayUrl, chains, accountIndex = 8, mode = 'hold', logger = 'silent' }) {
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: accountIndex })
  const known = new Map(chains.map((c) => [Number(c.id), c]))
  const clientsFor = (id) => {
    const c = known.get(Number(id))
    if (!c) throw rpcError(4902, `chain ${id}: not added to the phone wallet`)
    const chain = defineChain({
      id: c.id,
      name: c.name ?? `chain ${c.id}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [c.rpcUrl] } },
    })
    return { wallet: createWalletClient({ account, chain, transport: http(c.rpcUrl) }), public: createPublicClient({ chain, transport: http(c.rpcUrl) }) }
  }
  const client = withoutVerify(
    await SignClient.init({
      // A prefix of its own: core keeps one instance per prefix in a process, and the e2e suite
      // starts one stack (relay and phone wallet) per worker in one process.
      ...offlineOptions({ relayUrl, storage: memoryStorage(), prefix: `sandbox-phone-${accountIndex}-${++started}` }),
      logger,
      // The engine's queue emits the next request 1 s after the last answer; the phone wallet takes
      // each as it comes (arrive() drops a redelivered one, as the queue would).
      signConfig: { disableRequestQueue: true },
      metadata: { name: 'Sandbox phone wallet', description: `anvil dev account ${accountIndex}`, url: 'http://127.0.0.1', icons: [] },
    }),
  )
  const pending = []
  const answered = []
  const calls = new Map() // wallet_sendCalls id → { chainId, hashes }
  const waiters = []
  // approve: the chains a new session is approved for (null: every chain it holds). The others stay
  // known: a dapp adds one to the session by wallet_addEthereumChain, as with a phone wallet that
  // approved fewer chains than were asked for.
  const state = { mode, approve: null }

  const approvable = () => [...known.keys()].filter((id) => !state.approve || state.approve.includes(id))
  const namespaces = (proposal) =>
    buildApprovedNamespaces({
      proposal,
      supportedNamespaces: {
        eip155: {
          chains: approvable().map((id) => `eip155:${id}`),
          methods: PHONE_METHODS,
          events: EVENTS,
          accounts: approvable().map((id) => `eip155:${id}:${account.address}`),
        },
      },
    })

  const mine = (address) => {
    if (address && address.toLowerCase() !== account.address.toLowerCase()) throw rpcError(4100, `${address}: not this wallet's account`)
  }

  async function answer(topic, chainId, { method, params = [] }) {
    const id = Number(String(chainId).split(':')[1])
    switch (method) {
      case 'eth_chainId':
        return numberToHex(id)
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return [account.address]
      case 'personal_sign':
        mine(params[1])
        return account.signMessage({ message: isHex(params[0]) ? { raw: params[0] } : params[0] })
      case 'eth_signTypedData_v4': {
        mine(params[0])
        const typed = typeof params[1] === 'string' ? JSON.parse(params[1]) : params[1]
        return account.signTypedData(typed)
      }
      case 'eth_sendTransaction':
        return send(id, params[0])
      case 'wallet_switchEthereumChain': {
        const target = Number(params[0]?.chainId)
        if (!client.session.get(topic).namespaces.eip155.chains.includes(`eip155:${target}`))
          throw rpcError(4902, `chain ${target}: not in this session (wallet_addEthereumChain first)`)
        await client.emit({ topic, event: { name: 'chainChanged', data: target }, chainId: `eip155:${target}` })
        return null
      }
      case 'wallet_addEthereumChain': {
        const target = Number(params[0]?.chainId)
        if (!known.has(target)) known.set(target, { id: target, name: params[0]?.chainName, rpcUrl: params[0]?.rpcUrls?.[0] })
        const ns = client.session.get(topic).namespaces.eip155
        if (!ns.chains.includes(`eip155:${target}`)) {
          const eip155 = { ...ns, chains: [...ns.chains, `eip155:${target}`], accounts: [...ns.accounts, `eip155:${target}:${account.address}`] }
          await client.update({ topic, namespaces: { eip155 } })
        }
        return null
      }
      case 'wallet_getCapabilities':
        mine(params[0])
        return Object.fromEntries((params[1] ?? [...known.keys()].map((k) => numberToHex(k))).map((hex) => [hex, { atomic: { status: 'unsupported' } }]))
      case 'wallet_sendCalls': {
        const { chainId: hex, from, calls: list = [], atomicRequired } = params[0] ?? {}
        mine(from)
        if (atomicRequired) throw rpcError(5760, 'atomic execution is not supported')
        const hashes = []
        for (const call of list) hashes.push(await send(Number(hex), call))
        const callsId = numberToHex(BigInt(calls.size + 1), { size: 32 })
        calls.set(callsId, { chainId: Number(hex), hashes })
        return { id: callsId }
      }
      case 'wallet_getCallsStatus':
        return callsStatus(params[0])
      default:
        throw rpcError(4200, `${method}: not supported by the sandbox phone wallet`)
    }
  }

  function send(chainId, tx) {
    mine(tx.from)
    const big = (v) => (v === undefined ? undefined : hexToBigInt(v))
    return clientsFor(chainId).wallet.sendTransaction({ to: tx.to, data: tx.data, value: big(tx.value), gas: big(tx.gas) })
  }

  async function callsStatus(callsId) {
    const batch = calls.get(callsId)
    if (!batch) throw rpcError(5730, `${callsId}: unknown calls id`)
    const chain = clientsFor(batch.chainId).public
    const receipts = await Promise.all(batch.hashes.map((hash) => chain.getTransactionReceipt({ hash }).catch(() => undefined)))
    const done = receipts.filter(Boolean)
    const ok = done.filter((r) => r.status === 'success').length
    const status = done.length < receipts.length ? 100 : ok === done.length ? 200 : ok === 0 ? 500 : 600
    const wire = (r) => ({
      logs: r.logs.map(({ address, data, topics }) => ({ address, data, topics })),
      status: r.status === 'success' ? '0x1' : '0x0',
      blockHash: r.blockHash,
      blockNumber: numberToHex(r.blockNumber),
      gasUsed: numberToHex(r.gasUsed),
      transactionHash: r.transactionHash,
    })
    return { version: '2.0.0', id: callsId, chainId: numberToHex(batch.chainId), status, atomic: false, receipts: done.map(wire) }
  }

  const actions = {
    proposal: {
      approve: async ({ id, proposal }) => {
        let approved
        try {
          approved = namespaces(proposal)
          // sign-client 2.25 moves requiredNamespaces to optional: no common chain leaves nothing to approve.
          if (!approved.eip155?.chains?.length) throw new Error(`it holds none of the chains asked for (it holds ${[...known.keys()].join(', ')})`)
        } catch (error) {
          // A proposal it cannot meet is refused, not left to expire: 5100/5101/5102 by what is missing.
          const key = /method/i.test(error.message) ? 'UNSUPPORTED_METHODS' : /event/i.test(error.message) ? 'UNSUPPORTED_EVENTS' : 'UNSUPPORTED_CHAINS'
          await client.reject({ id, reason: getSdkError(key, error.message) })
          throw error
        }
        return (await client.approve({ id, namespaces: approved })).topic
      },
      reject: ({ id }, error) => client.reject({ id, reason: error ?? getSdkError('USER_REJECTED') }),
    },
    request: {
      approve: async ({ id, topic, chainId, request }) => {
        try {
          const result = await answer(topic, chainId, request)
          await client.respond({ topic, response: { id, jsonrpc: '2.0', result } })
          return result
        } catch (error) {
          await client.respond({ topic, response: { id, jsonrpc: '2.0', error: { code: error.code ?? -32603, message: error.shortMessage ?? error.message } } })
          throw error
        }
      },
      reject: ({ id, topic }, error) =>
        client.respond({ topic, response: { id, jsonrpc: '2.0', error: error ?? { code: 4001, message: 'User rejected the request.' } } }),
    },
  }

  async function settle(item, how, error) {
    const at = pending.indexOf(item)
    if (at >= 0) pending.splice(at, 1)
    const entry = { kind: item.kind, id: item.id, method: item.request?.method, outcome: how === 'approve' ? 'approved' : 'rejected' }
    try {
      const result = await actions[item.kind][how](item, error)
      answered.push({ ...entry, result })
      return result
    } catch (failure) {
      answered.push({ ...entry, outcome: 'failed', error: failure.message })
      throw failure
    }
  }

  const arrived = new Set()
  function arrive(item) {
    if (arrived.has(`${item.kind}:${item.id}`)) return
    arrived.add(`${item.kind}:${item.id}`)
    if (state.mode === 'auto-approve') return settle(item, 'approve').catch(() => {})
    if (state.mode === 'auto-reject') return settle(item, 'reject').catch(() => {})
    pending.push(item)
    waiters.splice(0).forEach((wake) => wake())
  }

  client.on('session_proposal', ({ id, params }) => arrive({ kind: 'proposal', id, proposal: params, peer: params.proposer.metadata }))
  client.on('session_request', ({ id, topic, params }) =>
    arrive({ kind: 'request', id, topic, chainId: params.chainId, request: params.request, peer: client.session.get(topic).peer.metadata }),
  )

  const find = (id) => {
    const item = id === undefined ? pending[0] : pending.find((p) => String(p.id) === String(id))
    if (!item) throw new RangeError(id === undefined ? 'nothing is pending' : `${id}: not pending`)
    return item
  }

  return {
    client,
    address: account.address,
    /** Pairs from a `wc:` URI; the proposal then arrives by the mode. */
    pair: (uri) => client.pair({ uri }),
    approve: (id) => settle(find(id), 'approve'),
    /** error: { code, message } (default 5000 for a proposal, 4001 for a request). */
    reject: (id, error) => settle(find(id), 'reject', error),
    /** The chains new sessions are approved for (null or empty: all it holds). */
    approveChains(ids) {
      if (ids !== null && ids !== undefined && !(Array.isArray(ids) && ids.every((id) => known.has(Number(id)))))
        throw new RangeError(`approve: chain ids this wallet holds (${[...known.keys()].join(', ')}), or null`)
      state.approve = ids?.length ? ids.map(Number) : null
    },
    setMode(next) {
      if (!MODES.includes(next)) throw new RangeError(`mode: one of ${MODES.join(', ')}`)
      state.mode = next
    },
    /** Resolves with the first pending item (of a kind, if given) once there is one. */
    async next(kind) {
      for (;;) {
        const item = pending.find((p) => !kind || p.kind === kind)
        if (item) return describe(item)
        await new Promise((wake) => waiters.push(wake))
      }
    },
    disconnect: (topic) => client.disconnect({ topic, reason: getSdkError('USER_DISCONNECTED') }),
    state: () => ({
      mode: state.mode,
      approve: state.approve,
      address: account.address,
      relayUrl,
      chains: [...known.values()].map(({ id, rpcUrl }) => ({ id, rpcUrl })),
      sessions: client.session.getAll().map((s) => ({ topic: s.topic, peer: s.peer.metadata, chains: s.namespaces.eip155?.chains ?? [], expiry: s.expiry })),
      pending: pending.map(describe),
      answered: answered.slice(-50),
    }),
    async close() {
      waiters.splice(0).forEach((wake) => wake())
      await client.core.relayer.transportClose().catch(() => {})
      client.core.heartbeat.stop()
    },
  }
}

function describe(item) {
  const { kind, id, topic, chainId, request, peer, proposal } = item
  return kind === 'proposal'
    ? { kind, id, peer, requiredNamespaces: proposal.requiredNamespaces, optionalNamespaces: proposal.optionalNamespaces }
    : { kind, id, topic, chainId, method: request.method, params: request.params, peer }
}
