// Where the partner has a backend (partnerBase), its kit credits a deposit only to the user who
// linked the sending wallet, by signing the kit's Sign-In with Ethereum (EIP-4361) message once.
// Asked right before the first send from a wallet not linked yet. Fetched then, not with the flow.
// Only that message is ever signed, and only once it is checked to be for the connected account,
// the quote's source chain and this page: a partner backend could otherwise have the buyer sign
// something else (a sign-in elsewhere).
import { stringToHex } from 'viem'
import { type SiweMessage, createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { createPartnerHttp } from '../../api/partnerHttp'
import { askWalletLink, sendWalletLink } from '../../api/walletLink'
import { describeError } from '../../errors/describeError'
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
  const http = createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies })
  let message: string
  try {
    const challenge = await askWalletLink(http, { address: account, chainId }, signal)
    if (challenge.linked) return undefined
    message = challenge.message
  } catch (error) {
    return { kind: 'check', problem: describeError(error) }
  }
  if (!isKitMessage(message, account, chainId, ctx.target.location)) return { kind: 'refused', rule: 'link.message' }
  step({ type: 'WORK', work: 'linking' })
  let signature: string
  try {
    signature = String(await provider.request({ method: 'personal_sign', params: [stringToHex(message), account] }))
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
 * A sign-in message for this page (its host, scheme and origin), the connected account and the
 * chain the deposit leaves from, with nothing else in it: no resources, no request id, no line
 * beyond its fields (written again from its fields, it is the same text).
 */
export function isKitMessage(message: string, account: string, chainId: number, page: Pick<Location, 'host' | 'origin' | 'protocol'>): boolean {
  try {
    const m = parseSiweMessage(message)
    return (
      m.address?.toLowerCase() === account.toLowerCase() &&
      m.chainId === chainId &&
      m.domain === page.host &&
      `${m.scheme}:` === page.protocol &&
      new URL(m.uri ?? '').origin === page.origin &&
      m.version === '1' &&
      !m.resources &&
      m.requestId === undefined &&
      createSiweMessage(m as SiweMessage) === message
    )
  } catch {
    return false
  }
}
