/** The SDK v2 2.4.0 server (createMcpHandler) serving the reference tools on 127.0.0.1. */
export function startSdkV2Reference(options?: { legacy?: 'stateless' | 'reject' }): Promise<{
  readonly url: string;
  close(): Promise<void>;
}>;
