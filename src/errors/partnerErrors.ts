// What the partner's page hears when the widget's own code did not load: a stable code for its logic
// and a fixed message, from the script-tag loader and the runtime alike. Never words made of
// String(error): a thrown value can carry a URL with a token, or a stack. The buyer-facing catalogs are
// not loaded yet at that point (they come with the code that failed), so the message is this one.
export const loadFailed = { code: 'load_failed', message: '[stablecoin-widget] not loaded' } as const
