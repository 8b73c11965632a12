import type { Eip1193Provider } from './eip6963'

/** JSON-RPC over fetch, as small as it can be (viem's http transport is a few KB more). */
export function rpcProvider(url: string): Eip1193Provider {
  let id = 0
  return {
    async request({ method, params }) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
      })
      if (!res.ok) throw Object.assign(new Error(`RPC ${res.status}`), { code: -32603 })
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } }
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
      return body.result
    },
  }
}
