// The browser's Back as the widget's own Back, where the widget owns the page's history (the hosted
// page; a partner's page only when the partner opts in with `history: true`).
//
// While the screen shows a Back button (`button[data-back]`, every flow's own "Back"), one entry of
// ours sits on top of the page's history. The browser's Back takes it off, and the widget presses its
// own Back: one screen back, by the flow's own rule, so what was typed stays and nothing is sent
// twice. A screen without a Back button (past the point of no return, or the first) has nothing to go
// back to inside the widget: the browser's Back then goes where it always went. The URL never changes.

const KEY = 'stablecoinWidgetBack'

const ours = (state: unknown) => typeof state === 'object' && state !== null && (state as Record<string, unknown>)[KEY] === true

export function followBrowserBack(root: HTMLElement, win: Window = window): () => void {
  let armed = ours(win.history.state)
  // The page's address when our entry went on: the entry under it has the same one. A popstate that
  // lands elsewhere (a link to a fragment, `<a href="#reviews">`, adds an entry without our state and
  // fires popstate too) is not the browser's Back off our entry, and presses nothing.
  let armedAt = win.location.href
  const backButton = () => root.querySelector<HTMLButtonElement>('button[data-back]')

  const arm = () => {
    if (armed || !root.isConnected || !backButton()) return
    win.history.pushState({ ...(win.history.state ?? {}), [KEY]: true }, '')
    armedAt = win.location.href
    armed = true
  }
  const onPop = (event: PopStateEvent) => {
    const wasArmed = armed
    armed = ours(event.state)
    // Forward onto our entry again: the screen stays as it is.
    if (armed || !wasArmed || win.location.href !== armedAt) return
    const button = backButton()
    if (!button) return
    // Busy (a request in flight): stay on this screen, and keep the entry for the next Back.
    if (button.disabled) return arm()
    button.click()
    // The screen it lands on may show a Back button of its own: seen once it is drawn (the observer,
    // or after this task where the drawing changes nothing the observer watches).
    setTimeout(arm)
  }

  const observer = new MutationObserver(arm)
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'data-back'] })
  win.addEventListener('popstate', onPop)
  arm()
  return () => {
    observer.disconnect()
    win.removeEventListener('popstate', onPop)
  }
}
