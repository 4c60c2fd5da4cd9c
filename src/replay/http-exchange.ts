/** A request as the engine sees it. */
export interface IncomingRequest {
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/** Where a response goes: a node:http response, an msw stream, a stdout. */
export interface ResponseSink {
  head(status: number, headers: Record<string, string>): void;
  write(bytes: Uint8Array | string): void;
  /** Writes the pieces of one event as one write, without joining them first, where the sink can. */
  writeAll?(pieces: readonly Uint8Array[]): void;
  end(): void;
  /** Called once if the client goes away before `end()`. */
  onClose(listener: () => void): void;
}
