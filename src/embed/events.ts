// Events to the embedding: a DOM event on this window and, when framed, a message to the
// configured parent origin only (never "*"). The typed protocol grows with the embed modes.
export type WidgetEvents = {
  account: { accountId: string; walletId: string; virtualAccountId: string; details: Record<string, string>; feeBps: number }
}

export const PROTOCOL = { source: 'stablecoin-widget', version: 1 } as const

export function emitWidgetEvent<K extends keyof WidgetEvents>(name: K, payload: WidgetEvents[K], parentOrigin?: string) {
  window.dispatchEvent(new CustomEvent(`stablecoin-widget:${name}`, { detail: payload }))
  if (parentOrigin && window.parent !== window) {
    window.parent.postMessage({ ...PROTOCOL, type: name, payload }, parentOrigin)
  }
}
