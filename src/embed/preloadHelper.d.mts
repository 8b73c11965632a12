// Types of preloadHelper.mjs (the build serves it as Vite's preload helper: vite.config.ts).
/** Asks for `deps` (relative to `importer`) beside the import, then runs `load`. */
export declare const __vitePreload: <T>(load: () => Promise<T>, deps: string[] | undefined, importer: string) => Promise<T>
