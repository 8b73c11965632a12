// Where the partner's registry entry says its backend links wallets (walletLink: its kit runs with
// chains), the kit credits a deposit only to the user who linked the sending wallet, by signing the
// kit's Sign-In with Ethereum (EIP-4361) message once. Asked right before the first send from a
// wallet not linked yet; nothing is sent without its answer. Fetched then, not with the flow.
// Only that message is ever signed, and only once it is checked to be for the connected account,
// the quote's source chain, this page and this partner's own kit (its URI is partnerBase): a
// partner backend could otherwise have the buyer sign something else (a sign-in elsewhere, or,
// on the widget's origin that every partner's hosted page shares, another partner's kit's message).
import { askWalletLink, sendWalletLink } from '../../api/walletLink'
import { ApiError } from '../../errors/ApiError'
import { describeError } from '../../errors/describeError'
import { walletLinkProblem } from '../../errors/walletLinkProblem'
import { walletProblemOf } from '../../errors/WalletError'
import type { Eip1193Provider } from '../../wallet/eip6963'
import type { DepositContext } from './context'
import type { DepositEvent, Notice } from './machine'

/** Undefined once the wallet is linked to the buyer's account; else why the deposit stays at the quote (nothing was sent). */
export async function linkWallet(
  ctx: DepositContext,
  provider: Eip1193Provider,
  account: string,
  chainId: number,
  step: (event: DepositEvent) => void,
  signal: AbortSignal,
): Promise<Notice | undefined> {
  const { config } = ctx
  const http = await ctx.partner()
  let message: string
  try {
    const challenge = await askWalletLink(http, { address: account, chainId }, signal)
    if (challenge.linked) return undefined
    message = challenge.message
  } catch (error) {
    // The kit reads deposits per chain: it may take them from another source the form offers, not
    // from this one. The buyer stays at the quote, nothing sent, and may go back and choose. The
    // registry said this backend links wallets: one without the route is not set up yet. Sent
    // anyway, the deposit would reach a kit that credits it to no one; the buyer stays at the
    // quote, nothing sent, and may confirm again.
    const choose = config.sources.some((source) => source.chainId !== chainId)
    return { kind: 'check', problem: walletLinkProblem(error, { partnerToken: config.partnerToken, choose }) }
  }
  if (!isKitMessage(message, account, chainId, ctx.target.location, config.partnerBase)) return { kind: 'refused', rule: 'link.message' }
  step({ type: 'WORK', work: 'linking' })
  let signature: string
  try {
    const hex = Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, '0')).join('')
    signature = String(await provider.request({ method: 'personal_sign', params: [`0x${hex}`, account] }))
  } catch (error) {
    const problem = walletProblemOf(error)
    return problem === 'rejected' ? { kind: 'unlinked' } : { kind: 'wallet', problem }
  }
  try {
    await sendWalletLink(http, { message, signature }, signal)
    return undefined
  } catch (error) {
    return { kind: 'check', problem: describeError(error) }
  }
}

/**
 * Asked as the price is, for a link without sign-in (effects.ts signInEffect): the same question the
 * send asks. False on a 401 (the kit knows no buyer for this link); true on any other answer (its
 * backend knows the buyer its own way, or the send says what else is wrong); undefined where it
 * could not be asked (the send asks again). Nothing is signed.
 */
export async function askSignedIn(ctx: DepositContext, account: string, chainId: number, signal: AbortSignal): Promise<boolean | undefined> {
  const { config } = ctx
  const http = await ctx.partner()
  try {
    await askWalletLink(http, { address: account, chainId }, signal)
    return true
  } catch (error) {
    if (signal.aborted || !(error instanceof ApiError)) return undefined
    return error.status !== 401
  }
}

/**
 * The lines of a sign-in message (EIP-4361) as the kit writes them, and no other: a statement,
 * then URI (the kit's own address), version, chain, nonce, issue and expiry. No resources, request id or any further line;
 * printable ASCII only (no CR, line separator, bidi override or look-alike a wallet would render).
 */
const SIGN_IN =
  /^([a-z][a-z0-9+.-]*):\/\/([^\s/]+) wants you to sign in with your Ethereum account:\n(0x[0-9a-fA-F]{40})\n\n[ -~]+\n\nURI: ([!-~]+)\nVersion: 1\nChain ID: ([0-9]+)\nNonce: [a-zA-Z0-9]{8,}\nIssued At: [!-~]+\nExpiration Time: [!-~]+$/

/**
 * A sign-in for this page (its scheme and host), the connected account and the chain the deposit
 * leaves from, written by this partner's own kit: its URI is `partnerBase` (resolved against the
 * page, as a fetch of it is), without trailing slashes, as the kit writes its publicUrl.
 */
export function isKitMessage(
  message: string,
  account: string,
  chainId: number,
  page: Pick<Location, 'host' | 'href' | 'protocol'>,
  partnerBase: string | undefined,
): boolean {
  // The kit takes back at most 2048 characters (src/server/routes/deposit.ts).
  const m = message.length <= 2048 && SIGN_IN.exec(message)
  if (!m) return false
  const [, scheme, domain, address, uri, chain] = m
  let kit: string | undefined
  try {
    kit = partnerBase && new URL(partnerBase, page.href).href.replace(/\/+$/, '')
  } catch {}
  return (
    `${scheme}:` === page.protocol &&
    domain === page.host &&
    address.toLowerCase() === account.toLowerCase() &&
    Number(chain) === chainId &&
    !!kit &&
    uri === kit
  )
}
