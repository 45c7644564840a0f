/**
 * Text from a log (a user id, a query, a category, a file name) is printed to a terminal only through
 * {@link printable}: a control character — the escape that starts a sequence to clear the screen or set the
 * window's title, a carriage return that overwrites a line, a C1 control — is shown as `\xHH` instead of acted on.
 */

/** C0 controls (tab and line breaks included: a table cell is one line), DEL, and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `text` with each control character written `\xHH`. */
export function printable(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

/** What output must not carry raw: the controls above but tab and line feed, which lay text out. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const UNSAFE_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** A byte that starts an unsafe character in UTF-8 (C1 controls are 0xc2 0x80–0x9f). */
const unsafeByte = (b: number) => (b < 0x20 && b !== 9 && b !== 10) || b === 0x7f || b === 0xc2;

type Write = NodeJS.WriteStream["write"];
const RAW = Symbol("querymask.rawWrite");

/**
 * From now on, text written to `stream` carries no control character but tab and line feed: each other is written
 * `\uXXXX` (so JSON output stays JSON, with the same value). The CLI guards stdout and stderr, so a user id, a
 * query or a file name reaches the terminal escaped whichever line printed it; tables escape tabs and line breaks
 * too ({@link printable}). A progress bar, which draws with escapes, writes through {@link unguarded}. Guarding a
 * guarded stream does nothing.
 */
export function guardStream(stream: NodeJS.WriteStream): void {
  const current = stream.write as Write & { [RAW]?: Write };
  if (current[RAW] !== undefined) return;
  const guarded = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    let text: string | undefined;
    if (typeof chunk === "string") text = UNSAFE.test(chunk) ? chunk : undefined;
    else if (chunk instanceof Uint8Array && chunk.some(unsafeByte)) {
      const decoded = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8");
      if (UNSAFE.test(decoded)) text = decoded;
    }
    const safe =
      text === undefined
        ? chunk
        : text.replace(UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    return (current as (...a: unknown[]) => boolean).call(this, safe, ...rest);
  } as Write & { [RAW]?: Write };
  guarded[RAW] = current;
  stream.write = guarded;
}

/** A stream for `stream`'s terminal that writes around {@link guardStream} (for a progress bar's own escapes). */
export function unguarded(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const raw = (stream.write as Write & { [RAW]?: Write })[RAW];
  if (raw === undefined) return stream;
  return new Proxy(stream, {
    get: (target, key) => (key === "write" ? raw.bind(target) : Reflect.get(target, key, target)),
  });
}
