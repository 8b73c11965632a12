// The partner kit as the server tests open it: the test's service (`fetch`) and store, one shop's
// origin, every line it logs kept; and a user's POST as the shop's page sends it.
import { type PartnerHandler, type PartnerHandlerOptions, createPartnerHandler } from '../../../src/server/index'

export const SHOP = 'https://shop.example'

/** The kit with the tests' key and service; `options` add to or override them (the store always comes from the test). */
export function testKit(options: Partial<PartnerHandlerOptions> & Pick<PartnerHandlerOptions, 'store'>) {
  const lines: string[] = []
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    allowedOrigins: [SHOP],
    // A token names its user.
    authenticate: (token) => token,
    log: (line) => lines.push(line),
    ...options,
  })
  return { handle, lines, as: postAs(handle) }
}

/** A POST to the kit at `base` with the user's bearer token, from a page of `origin` (null: no Origin sent), JSON both ways. */
export const postAs =
  (handle: PartnerHandler, base = SHOP) =>
  (token: string, origin: string | null = SHOP) =>
  async (path: string, body: unknown) => {
    const res = await handle(
      new Request(`${base}${path}`, {
        method: 'POST',
        headers: { ...(origin === null ? {} : { Origin: origin }), Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
    return { status: res.status, body: await res.json() }
  }

/** The kit's answer to a user naming a payment that is not theirs (or no payment at all). */
export const notFound = { status: 404, body: { error: { code: 'payment_not_found', message: 'No such payment for this user.' } } }

/** The kit's answer to `/deposit/sent` for a transaction it cannot credit to this user. */
export const notLinked = {
  status: 403,
  body: {
    error: {
      code: 'wallet_not_linked',
      message:
        'txHash: its sender is not a wallet this user linked (POST /deposit/wallet), and it pays no deposit address this backend gave this user (POST /deposit/address)',
    },
  },
}
