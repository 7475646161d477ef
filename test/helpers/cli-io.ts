/** What a CLI command wrote, captured: its stdout and stderr pieces, and the CliIo to pass to `main`. */
export function captureIo(home: string) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    text: () => err.join(''),
    io: {
      stdout: { write: (s: string) => out.push(s) > 0 },
      stderr: { write: (s: string) => err.push(s) > 0, isTTY: false },
      env: { HOME: home },
    },
  };
}
