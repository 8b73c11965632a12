// A test wallet injected into the page exactly as an extension wallet is: an EIP-1193 provider
// announced through EIP-6963, forwarding JSON-RPC to anvil from the Node side. anvil's dev
// accounts are unlocked, so eth_sendTransaction needs no key in the page. A message (personal_sign)
// is signed here with the account's own key (anvil's dev mnemonic), for that account only.
import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { type StackConfig, rpc, widgetUrl } from './stack'

export type TestWalletOptions = {
  account: string
  /** chain id → anvil RPC URL the wallet can reach */
  rpcUrls: Record<number, string>
  /** chains the wallet knows at start; others answer 4902 until wallet_addEthereumChain */
  knownChains: number[]
  startChain: number
  name?: string
  rdns?: string
  /**
   * EIP-5792: the wallet answers wallet_getCapabilities with atomic batching and takes
   * wallet_sendCalls (automine held, every call sent, one block mined). Without it, the wallet
   * answers those methods 4200 (unsupported), as most extension wallets still do.
   */
  batching?: boolean
}

/** Every method that makes a wallet ask its user to sign something. */
export const SIGNING_METHODS = new Set([
  'eth_sendTransaction',
  'wallet_sendCalls',
  'eth_signTransaction',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
])

/** Everything that opens the wallet's window: signatures, and network switches or additions. */
export const PROMPT_METHODS = new Set([...SIGNING_METHODS, 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_requestAccounts'])

type Batch = { chainId: number; hashes: string[]; mined: boolean }

export class TestWallet {
  readonly requests: Array<{ method: string; params: unknown }> = []
  private rejectQueue: Array<{ method: string; code: number; message: string }> = []
  private beforeSend?: (tx: Record<string, string>) => Promise<void>
  private beforeSign?: (message: string) => Promise<void>
  private readonly batches = new Map<string, Batch>()
  private holdingBatches = false
  chainId: number
  readonly known: Set<number>

  constructor(private readonly options: TestWalletOptions) {
    this.chainId = options.startChain
    this.known = new Set(options.knownChains)
  }

  /** The usual wallet of these tests: one of anvil's accounts, knowing both sources, on Base. */
  static forStack(stack: StackConfig, account: number, options: Partial<TestWalletOptions> = {}) {
    return new TestWallet({
      account: stack.accounts[account],
      rpcUrls: Object.fromEntries(stack.chains.map((c) => [c.id, c.rpcUrl])),
      knownChains: [8453, 42161],
      startChain: 8453,
      ...options,
    })
  }

  /** The next call of `method` fails with an EIP-1193 error (4001: the buyer rejects). */
  rejectNext(method: string, code = 4001, message = 'User rejected the request.') {
    this.rejectQueue.push({ method, code, message })
  }

  /** Runs before each eth_sendTransaction is forwarded (to hold mining, for example). */
  onSend(hook: (tx: Record<string, string>) => Promise<void>) {
    this.beforeSend = hook
  }

  /**
   * Holds the deposit in the mempool: the source chain stops mining as the deposit is sent (an
   * approval before it is still mined). `sent()` is the deposit as the page sent it;
   * `mineAndResume` on the same `rpcUrl` mines it and turns mining back on.
   */
  holdDeposit(stack: StackConfig) {
    const rpcUrl = stack.chains.find((c) => c.id === 8453)!.rpcUrl
    let sent: Record<string, string> | undefined
    this.onSend(async (tx) => {
      if (tx.to?.toLowerCase() !== stack.depositor.toLowerCase()) return
      sent = tx
      await rpc(rpcUrl, 'evm_setAutomine', [false])
    })
    return { rpcUrl, sent: () => sent }
  }

  /** Runs before each personal_sign is answered (to look at the page while the wallet asks). */
  onSign(hook: (message: string) => Promise<void>) {
    this.beforeSign = hook
  }

  /** The messages the page asked this wallet to sign (personal_sign), as text. */
  signedMessages(): string[] {
    return this.requests.filter((r) => r.method === 'personal_sign').map((r) => Buffer.from((r.params as [string])[0].slice(2), 'hex').toString('utf8'))
  }

  /** Fires an EIP-1193 event in the page, as the wallet would. */
  async emit(page: Page, event: string, value: unknown) {
    await page.evaluate(
      ([e, v]) => (window as unknown as { __testWalletEmit: (e: string, v: unknown) => void }).__testWalletEmit(e as string, v),
      [event, value],
    )
  }

  /** Signature requests so far (transactions, batches of calls, messages). */
  signatures(): number {
    return this.requests.filter((r) => SIGNING_METHODS.has(r.method)).length
  }

  /** Requests that opened the wallet's window (signatures, network switches, connections). */
  prompts(): Array<{ method: string; params: unknown }> {
    return this.requests.filter((r) => PROMPT_METHODS.has(r.method))
  }

  /** wallet_sendCalls batches the page sent, in order. */
  batchRequests(): Array<{ method: string; params: unknown }> {
    return this.requests.filter((r) => r.method === 'wallet_sendCalls')
  }

  /** The next batches are sent to the mempool but not mined until `releaseBatches`. */
  holdBatches() {
    this.holdingBatches = true
  }

  async releaseBatches() {
    this.holdingBatches = false
    for (const [, batch] of this.batches) {
      if (batch.mined) continue
      await this.mine(batch)
    }
  }

  private async mine(batch: Batch) {
    const url = this.options.rpcUrls[batch.chainId]
    await rpc(url, 'evm_mine')
    await rpc(url, 'evm_setAutomine', [true])
    batch.mined = true
  }

  private async sendCalls(params: unknown) {
    const [request] = params as [{ chainId: string; from?: string; calls: Array<{ to: string; data?: string; value?: string }> }]
    const chainId = Number.parseInt(request.chainId, 16)
    const url = this.options.rpcUrls[chainId]
    if (!url || chainId !== this.chainId) throw Object.assign(new Error('wrong chain for this batch'), { code: 4100 })
    // Hold automine, send every call, mine them in one block: the batch lands together.
    await rpc(url, 'evm_setAutomine', [false])
    const hashes: string[] = []
    try {
      for (const call of request.calls) {
        const tx = { from: this.options.account, to: call.to, data: call.data ?? '0x', value: call.value ?? '0x0' }
        hashes.push((await rpc(url, 'eth_sendTransaction', [tx])) as string)
      }
    } catch (error) {
      await rpc(url, 'evm_setAutomine', [true])
      throw error
    }
    const id = `0x${randomBytes(32).toString('hex')}`
    const batch: Batch = { chainId, hashes, mined: false }
    this.batches.set(id, batch)
    if (!this.holdingBatches) await this.mine(batch)
    return { id }
  }

  private async callsStatus(params: unknown) {
    const [id] = params as [string]
    const batch = this.batches.get(id)
    if (!batch) throw Object.assign(new Error('Unknown bundle id'), { code: 5730 })
    const url = this.options.rpcUrls[batch.chainId]
    const receipts = (await Promise.all(batch.hashes.map((h) => rpc(url, 'eth_getTransactionReceipt', [h])))) as Array<Record<string, unknown> | null>
    const base = { version: '2.0.0', id, chainId: `0x${batch.chainId.toString(16)}`, atomic: true }
    if (receipts.some((r) => r === null)) return { ...base, status: 100 }
    const ok = receipts.every((r) => r?.status === '0x1')
    return {
      ...base,
      status: ok ? 200 : 500,
      receipts: receipts.map((r) => ({
        logs: r!.logs,
        status: r!.status,
        blockHash: r!.blockHash,
        blockNumber: r!.blockNumber,
        gasUsed: r!.gasUsed,
        transactionHash: r!.transactionHash,
      })),
    }
  }

  async install(page: Page) {
    await page.exposeFunction('__testWallet', (method: string, params: unknown) => this.handle(method, params))
    await page.addInitScript(
      ({ name, rdns }) => {
        const listeners: Record<string, Array<(v: unknown) => void>> = {}
        const call = (window as unknown as { __testWallet: (m: string, p: unknown) => Promise<string> }).__testWallet
        const provider = {
          async request({ method, params }: { method: string; params?: unknown }) {
            const answer = JSON.parse(await call(method, params ?? [])) as {
              result?: unknown
              error?: { code: number; message: string }
              event?: [string, unknown]
            }
            if (answer.event) for (const l of listeners[answer.event[0]] ?? []) l(answer.event[1])
            if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
            return answer.result
          },
          on(event: string, listener: (v: unknown) => void) {
            ;(listeners[event] ??= []).push(listener)
          },
          removeListener(event: string, listener: (v: unknown) => void) {
            listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener)
          },
        }
        const detail = Object.freeze({
          info: { uuid: `uuid-${rdns}`, name, icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E', rdns },
          provider,
        })
        // The test drives wallet events (chainChanged, accountsChanged) through this hook.
        ;(window as unknown as { __testWalletEmit: (e: string, v: unknown) => void }).__testWalletEmit = (event, value) => {
          for (const l of listeners[event] ?? []) l(value)
        }
        const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
        window.addEventListener('eip6963:requestProvider', announce)
        announce()
      },
      { name: this.options.name ?? 'Test Wallet', rdns: this.options.rdns ?? 'test.wallet' },
    )
  }

  private async handle(method: string, params: unknown): Promise<string> {
    this.requests.push({ method, params })
    const reply = (value: unknown) => JSON.stringify(value)
    const reject = this.rejectQueue.findIndex((r) => r.method === method)
    if (reject >= 0) {
      const [r] = this.rejectQueue.splice(reject, 1)
      return reply({ error: { code: r.code, message: r.message } })
    }
    const hex = (id: number) => `0x${id.toString(16)}`
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return reply({ result: [this.options.account] })
      case 'eth_chainId':
        return reply({ result: hex(this.chainId) })
      case 'wallet_switchEthereumChain': {
        const wanted = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16)
        if (!this.known.has(wanted)) return reply({ error: { code: 4902, message: 'Unrecognized chain ID' } })
        this.chainId = wanted
        return reply({ result: null, event: ['chainChanged', hex(wanted)] })
      }
      case 'wallet_getCapabilities': {
        if (!this.options.batching) return reply({ error: { code: 4200, message: 'The requested method is not supported by this Ethereum provider.' } })
        const chains = [...this.known].map((id) => [hex(id), { atomic: { status: 'supported' } }])
        return reply({ result: Object.fromEntries(chains) })
      }
      case 'wallet_sendCalls':
      case 'wallet_getCallsStatus': {
        if (!this.options.batching) return reply({ error: { code: 4200, message: 'The requested method is not supported by this Ethereum provider.' } })
        try {
          return reply({ result: method === 'wallet_sendCalls' ? await this.sendCalls(params) : await this.callsStatus(params) })
        } catch (error) {
          return reply({ error: { code: (error as { code?: number }).code ?? -32603, message: (error as Error).message } })
        }
      }
      case 'personal_sign': {
        // As a wallet does: only for its own account, with that account's key.
        const [data, address] = params as [Hex, string]
        if (address?.toLowerCase() !== this.options.account.toLowerCase())
          return reply({ error: { code: 4100, message: 'The requested account has not been authorized by the user.' } })
        const key = DEV_KEYS().find((k) => k.address.toLowerCase() === this.options.account.toLowerCase())
        if (!key) return reply({ error: { code: -32603, message: 'this test wallet has no key for its account' } })
        await this.beforeSign?.(Buffer.from(data.slice(2), 'hex').toString('utf8'))
        return reply({ result: await key.signMessage({ message: { raw: data } }) })
      }
      case 'wallet_addEthereumChain': {
        const wanted = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16)
        if (!this.options.rpcUrls[wanted]) return reply({ error: { code: -32603, message: 'cannot reach that chain' } })
        this.known.add(wanted)
        return reply({ result: null })
      }
      default: {
        const url = this.options.rpcUrls[this.chainId]
        try {
          if (method === 'eth_sendTransaction') {
            const [tx] = params as [Record<string, string>]
            await this.beforeSend?.(tx)
            return reply({ result: await rpc(url, method, [{ ...tx, from: this.options.account }]) })
          }
          return reply({ result: await rpc(url, method, params as unknown[]) })
        } catch (error) {
          return reply({ error: { code: -32603, message: (error as Error).message } })
        }
      }
    }
  }
}

/** anvil's default accounts with their keys (its well-known dev mnemonic). */
let devKeys: Array<ReturnType<typeof mnemonicToAccount>> | undefined
const DEV_KEYS = () =>
  (devKeys ??= Array.from({ length: 10 }, (_, i) => mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: i })))

/** The hosted deposit page with `account`'s wallet installed and chosen: the amount form is next. */
export async function openDeposit(page: Page, stack: StackConfig, account: number) {
  const wallet = TestWallet.forStack(stack, account)
  await wallet.install(page)
  await page.goto(widgetUrl(stack))
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  return wallet
}
