// Raw-socket helpers for hostile requests against createNodeListener (public API only). Nothing
// here measures time: every helper resolves on an event (an answer, a close).
import { connect } from 'node:net'
import { type FetchHandler, type NodeListenerOptions, createNodeListener, createPartnerHandler } from '../../../../src/server/index'
import { type Listening, listen } from '../../helpers/httpAttacks'

export type Served = Listening & {
  /** Lines the listener logged. */
  lines: string[]
  /** How many requests reached the fetch handler. */
  calls: () => number
}

export async function serve(handle: FetchHandler, options: NodeListenerOptions = {}): Promise<Served> {
  const lines: string[] = []
  let calls = 0
  const listener = createNodeListener((request) => (calls++, handle(request)), { log: (line) => lines.push(line), ...options })
  // The listener alone, without its checkContinue: node:http answers 'Expect: 100-continue' itself here.
  return { ...(await listen((req, res) => listener(req, res))), lines, calls: () => calls }
}

/** What each hostile test's kit is: on /partner for https://shop.example, the bearer token its user's id. */
export const KIT_BASICS = {
  apiBase: 'https://api.example',
  apiKey: 'sk_test_key',
  allowedOrigins: ['https://shop.example'],
  basePath: '/partner',
  authenticate: (token: string) => token,
}

/** The kit on /partner; its service a fake that records every request and answers `answer`. */
export function kit(
  options: Partial<Parameters<typeof createPartnerHandler>[0]> = {},
  answer: (url: string, init: RequestInit) => Response = () => Response.json({ limits: [] }),
) {
  const lines: string[] = []
  const forwarded: Array<{ url: string; body?: unknown }> = []
  const handle = createPartnerHandler({
    ...KIT_BASICS,
    allowAnonymous: true,
    fetch: (async (input: string | URL, init: RequestInit) => {
      forwarded.push({ url: String(input), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined })
      return answer(String(input), init)
    }) as unknown as typeof fetch,
    log: (line) => lines.push(line),
    ...options,
  })
  return { handle, lines, forwarded }
}

// The raw-socket client, the answers' reader and the code reader are the shared ones.
export { answers, client, code, rawExchange as exchange } from '../../helpers/httpAttacks'
