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
