import type * as z from 'zod/mini'
import { ApiError, PartnerUnreachableError } from '../errors/ApiError'
import { type ResponseSchema, readResponse } from './client'
import { lazySchemas } from './lazySchemas'

/** The buyer's words for the kit's own codes: fetched when a flow opens its door to the backend, not with the flow. */
export const kitWords = lazySchemas(() => import('../errors/kitWords'))
const withKitWords = kitWords.schema('withKitWords')

/** GET and POST on the partner's backend (`partnerBase`), parsed with a contract schema. */
export type PartnerHttp = {
  get<S extends z.ZodMiniType>(path: string, query: Record<string, string | undefined>, schema: ResponseSchema<S>, signal?: AbortSignal): Promise<z.infer<S>>
  post<S extends z.ZodMiniType>(path: string, body: unknown, schema: ResponseSchema<S>, signal?: AbortSignal): Promise<z.infer<S>>
}

export type PartnerOptions = {
  /** `partnerBase`: the partner's backend, which holds the API key and forwards to /v1/... */
  base: string
  /** Sent as `Authorization: Bearer …`: how the partner's backend knows its own user. */
  token?: string
  /** The partner opted into its cookies (its backend must then allow credentials in CORS). */
  cookies?: boolean
  fetch?: typeof fetch
}

/**
 * The one door to the partner's backend, for every flow's calls (the card's, card.ts:cardCalls; the
 * bank flows'; the deposit's report): bearer token, no cookies unless the partner opted in (a
 * backend answering CORS the usual way would refuse them, and frames and hosted pages lose
 * third-party cookies in Safari and Firefox anyway), errors read by `readResponse`, the kit's own
 * codes in the buyer's words. It is not the service's widget path: no per-IP budget spent.
 */
export function createPartnerHttp({ base: partnerBase, token, cookies = false, fetch: fetchFn = fetch }: PartnerOptions): PartnerHttp {
  const base = partnerBase.replace(/\/+$/, '')
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {}
  kitWords.preload()
  async function call<S extends z.ZodMiniType>(path: string, init: RequestInit, schema: ResponseSchema<S>): Promise<z.infer<S>> {
    let res: Response
    try {
      // redirect: 'error': the kit never redirects; followed, the body (a signed message, a
      // beneficiary) would go on to wherever it points, and that answer be taken for the partner's.
      res = await fetchFn(base + path, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
        credentials: cookies ? 'include' : 'omit',
        redirect: 'error',
      })
    } catch (cause) {
      // Stopped on purpose (the effect went away): not the partner's fault.
      if (init.signal?.aborted) throw cause
      // Offline, DNS, or a CORS refusal: the browser does not say which.
      throw new PartnerUnreachableError(cause)
    }
    return readResponse(path, res, schema).catch(async (error) => {
      // The kit's own codes (never the service's) in the buyer's words; without them, the general ones.
      if (error instanceof ApiError)
        await withKitWords().then(
          (words) => words(error, path),
          () => {},
        )
      throw error
    })
  }
  return {
    get(path, query, schema, signal) {
      const params = new URLSearchParams()
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value)
      const search = params.toString()
      return call(search ? `${path}?${search}` : path, { method: 'GET', signal }, schema)
    },
    post(path, body, schema, signal) {
      return call(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal }, schema)
    },
  }
}
