// The hosted and iframe pages' first screen, drawn from their HTML before any module has run
// (issue 19). scripts/build.mjs inlines this function, called with its data, right after
// <div id="app">; the strict CSP allows it by its hash. It decides nothing: the link's signature,
// the options and every request stay the app's. It only draws, and hands over.
//
// Draws the flow's <template id="sw-first-FLOW"> (the app's own first screen, rendered at build time
// by src/embed/firstScreens.tsx) only where the app would draw exactly that screen:
//  - the link names a registered partner and a flow with a template, and the entry offers the flow
//    (its `flows`, else the build's default) with what the flow needs;
//  - it carries only options the drawn screen shows as the app would (`free`: the theme, the card's
//    currencies, and those that do not change a first screen): no amount, no brand, no signed
//    wallet, nothing registry-only;
//  - its locale (else the browser's) is read in English, as the app chooses its catalog;
//  - nothing of this partner's (on its service) is stored in this origin or tab (a stored flow or
//    identity draft resumes elsewhere).
// Otherwise the page stays empty until the app draws, as before.
//
// A submit or a button pressed on the drawn screen is held (the live region says it is loading).
// The app renders into a new element beside it: that element is taken out of the page until the
// app's first screen is in it (not its "Loading…"); then, in one task, it takes the drawn screen's
// place. Where the app drew the same screen (the same heading), what the buyer did goes to it
// through the app's own handlers: each typed value as input and change events to the field of the
// same id, the focus and caret, then the held submit, or a press on the button of the same words
// (a wallet the app lists later: once it shows). A different screen (a refused link, a resumed flow) takes
// nothing of it. The app removes the drawn screen itself before it shows a refused link.
/* eslint-disable */
export function firstPaint(d) {
  const p = new URLSearchParams(location.search)
  const flow = p.get('flow')
  const root = document.getElementById('app')
  const template = flow && document.getElementById(`sw-first-${flow}`)
  if (!root || !template || template.tagName !== 'TEMPLATE') return
  // A repeated option is refused by the app; so is any option not in `free` here.
  const keys = [...p.keys()]
  if (new Set(keys).size !== keys.length || !keys.every((key) => d.free.includes(key))) return
  const theme = p.get('theme') ?? d.defaultTheme
  const currencies = p.get('currencies')?.split(',')
  if (!d.themes.includes(theme) || (currencies && !currencies.every((c) => /^[A-Z]{3}$/.test(c)))) return
  let entry
  try {
    entry = JSON.parse(document.getElementById('stablecoin-widget-partners').textContent).find((e) => e.id === p.get('partner'))
  } catch {}
  if (!entry || !Object.hasOwn(d.needs, flow) || d.needs[flow].some((need) => !entry[need]) || !(entry.flows ?? d.flows).includes(flow)) return
  const locale = p.get('locale') || navigator.language || 'en'
  const language = locale.split('-')[0].toLowerCase()
  if (d.catalogs.some((c) => c === locale || c.split('-')[0] === language)) return
  // This partner's records on its service only (src/storage/safeStorage.ts scopedStorage).
  const scope = d.stored + JSON.stringify([entry.id, entry.apiBase])
  for (const storage of ['localStorage', 'sessionStorage']) {
    try {
      for (let i = 0; i < window[storage].length; i++) {
        const key = window[storage].key(i)
        if (key.startsWith(scope) && !d.unrelated.includes(key.slice(scope.length))) return
      }
    } catch {}
  }

  const drawn = template.content.firstElementChild.cloneNode(true)
  const widget = drawn.querySelector('.widget')
  widget.lang = locale
  widget.dataset.theme = theme
  // The card's currencies, as its form lists them: a choice where there are two or more.
  // The unit beside the amount is the currency chosen, as on the app's form.
  const select = drawn.querySelector('select#currency')
  const unit = drawn.querySelector('.unit')
  if (select && currencies) {
    const option = (c) => Object.assign(document.createElement('option'), { value: c, textContent: c })
    if (currencies.length > 1) select.replaceChildren(...currencies.map(option))
    else select.closest('.field').remove()
    unit.textContent = currencies[0]
  }
  select?.addEventListener('change', () => (unit.textContent = select.value))
  // The iframe page offers its close button only in a frame.
  if (window.parent === window) drawn.querySelector('.close')?.remove()
  // A button is known by its wallet (data-wallet: the same id as the app's discovery gives it), else
  // by its words among the buttons that are no wallet.
  const keyOf = (button) => (button.dataset.wallet !== undefined ? `wallet ${button.dataset.wallet}` : `words ${button.textContent}`)
  let pending
  const edited = new Set()
  drawn.addEventListener('input', (event) => edited.add(event.target), true)
  drawn.addEventListener('change', (event) => edited.add(event.target), true)
  const hold = (event, what) => {
    event.preventDefault()
    event.stopImmediatePropagation()
    pending = what
    drawn.querySelector('.live').textContent = d.loading
  }
  drawn.addEventListener('submit', (event) => hold(event, 'submit'), true)
  drawn.addEventListener(
    'click',
    (event) => {
      const button = event.target.closest('button')
      if (button && button.type !== 'submit') hold(event, keyOf(button))
    },
    true,
  )
  root.append(drawn)

  // The deposit lists the wallets that announce themselves (EIP-6963), as its screen does: the same
  // checks (a name; a provider; an icon only as a data:image URI, else none), the same markup.
  const wallets = document.getElementById('sw-wallets')
  // Listening ends with the drawn screen (the app listens for itself).
  const listening = new AbortController()
  if (flow === d.discovers && wallets) {
    const seen = new Set()
    let list
    let one
    addEventListener(
      'eip6963:announceProvider',
      (event) => {
        const info = event.detail?.info
        if (!info || typeof info.name !== 'string' || typeof event.detail.provider?.request !== 'function' || !drawn.isConnected) return
        const id = `${String(info.uuid ?? info.rdns ?? '')}|${String(info.rdns ?? '')}`
        if (seen.has(id)) return
        seen.add(id)
        if (!list) {
          list = wallets.content.querySelector('ul').cloneNode(true)
          one = list.firstElementChild
          list.textContent = ''
          drawn.querySelector('section p[role="status"]').replaceWith(list)
        }
        const item = one.cloneNode(true)
        item.querySelector('button').dataset.wallet = id
        const icon = item.querySelector('img')
        if (typeof info.icon === 'string' && /^data:image\/[a-z+.-]+[;,]/i.test(info.icon)) icon.src = info.icon
        else icon.remove()
        item.querySelector('span').textContent = info.name.slice(0, 60)
        list.append(item)
      },
      { signal: listening.signal },
    )
    dispatchEvent(new Event('eip6963:requestProvider'))
  }

  const fields = (el) => [...el.querySelectorAll('input[id], select[id], textarea[id]')]
  const byId = (el, id) => fields(el).find((f) => f.id === id)
  // The app drew the same screen as the drawn one (the same heading).
  const sameScreen = (app) => app.querySelector('h1')?.textContent === drawn.querySelector('h1').textContent
  const handOver = (app) => {
    const same = sameScreen(app)
    const focused = document.activeElement
    const inDrawn = drawn.contains(focused)
    drawn.replaceWith(app)
    listening.abort()
    if (!same) return
    for (const typed of fields(drawn)) {
      if (!edited.has(typed)) continue
      const real = byId(app, typed.id)
      if (!real || real.tagName !== typed.tagName || real.value === typed.value) continue
      real.value = typed.value
      real.dispatchEvent(new Event('input', { bubbles: true }))
      real.dispatchEvent(new Event('change', { bubbles: true }))
    }
    // The app's one button of that key; none where two share it.
    const button = (key) => {
      const found = [...app.querySelectorAll('button')].filter((b) => keyOf(b) === key)
      return found.length === 1 ? found[0] : undefined
    }
    if (inDrawn) {
      const target = focused.tagName === 'BUTTON' ? button(keyOf(focused)) : byId(app, focused.id)
      target?.focus()
      try {
        if (focused.selectionStart !== null) target.setSelectionRange(focused.selectionStart, focused.selectionEnd)
      } catch {}
    }
    if (pending === 'submit') app.querySelector('form')?.requestSubmit()
    else if (pending !== undefined) {
      const found = button(pending)
      if (found) found.click()
      // A wallet the app lists later (a slow discovery): pressed once it shows, within 10 s, unless
      // the buyer acts on the app's screen first.
      else if (pending.startsWith('wallet ')) {
        const stop = () => {
          late.disconnect()
          clearTimeout(timer)
          for (const type of ['pointerdown', 'keydown']) app.removeEventListener(type, stop, true)
        }
        // Only on the same screen: a button of that wallet on another one is no press the buyer made.
        const late = new MutationObserver(() => {
          if (!sameScreen(app)) return stop()
          const shown = button(pending)
          if (shown) stop(), shown.click()
        })
        late.observe(app, { childList: true, subtree: true })
        const timer = setTimeout(stop, 10_000)
        for (const type of ['pointerdown', 'keydown']) app.addEventListener(type, stop, true)
      }
    }
  }
  // The app's element: the element mountWidget puts into #app, with the widget rendered in it. It is
  // ready once its main region holds more than "Loading…" and, on the same screen, every button the
  // buyer saw (the deposit's wallets answer the app a moment later), or a second after that at the
  // latest.
  new MutationObserver((records, rootObserver) => {
    if (!drawn.isConnected) {
      listening.abort()
      return rootObserver.disconnect()
    }
    const app = records.flatMap((r) => [...r.addedNodes]).find((n) => n.nodeType === 1 && n !== drawn && n.querySelector('.widget'))
    if (!app) return
    rootObserver.disconnect()
    // Out of the page until it is ready: one screen at a time (no second heading, no ids twice).
    app.remove()
    let timer
    const ready = (late) => {
      if (!drawn.isConnected) {
        listening.abort()
        if (!app.isConnected) root.append(app)
        return true
      }
      const main = app.querySelector('main')
      if (!main?.firstElementChild || main.querySelector(':scope > p[role="status"]')) return false
      const keys = [...app.querySelectorAll('button')].map(keyOf)
      const same = sameScreen(app)
      if (same && !late && ![...drawn.querySelectorAll('button')].every((b) => keys.includes(keyOf(b)))) {
        timer ??= setTimeout(() => ready(true), 1000)
        return false
      }
      clearTimeout(timer)
      handOver(app)
      return true
    }
    if (!ready()) new MutationObserver((_, observer) => ready() && observer.disconnect()).observe(app, { childList: true, subtree: true, characterData: true })
  }).observe(root, { childList: true })
}
