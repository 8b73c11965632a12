// A wallet linked to a user by proof, in the way of Sign-In with Ethereum (EIP-4361), once per
// user and address: a crypto deposit is credited only to the user who linked its sender. A
// transaction's hash is public on the chain, so naming one proves nothing; signing the kit's own
// message with the sending wallet does. The kit builds the message for the page that asks (its
// Origin, already one of allowedOrigins) and names itself as its URI (publicUrl, the partnerBase a
// widget knows it by): every partner's hosted page shares the widget's origin, so the page alone
// would not tell one partner's kit from another's, and a partner's backend could relay another
// kit's message to its buyers. The widget signs only a message naming its own partner backend. The
// kit keeps the message under a single-use nonce for 10 minutes, and links only on a signature of
// exactly that message, by that wallet, for that user, from that page, given to this kit.
import { getAddress, type Hex } from 'viem'
import { createSiweMessage, parseSiweMessage, verifySiweMessage } from 'viem/siwe'
import { type ChainClients, chainProblem } from './chainClients'
import type { PaymentStore } from './store/paymentStore'

export const CHALLENGE_MS = 10 * 60_000
/** What the wallet shows above the message's fields (one line: EIP-4361 allows no line break in it). */
export const STATEMENT =
  'Confirm this wallet is yours, so that the deposits you send from it are credited to your account on this site. Signing costs nothing and moves no money.'

export type LinkAnswer =
  | { status: 200; body: { linked: true } | { linked: false; message: string } }
  | { status: 409 | 422 | 502; code: 'wallet_not_owned' | 'wallet_unverified' | 'chain_unreachable'; problem: string; log?: string }

/** `kit`: this kit's publicUrl, as the URI of the messages it writes (handler.ts checkOptions). */
type Asked = { user: string; origin: string; kit: string; now: Date }

/** POST /deposit/wallet: linked already, or the message to sign (given whoever holds the address: that is not told). */
export async function walletChallenge(store: PaymentStore, ask: Asked & { address: string; chainId: number }): Promise<LinkAnswer> {
  const address = ask.address.toLowerCase()
  if ((await store.addressHolder(address)) === ask.user) return { status: 200, body: { linked: true } }
  const page = new URL(ask.origin)
  const expiresAt = new Date(ask.now.getTime() + CHALLENGE_MS)
  const nonce = randomNonce()
  const message = createSiweMessage({
    scheme: page.protocol.slice(0, -1),
    domain: page.host,
    uri: ask.kit,
    address: getAddress(address),
    statement: STATEMENT,
    chainId: ask.chainId,
    nonce,
    version: '1',
    issuedAt: ask.now,
    expirationTime: expiresAt,
  })
  await store.recordChallenge({ nonce, userId: ask.user, address, chainId: ask.chainId, origin: page.origin, message, expiresAt }, ask.now)
  return { status: 200, body: { linked: false, message } }
}

/** POST /deposit/wallet/link: the challenge is taken (spent) first, then every check, then the binding. */
export async function linkWallet(store: PaymentStore, client: ChainClients, ask: Asked & { message: string; signature: Hex }): Promise<LinkAnswer> {
  const refused = (problem: string): LinkAnswer => ({ status: 422, code: 'wallet_unverified', problem })
  const { nonce, uri } = parseSiweMessage(ask.message)
  const challenge = nonce ? await store.takeChallenge(nonce) : undefined
  if (!challenge || challenge.userId !== ask.user) return refused('message: not a challenge this backend gave this user, or one already used')
  if (challenge.message !== ask.message) return refused('message: not the message this backend gave')
  // A challenge another kit on the same store wrote (another publicUrl, or this one's before a change).
  if (uri !== ask.kit) return refused('message: written by another partner backend (not this publicUrl)')
  if (challenge.origin !== ask.origin) return refused('message: given to another page')
  if (challenge.expiresAt.getTime() <= ask.now.getTime()) return refused('message: this challenge has expired; ask for a new one')
  let signed: boolean
  try {
    // EIP-1271 and ERC-6492 smart wallets are asked on the chain the message names.
    const page = new URL(challenge.origin)
    signed = await verifySiweMessage(await client(challenge.chainId), {
      message: ask.message,
      signature: ask.signature,
      address: getAddress(challenge.address),
      domain: page.host,
      scheme: page.protocol.slice(0, -1),
      nonce,
      time: ask.now,
    })
  } catch (error) {
    return { status: 502, code: 'chain_unreachable', problem: `The chain ${challenge.chainId} could not be read.`, log: chainProblem(challenge.chainId, error) }
  }
  if (!signed) return refused('signature: not by the wallet the message names')
  if (!(await store.bindAddress(ask.user, challenge.address))) {
    return { status: 409, code: 'wallet_not_owned', problem: 'address: this wallet is linked to another user of this site' }
  }
  return { status: 200, body: { linked: true } }
}

/** 128 random bits as 32 hex digits (viem's generateSiweNonce draws on Math.random). */
function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
