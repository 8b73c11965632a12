import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { expect, fillDetails, fillSepa, keptKey, test } from './helpers'
import { type SandboxPayout, usdcBalance, usdcUnits, verify } from './payoutSteps'
import { SANDBOX_ORIGIN, type StackConfig, WALLETCONNECT_PARTNER, destBalance, fiatUrl, rpc, sandbox, stackConfig, widgetUrl } from './stack'

// A phone wallet over WalletConnect, offline: the stack's own relay and the sandbox's phone wallet
// (test/sandbox/walletconnect/), driven through its control API as a buyer's thumb would.
let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})

async function phone(path: string, body: unknown = {}) {
  const response = await fetch(`${stack.walletConnect.phoneWallet}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`phone ${path}: ${response.status} ${await response.text()}`)
  return response.json()
}
type Answered = { kind: 'proposal' | 'request'; id: number; method?: string; outcome: 'approved' | 'rejected' | 'failed'; result?: unknown }
type Pending = { kind: 'proposal' | 'request'; id: number; method?: string; params?: unknown[] }
type PhoneState = { sessions: Array<{ topic: string; chains: string[] }>; pending: Pending[]; answered: Answered[] }
const phoneState = async (): Promise<PhoneState> => (await fetch(`${stack.walletConnect.phoneWallet}/state`)).json()

type RelayCounts = { seen: Record<string, number>; phone: Record<string, number> }
const relayCounts = async (): Promise<RelayCounts> => (await fetch(`${stack.walletConnect.phoneWallet}/relay`)).json()

/**
 * The messages the local relay receives from now on, per flow: irn_publish and every irn_* (and the
 * wc_* that carry a proposal and its approval), from the widget and from the phone. Printed and
 * attached to the test, for the request count per flow the docs give.
 */
async function relayFromNow() {
  const before = await relayCounts()
  return async (flow: string) => {
    const after = await relayCounts()
    const delta = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(
        Object.keys(a)
          .map((m) => [m, a[m] - (b[m] ?? 0)])
          .filter(([, n]) => (n as number) > 0),
      ) as Record<string, number>
    const all = delta(after.seen, before.seen)
    const phoneSent = delta(after.phone, before.phone)
    const widget = Object.fromEntries(
      Object.entries(all)
        .map(([m, n]) => [m, n - (phoneSent[m] ?? 0)])
        .filter(([, n]) => (n as number) > 0),
    ) as Record<string, number>
    const sum = (counts: Record<string, number>, irnOnly = true) =>
      Object.entries(counts).reduce((total, [m, n]) => total + (!irnOnly || m.startsWith('irn_') ? n : 0), 0)
    const figures = {
      flow,
      irn_publish: all.irn_publish ?? 0,
      irn: sum(all),
      all: sum(all, false),
      widget: { irn_publish: widget.irn_publish ?? 0, irn: sum(widget), methods: widget },
      phone: { irn_publish: phoneSent.irn_publish ?? 0, irn: sum(phoneSent), methods: phoneSent },
    }
    console.log(`relay requests, ${flow}: ${JSON.stringify(figures)}`)
    test.info().annotations.push({ type: 'relay requests', description: JSON.stringify(figures) })
    return figures
  }
}

/** What the phone answers from now on: the phone wallet keeps every test's answers of this worker. */
async function answersFromNow() {
  const before = new Set((await phoneState()).answered.map((a) => `${a.kind}:${a.id}`))
  return async () => (await phoneState()).answered.filter((a) => !before.has(`${a.kind}:${a.id}`))
}

/** What asks the buyer for something on the phone: a signature, a transaction, a network. */
const PROMPTS = ['eth_sendTransaction', 'wallet_sendCalls', 'personal_sign', 'eth_signTypedData_v4', 'wallet_switchEthereumChain', 'wallet_addEthereumChain']
const SENDS = ['eth_sendTransaction', 'wallet_sendCalls']

test.afterEach(async () => {
  await phone('/disconnect').catch(() => {})
  await phone('/mode', { mode: 'hold' })
  await phone('/chains', { approve: null })
  // What a test left waiting on the phone (a proposal whose code was closed) is not the next one's.
  for (const item of (await phoneState()).pending) await phone('/reject', { id: item.id }).catch(() => {})
})

/** Opens the deposit of the partner that offers WalletConnect, picks it and pairs the phone. */
async function pairPhone(page: Page) {
  await page.goto(widgetUrl(stack, { partner: WALLETCONNECT_PARTNER }))
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  return pairHere(page)
}

/** Picks WalletConnect on this screen and pairs the phone with the code the widget shows (read by its copy button). */
async function pairHere(page: Page) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const choice = page.getByRole('button', { name: /WalletConnect/ })
  await expect(choice).toBeVisible()
  await choice.click()
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet on your phone' })
  await expect(dialog.getByRole('img', { name: 'WalletConnect pairing code' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Copy Pairing link' }).click()
  await expect(dialog.getByText('Pairing link copied')).toBeVisible()
  const uri = await page.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await phone('/pair', { uri })
  return dialog
}

test('a deposit through WalletConnect: paired by QR code, the wallet link signed and the deposit sent on the phone', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  const relay = await relayFromNow()
  const before = await destBalance(stack, stack.walletConnect.phoneAccount)
  const dialog = await pairPhone(page)
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await page.getByLabel('Amount').fill('3')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(await destBalance(stack, stack.walletConnect.phoneAccount)).toBeGreaterThan(before)
  const answered = await answers()
  expect(answered.map((a) => a.method)).toEqual(expect.arrayContaining(['personal_sign', 'eth_sendTransaction']))
  expect(answered.filter((a) => a.outcome !== 'approved')).toEqual([])
  // Each request to the phone is one publish from the widget, each answer one from the phone (the
  // session's approval goes by wc_approveSession).
  const counted = await relay('deposit')
  const requests = answered.filter((a) => a.kind === 'request').length
  expect(counted.widget.irn_publish).toBeGreaterThanOrEqual(requests)
  expect(counted.phone.irn_publish).toBeGreaterThanOrEqual(requests)
})

test('the session survives a reload: WalletConnect picked again connects without a new code @extended', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  await pairPhone(page)
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  const sessions = (await phoneState()).sessions.length
  await page.reload()
  await page.getByRole('button', { name: /WalletConnect/ }).click()
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect((await phoneState()).sessions.length).toBe(sessions)
})

test('closing the pairing code and a phone that rejects each leave the buyer a way on @extended', async ({ page }) => {
  const answers = await answersFromNow()
  const dialog = await pairPhone(page)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  await expect(page.getByText('The connection was declined in your wallet. You can try again.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeFocused()
  // Again, and the phone says no to the session.
  await phone('/mode', { mode: 'auto-reject' })
  await pairPhone(page)
  await expect(page.getByRole('dialog')).toBeHidden({ timeout: 15_000 })
  await expect(page.getByText('The connection was declined in your wallet. You can try again.')).toBeVisible()
  expect((await answers()).some((a) => a.kind === 'proposal' && a.outcome === 'rejected')).toBe(true)
})

/** From the amount screen to the deposit's check screen: `amount` priced. */
async function toCheck(page: Page, amount = '3') {
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
}

/** With the phone on 'hold': approves the requests that come before a send (the wallet check), and returns the first send request. */
async function holdFirstSend(): Promise<Pending> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const [item] = (await phoneState()).pending.filter((p) => p.kind === 'request')
    if (item && SENDS.includes(item.method ?? '')) return item
    if (item) await phone('/approve', { id: item.id })
    else await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('no send request reached the phone in 30 s')
}

/** The transactions the phone sent (its approved eth_sendTransaction answers), each as the chains have it. */
async function sentOnChain(answered: Answered[]): Promise<Array<{ hash: string; to: string; chainId: number }>> {
  const hashes = answered.filter((a) => a.method === 'eth_sendTransaction' && a.outcome === 'approved').map((a) => String(a.result))
  const found = []
  for (const hash of hashes) {
    for (const chain of stack.chains) {
      const tx = (await rpc(chain.rpcUrl, 'eth_getTransactionByHash', [hash])) as { to: string } | null
      if (tx) found.push({ hash, to: tx.to.toLowerCase(), chainId: chain.id })
    }
  }
  return found
}
const deposits = (sent: Array<{ to: string }>) => sent.filter((tx) => tx.to === stack.depositor.toLowerCase())

test('a phone that ends the session mid-flow: true words, nothing sent, and paired again the deposit goes once @extended', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  await pairPhone(page)
  await toCheck(page)
  // The buyer ends the session on the phone before confirming.
  expect((await phone('/disconnect')).disconnected).toHaveLength(1)
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  // Before any prompt: the phone is asked nothing, and the buyer is told the phone ended the connection.
  await expect(page.getByRole('alert')).toHaveText('Your wallet ended the connection. Connect it again to continue.')
  expect((await answers()).filter((a) => a.kind === 'request')).toEqual([])
  expect((await phoneState()).pending.filter((p) => p.kind === 'request')).toEqual([])
  // A way on: connect again (a new pairing), the amount kept, sent once.
  await page.getByRole('button', { name: 'Connect again' }).click()
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  const dialog = await pairHere(page)
  await expect(dialog).toBeHidden()
  await expect(page.getByLabel('Amount')).toHaveValue('3')
  await toCheck(page)
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(deposits(await sentOnChain(await answers()))).toHaveLength(1)
})

test('Disconnect ends the session on the relay and here: the buyer chooses a wallet again, the amount kept, and WalletConnect asks for a new code @extended', async ({
  page,
}) => {
  await phone('/mode', { mode: 'auto-approve' })
  await pairPhone(page)
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  expect((await phoneState()).sessions).toHaveLength(1)
  const mark = keptKey(stack, 'stablecoin-widget:v1:wc-session', WALLETCONNECT_PARTNER)
  expect(await page.evaluate((key) => localStorage.getItem(key), mark)).not.toBeNull()
  await page.getByLabel('Amount').fill('5')
  await page.getByRole('button', { name: 'Disconnect' }).click()
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  // Ended on the phone through the relay (sign-client's disconnect), and forgotten in this page's storage.
  await expect.poll(async () => (await phoneState()).sessions.length, { timeout: 15_000 }).toBe(0)
  expect(await page.evaluate((key) => localStorage.getItem(key), mark)).toBeNull()
  // Picked again: a new pairing code, not the old session; the amount typed is still there.
  await expect(await pairHere(page)).toBeHidden()
  await expect(page.getByLabel('Amount')).toHaveValue('5')
  expect((await phoneState()).sessions).toHaveLength(1)
})

test('a chain the session lacks: the switch and the add go over the session, the phone honours them, and the deposit is sent on that chain once @extended', async ({
  page,
}) => {
  const source = stack.sources[0].chainId
  const other = stack.chains.find((c) => c.id !== source)?.id as number
  // The phone approves the session for the other chain only.
  await phone('/chains', { approve: [other] })
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  await pairPhone(page)
  expect((await phoneState()).sessions.map((s) => s.chains)).toEqual([[`eip155:${other}`]])
  await toCheck(page)
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  const answered = (await answers()).filter((a) => a.kind === 'request')
  const switches = answered.filter((a) => a.method === 'wallet_switchEthereumChain')
  const adds = answered.filter((a) => a.method === 'wallet_addEthereumChain')
  // The phone could not switch to a chain outside the session (4902): the widget added it, the phone
  // put it in the session, and the switch then held.
  expect(switches[0]).toMatchObject({ outcome: 'failed' })
  expect(adds).toEqual([expect.objectContaining({ outcome: 'approved' })])
  expect(answered.findIndex((a) => a === adds[0])).toBeGreaterThan(answered.findIndex((a) => a === switches[0]))
  expect((await phoneState()).sessions.map((s) => [...s.chains].sort())).toEqual([[`eip155:${other}`, `eip155:${source}`].sort()])
  const sent = deposits(await sentOnChain(answered))
  expect(sent).toEqual([expect.objectContaining({ chainId: source })])
})

test('a send rejected on the phone: true words, nothing sent, and confirmed again it goes once @extended', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  await pairPhone(page)
  await toCheck(page)
  await phone('/mode', { mode: 'hold' })
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  const send = await holdFirstSend()
  await phone('/reject', { id: send.id })
  await expect(page.getByText('You declined in your wallet. Nothing was sent; you can confirm again when ready.')).toBeVisible()
  expect(await sentOnChain(await answers())).toEqual([])
  // Confirmed again: the phone says yes this time, and the deposit goes once.
  await phone('/mode', { mode: 'auto-approve' })
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  const answered = await answers()
  expect(answered.filter((a) => a.kind === 'request' && a.outcome === 'rejected').map((a) => a.id)).toEqual([send.id])
  expect(deposits(await sentOnChain(answered))).toHaveLength(1)
})

test('a hostile quote is refused before any request reaches the phone; a fresh price then completes @extended', async ({ page }) => {
  // The phone would approve anything: only the widget's guard stands between the quote and the send.
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  await pairPhone(page)
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await sandbox(stack, '/__sandbox/control', { hostileQuote: 'target' })
  await page.getByLabel('Amount').fill('4')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText('We could not check this price, so nothing was sent. Get a new price to continue.')).toBeVisible()
  await expect(page.getByText('Code: quote_rejected')).toBeVisible()
  expect((await phoneState()).pending.filter((p) => p.kind === 'request')).toEqual([])
  expect((await answers()).filter((a) => a.kind === 'request')).toEqual([])
  await page.getByRole('button', { name: 'Get a new price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(deposits(await sentOnChain(await answers()))).toHaveLength(1)
})

/**
 * A bank payout of the partner that offers WalletConnect, up to its funding step: the phone paired
 * at "Connect the wallet that pays", the identity steps with its account (a round trip that loads
 * the page again), the beneficiary; WalletConnect picked again after the reload (its session restored).
 */
async function bankPayoutToFunding(page: Page) {
  const h1 = page.getByRole('heading', { level: 1 })
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', { partner: WALLETCONNECT_PARTNER }))
  await expect(h1).toHaveText('Cash out to a bank account')
  await page.getByLabel('Arrives in the bank', { exact: true }).fill('20')
  await page.getByLabel('Country of the bank').selectOption('DE')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1).toHaveText('Check your cash-out')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1).toHaveText('Connect the wallet that pays')
  await expect(await pairHere(page)).toBeHidden()
  await verify(page)
  await fillSepa(page)
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1).toHaveText('Send the stablecoins')
  const sendButton = page.getByRole('button', { name: /^Send [\d.]+ USDC$/ })
  const choose = page.getByRole('button', { name: /WalletConnect/ })
  await expect(sendButton.or(choose)).toBeVisible()
  if (await choose.isVisible()) await choose.click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(sendButton).toBeVisible()
  return { h1, sendButton }
}

/** The bank payout this buyer made, as the sandbox's service has it. */
async function payoutOf(page: Page) {
  const { accountId } = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { accountId?: string },
    keptKey(stack, 'stablecoin-widget:v1:flow:account', WALLETCONNECT_PARTNER),
  )
  const payouts = ((await sandbox(stack, '/__sandbox/bank/payouts')) as { payouts: SandboxPayout[] }).payouts
  return payouts.filter((p) => p.internal.accountId === accountId)
}

test('a bank payout through WalletConnect: the phone pays it, across the identity round trip, with one transfer @extended', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  const relay = await relayFromNow()
  const { h1, sendButton } = await bankPayoutToFunding(page)
  const before = await usdcBalance(stack, stack.walletConnect.phoneAccount)
  await sendButton.click()
  await expect(h1).toHaveText('Paid out', { timeout: 30_000 })
  const [payout] = await payoutOf(page)
  expect(payout.status).toBe('settled')
  expect(payout.internal.sender?.toLowerCase()).toBe(stack.walletConnect.phoneAccount.toLowerCase())
  expect(before - (await usdcBalance(stack, stack.walletConnect.phoneAccount))).toBe(usdcUnits(payout.internal.depositAmount))
  const answered = await answers()
  expect(answered.filter((a) => a.outcome !== 'approved')).toEqual([])
  const sent = await sentOnChain(answered)
  expect(sent).toHaveLength(1)
  expect(sent[0].to).toBe(stack.sources.find((s) => s.chainId === 8453)?.token.toLowerCase())
  const counted = await relay('bank payout')
  expect(counted.widget.irn_publish).toBeGreaterThanOrEqual(answered.filter((a) => a.kind === 'request').length)
})

test('a bank payout’s funding step: Disconnect ends the session on the phone, nothing sent; paired again, the payout completes with one transfer @extended', async ({
  page,
}) => {
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  const { h1, sendButton } = await bankPayoutToFunding(page)
  expect((await phoneState()).sessions).toHaveLength(1)
  await page.getByRole('button', { name: 'Disconnect' }).click()
  // Back to choosing a wallet on the same step: the payout kept, the session ended on the phone, nothing asked of it.
  await expect(h1).toHaveText('Send the stablecoins')
  await expect(sendButton).toHaveCount(0)
  await expect.poll(async () => (await phoneState()).sessions.length, { timeout: 15_000 }).toBe(0)
  expect((await answers()).filter((a) => SENDS.includes(a.method ?? ''))).toEqual([])
  // Picked again: a new pairing code, not the old session.
  await expect(await pairHere(page)).toBeHidden()
  expect((await phoneState()).sessions).toHaveLength(1)
  await sendButton.click()
  await expect(h1).toHaveText('Paid out', { timeout: 30_000 })
  const payouts = await payoutOf(page)
  expect(payouts).toHaveLength(1)
  expect(payouts[0].status).toBe('settled')
  expect(await sentOnChain(await answers())).toHaveLength(1)
})

test('the identity steps take the wallet that receives from WalletConnect, beside the address field, and the phone is asked nothing else @extended', async ({
  page,
}) => {
  const h1 = page.getByRole('heading', { level: 1 })
  await phone('/mode', { mode: 'auto-approve' })
  const answers = await answersFromNow()
  const relay = await relayFromNow()
  await page.goto(fiatUrl(stack, { partner: WALLETCONNECT_PARTNER }))
  await expect(h1).toHaveText('Where should your stablecoins go?')
  // The typed address stays: the contract's wallet is an address, nothing asks that it be connected.
  await expect(page.getByLabel('Wallet address')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Or connect the wallet that receives' })).toBeVisible()
  await expect(await pairHere(page)).toBeHidden()
  await expect(h1).toHaveText('Verify your identity')
  // The address taken, the session asked nothing else ends: on the phone through the relay, and in this page's storage.
  await expect.poll(async () => (await phoneState()).sessions.length, { timeout: 15_000 }).toBe(0)
  const mark = keptKey(stack, 'stablecoin-widget:v1:wc-session', WALLETCONNECT_PARTNER)
  expect(await page.evaluate((key) => localStorage.getItem(key), mark)).toBeNull()
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1).toHaveText('Your details')
  await fillDetails(page)
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1).toHaveText('Send a bank transfer')
  const { wallet } = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { wallet?: string },
    keptKey(stack, 'stablecoin-widget:v1:flow:account', WALLETCONNECT_PARTNER),
  )
  expect(wallet?.toLowerCase()).toBe(stack.walletConnect.phoneAccount.toLowerCase())
  // Connecting is all the identity steps ask of the phone: a session, no request (then its end).
  const answered = await answers()
  expect(answered.map((a) => a.kind)).toEqual(['proposal'])
  await relay('identity wallet')
})
