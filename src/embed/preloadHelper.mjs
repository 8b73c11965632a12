// The helper the build wraps every dynamic import() in (Vite's `__vitePreload`), in place of Vite's own
// (vite.config.ts serves this file as its virtual module): it asks for the imported chunk's static
// imports beside it, so they come in parallel, not one level after another. Vite's does the same and
// more that this bundle never uses: stylesheets imported from scripts (the build refuses them), the
// `preload` fallback of browsers without modulepreload (none the widget supports), import maps. That
// was 0.7 KB of gzip in every first load.
//
// As Vite's: each chunk asked for once (and none the page's own <link>s name already), the CSP nonce
// of <meta property="csp-nonce"> on each <link>, then the import itself; a failed import dispatches a
// cancelable `vite:preloadError` on the window, and rejects unless a listener prevented it.
const seen = {}

/**
 * @param {() => Promise<unknown>} load the import() itself
 * @param {string[] | undefined} deps the chunk's static imports, relative to `importer`
 * @param {string} importer the importing chunk's URL (import.meta.url)
 */
export const __vitePreload = (load, deps, importer) => {
  // Vite sets the flag in each chunk (true for the ES modules this build writes).
  if (__VITE_IS_MODERN__ && deps && deps.length) {
    const meta = document.querySelector('meta[property=csp-nonce]')
    const nonce = meta && (meta.nonce || meta.getAttribute('nonce'))
    for (const link of document.getElementsByTagName('link')) seen[link.href] = 1
    for (const dep of deps) {
      const href = new URL(dep, importer).href
      if (seen[href]) continue
      seen[href] = 1
      const link = document.createElement('link')
      link.rel = 'modulepreload'
      link.as = 'script'
      link.crossOrigin = ''
      link.href = href
      if (nonce) link.setAttribute('nonce', nonce)
      document.head.appendChild(link)
    }
  }
  return Promise.resolve()
    .then(load)
    .catch((error) => {
      const event = new Event('vite:preloadError', { cancelable: true })
      event.payload = error
      window.dispatchEvent(event)
      if (!event.defaultPrevented) throw error
    })
}
