// A node:http request's body, read only as far as the handler asks and never past the cap.
import type { IncomingMessage } from 'node:http'
import { MAX_BODY } from '../readInput'

/**
 * The request's body as a ReadableStream that reads `req` only when pulled (no buffering ahead of
 * the reader), and never past MAX_BODY: the read that crosses it hands over one byte more than
 * MAX_BODY (the kit's handler then answers 413 itself) and every later read fails.
 */
export class CappedBody {
  overflowed = false
  failed: Error | undefined
  private received = 0
  private wake: (() => void) | undefined

  /** `onFirstRead`: called once, when the reader first asks for the body (the `100 Continue` of a client waiting for one). */
  constructor(
    private readonly req: IncomingMessage,
    private readonly onFirstRead?: () => void,
  ) {}

  private release() {
    for (const event of ['readable', 'end', 'close', 'error']) this.req.off(event, this.notify)
  }

  fail(error: Error) {
    this.failed ??= error
    this.notify()
  }

  private readonly notify = () => {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  stream(): ReadableStream<Uint8Array> {
    const { req } = this
    let listening = false
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          if (!listening) {
            listening = true
            this.onFirstRead?.()
            for (const event of ['readable', 'end', 'close', 'error']) req.on(event, this.notify)
          }
          for (;;) {
            if (this.failed) return controller.error(this.failed)
            const chunk: Buffer | null = req.destroyed ? null : req.read()
            if (chunk !== null) {
              this.received += chunk.byteLength
              if (this.received > MAX_BODY) {
                this.overflowed = true
                this.failed = new Error(`the request body is over ${MAX_BODY} bytes`)
                return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength - (this.received - MAX_BODY - 1)))
              }
              return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
            }
            if (req.readableEnded) return controller.close()
            if (req.destroyed) return controller.error(new Error('the client closed the connection before its body arrived'))
            await new Promise<void>((resolve) => (this.wake = resolve))
          }
        },
        cancel: () => this.release(),
      },
      { highWaterMark: 0 },
    )
  }
}
