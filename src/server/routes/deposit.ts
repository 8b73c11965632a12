// The crypto deposit, where the partner has a backend: the widget says which transaction it sent
// (never its receipt: the kit reads that from the chain), then asks its status by the kit's id. The
// deposit is the user's when it pays, as quoted, a deposit address the kit asked the service for
// on that user's behalf (POST /deposit/address, ../depositAddress.ts: paid by address, from an
// exchange or any wallet), or else when its sender is a wallet that user linked: the kit's message
// to sign with it (EIP-4361), then that message signed (../walletLink.ts).
import type { Hex } from 'viem'
import * as z from 'zod/mini'
import { depositQuote, depositStatus } from '../../api/schemas-deposit'
import { chainProblem } from '../chainClients'
import { byDepositAddress, plainTransfer } from '../depositAddress'
import { canonicalDestination, destinationOf, sameDestination } from '../depositDestination'
import { cryptoDepositId } from '../store/kinds'
import type { PaymentStore } from '../store/paymentStore'
import { type LinkAnswer, linkWallet, walletChallenge } from '../walletLink'
import { address, chain, decimal, text, txHash } from './fields'
import { type Call, type Handle, type Route, limitRefusal, post, userOf } from './route'

const statusRoute: Route = post('/deposit/status', z.strictObject({ id: text(256) }), async (call, data) => {
  const payments = await call.kit.store()
  const id = data.id as string
  if ((await payments.ownerOf('deposit', id)) !== userOf(call)) return call.notFound()
  // The provider and the receipt the kit read from the chain, as the contract's request.
  return call.forward(call.route, (await payments.detailsOf('deposit', id)) ?? {})
})

const sent: Handle = async (call, data) => {
  const { provider, txHash, chainId } = data as { provider: string; txHash: `0x${string}`; chainId: number }
  const { kit, fail } = call
  const user = userOf(call)
  const payments = await kit.store()
  const id = cryptoDepositId(provider, txHash)
  // The transaction under any provider's spelling: one transaction is one deposit. The owner's
  // own retry is answered at once; any other goes through the same checks as a transaction
  // nobody recorded, so that whose it is shows neither in the answer nor in what is checked.
  const held = await payments.depositOf(txHash)
  if (held && held.userId === user && held.id === id) return call.reply(200, { id })
  if (!Object.hasOwn(kit.config.chains, chainId)) return fail(400, 'chain_not_configured', `chainId: ${chainId} is not a chain this backend reads`)
  const read = await kit.readReceipt(chainId, txHash)
  if (!read.ok) {
    if (read.log) kit.log(read.log)
    return read.status === 502 ? fail(502, 'chain_unreachable', read.problem) : fail(422, 'deposit_unverified', read.problem)
  }
  // A transaction's hash is public on the chain, and naming it proves nothing: it is this user's
  // when it pays a deposit address the kit asked for this user (as quoted, after it was given),
  // whoever sent it; else only from a sender this user linked by signing with it (walletLink.ts).
  // Nobody's and another user's sender are refused alike (whose an address is, is not told), and
  // an address another user asked for is never this user's, whoever sent to it.
  const quoted = await byDepositAddress(payments, user, chainId, read)
  if (typeof quoted === 'object') return fail(422, 'deposit_not_as_quoted', quoted.notAsQuoted)
  if (quoted !== 'mine') {
    if (!read.paysOut) return fail(422, 'deposit_unverified', 'txHash: the transaction moves no token out of its sender')
    if ((await payments.addressHolder(read.from)) !== user) {
      return fail(
        403,
        'wallet_not_linked',
        'txHash: its sender is not a wallet this user linked (POST /deposit/wallet), and it pays no deposit address this backend gave this user (POST /deposit/address)',
      )
    }
    if (quoted === 'another') return call.notFound()
  }
  // This user's, and recorded already: under another provider's spelling, or by a user who named
  // it before the wallet was linked to this one.
  if (held) return call.notFound()
  // Over the limit already: the service is not asked (it is asked again below, one at a time).
  const limitReached = () => limitRefusal(call, payments, user, 'deposit')
  const early = await limitReached()
  if (early) return early
  const details = { provider, receipt: read.receipt }
  // Any token transfer off the chain passes the receipt's checks: only a deposit the service knows is recorded.
  const known = await call.forward(statusRoute, details, async (answer) => {
    if (!depositStatus.safeParse(answer).success) {
      kit.log(`${statusRoute.method} ${statusRoute.upstream}: the answer does not match the contract; nothing was recorded`)
      return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
    }
    return kit.oneAtATime(user, async () => {
      const late = await limitReached()
      if (late) return late
      if (!(await payments.recordPayment({ kind: 'deposit', id, userId: user, details }))) return call.notFound()
      return call.reply(200, { id })
    })
  })
  // The contract's /deposit/status refuses a receipt with no deposit in it with a 400.
  if (known.status === 400) return fail(422, 'deposit_unverified', 'txHash: the payment service knows no deposit in this transaction')
  return known
}

/**
 * The message names the page it is signed for: only a page (with its Origin) links a wallet. And
 * this kit (publicUrl, required with chains; without chains no message is written or taken).
 */
type Asked = { user: string; origin: string; kit: string; now: Date }
function linking(work: (call: Call, data: Record<string, unknown>, payments: PaymentStore, asked: Asked) => Promise<LinkAnswer | Response>): Handle {
  return async (call, data) => {
    const payments = await call.kit.store()
    if (call.origin === null) return call.fail(403, 'origin_not_allowed', 'Origin: a wallet is linked from a page of allowedOrigins')
    const asked = { user: userOf(call), origin: call.origin, kit: call.kit.config.publicUrl ?? '', now: new Date() }
    const link = await work(call, data, payments, asked)
    if (link instanceof Response) return link
    if (link.status === 200) return call.reply(200, link.body)
    if (link.log) call.kit.log(link.log)
    return call.fail(link.status, link.code, link.problem)
  }
}

/**
 * POST /deposit/address: the deposit quote, asked of the service with the key for this user, its
 * deposit address recorded to the user before the quote is answered (the widget shows it only then).
 * The deposit settles where the partner said (depositDestination), never where the browser asks:
 * the kit credits it to the user, so it must pay the partner, not the buyer's own wallet. With no
 * source.address (the widget names none: the buyer's exchange is not known), the partner's own
 * address is the sender the service hears, so that anything it sends back reaches the partner.
 */
const quoteAddress: Handle = async (call, data) => {
  const { kit, fail } = call
  const user = userOf(call)
  const source = data.source as { chainId: number; token: string }
  if (!Object.hasOwn(kit.config.chains, source.chainId))
    return fail(400, 'chain_not_configured', `source.chainId: ${source.chainId} is not a chain this backend reads`)
  const destination = await destinationOf(kit.config.depositDestination, user)
  if (destination === 'bad') {
    kit.log('depositDestination: the function answered no { chainId, token, address } for a user; no deposit address given')
    return fail(500, 'kit_error', 'Unexpected error in the partner backend.')
  }
  if (destination === 'none') {
    return fail(
      400,
      'destination_not_configured',
      'This backend sets no depositDestination: it gives no deposit address, since it could not tell where the deposit settles',
    )
  }
  const asked = data.destination === undefined ? destination : canonicalDestination(data.destination)
  if (!asked || !sameDestination(asked, destination)) {
    return fail(
      400,
      'destination_not_allowed',
      'destination: deposits through this backend settle where the partner set (depositDestination); leave it out, or name exactly that one',
    )
  }
  const payments = await kit.store()
  // A user at their limit is given no address: a transfer to it would not be recorded (/deposit/sent
  // checks the same limit), against what the buyer is told (it counts as their deposit).
  const over = await limitRefusal(call, payments, user, 'deposit')
  if (over) return over
  // The block before the address is given: a transfer mined in it or before is someone else's.
  let fromBlock: bigint
  try {
    fromBlock = await (await kit.chainClient(source.chainId)).getBlockNumber()
  } catch (error) {
    kit.log(chainProblem(source.chainId, error))
    return fail(502, 'chain_unreachable', `The chain ${source.chainId} could not be read.`)
  }
  // The partner's own address, where the deposit settles, is the sender (an exchange's is not known):
  // anything the service sends back to it reaches the partner. Never one the browser names: a refund
  // would reach the buyer while the partner made them whole too.
  const sender = { ...source, address: destination.address }
  return call.forward(call.route, { ...data, source: sender, destination }, async (answer) => {
    const quote = depositQuote.safeParse(answer)
    if (!quote.success) {
      kit.log('POST /v1/deposit/quote: the answer does not match the contract; nothing was recorded')
      return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
    }
    // A quote paid otherwise (an approval, a contract call) links no address: answered as it came.
    const paid = plainTransfer(quote.data, source)
    if (!paid) return undefined
    let refused: string | undefined
    try {
      refused = await notGivable(call, payments, paid.address, destination.address, source.chainId)
    } catch (error) {
      kit.log(chainProblem(source.chainId, error))
      return fail(502, 'chain_unreachable', `The chain ${source.chainId} could not be read.`)
    }
    if (refused) {
      kit.log(`POST /v1/deposit/quote: the service gave ${refused} as the deposit address; not handed over`)
      return fail(502, 'deposit_address_refused', 'The payment service gave a deposit address this backend cannot give: ask again for another.')
    }
    if (await payments.recordDepositAddress({ ...paid, userId: user, fromBlock: fromBlock.toString() })) return undefined
    kit.log('POST /v1/deposit/quote: the service gave a deposit address this backend gave another user; not handed over')
    return fail(409, 'deposit_address_taken', 'The payment service gave a deposit address this backend already gave someone: ask again for another.')
  })
}

/**
 * Why an address may not be one user's deposit address, if it may not: every exact transfer into it
 * would be that user's deposit. The partner's own (another buyer's refund, its own funds), a wallet
 * a user linked (that user's own payments), a contract on the chain (a router's or a depositor's:
 * other buyers' deposits pass through it). The service's fresh deposit addresses are none of these.
 */
async function notGivable(call: Call, payments: PaymentStore, address: string, partner: string, chainId: number): Promise<string | undefined> {
  if (address === partner) return "the partner's own address (depositDestination)"
  if (await payments.addressHolder(address)) return 'a wallet a user linked'
  const code = await (await call.kit.chainClient(chainId)).getCode({ address: address as Hex })
  return code && code !== '0x' ? 'a contract on its chain' : undefined
}

const side = z.strictObject({ chainId: chain, token: address, address })
const senderSide = z.strictObject({ chainId: chain, token: address, address: z.optional(address) })

export const depositRoutes: readonly Route[] = [
  post('/deposit/sent', z.strictObject({ provider: text(128), txHash, chainId: chain }), sent),
  {
    ...post(
      '/deposit/address',
      z.strictObject({ source: senderSide, destination: z.optional(side), amount: decimal, method: z.literal('crypto') }),
      quoteAddress,
    ),
    upstream: '/v1/deposit/quote',
  },
  statusRoute,
  post(
    '/deposit/wallet',
    z.strictObject({ address, chainId: chain }),
    linking(async (call, data, payments, asked) => {
      const { address, chainId } = data as { address: string; chainId: number }
      if (!Object.hasOwn(call.kit.config.chains, chainId))
        return call.fail(400, 'chain_not_configured', `chainId: ${chainId} is not a chain this backend reads`)
      return walletChallenge(payments, { ...asked, address, chainId })
    }),
  ),
  post(
    '/deposit/wallet/link',
    z.strictObject({
      message: text(2048),
      // 65 bytes from an account's key; a smart wallet's (EIP-1271, ERC-6492) may be much longer.
      signature: z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2}){65,6000}$/, 'must be a signature: 0x and at least 130 hex digits')),
    }),
    linking(async (call, data, payments, asked) => {
      const { message, signature } = data as { message: string; signature: `0x${string}` }
      return linkWallet(payments, call.kit.chainClient, { ...asked, message, signature })
    }),
  ),
]
