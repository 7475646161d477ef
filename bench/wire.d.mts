import type net from 'node:net';

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}
export function createServer(handler: (req: WireRequest, send: (status: number, text: string) => void) => void): net.Server;
export function createClient(
  host: string,
  port: number,
): { post(path: string, headers: Record<string, string>, text: string): Promise<{ status: number; body: string }> };
