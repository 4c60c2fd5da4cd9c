/** Counts progress notifications in a stream's reads in order, those cut across reads included. */
export function progressCounter(): (bytes: Uint8Array) => number;

/** Reads HTTP/1.1 responses off one connection, one at a time (see session-client.mjs). */
export function responseReader(): {
  expect(onBody: (bytes: Buffer) => void): Promise<{ status: number; headers: Record<string, string> }>;
  push(bytes: Buffer): void;
  fail(message: string): void;
};

/** One keep-alive HTTP/1.1 connection to `url`'s host; `onRead`'s bytes are valid during the call only (see session-client.mjs). */
export function rawConnection(url: string): Promise<{
  post(
    body: string,
    headers: Record<string, string>,
    onRead: (bytes: Buffer, t: number) => void,
  ): Promise<{ status: number; session: string | undefined }>;
  close(): void;
}>;
