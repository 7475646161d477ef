/**
 * Network set-up of a bwrap sandbox from outside, for a runSandboxed `beforeStart` hook: the
 * sandbox has a network namespace of its own (loopback only), so what is changed there touches
 * nothing else on the machine.
 */
import { execFile } from 'node:child_process';

const SETUP_TIMEOUT_MS = 5_000;

/**
 * Lets every process of the sandbox bind ports below 1024 in its own network namespace
 * (net.ipv4.ip_unprivileged_port_start = 0 there), by entering the sandbox's user and network
 * namespaces with nsenter. It needs the right to enter them (root can; an unprivileged owner
 * usually cannot, as bwrap puts the program in a user namespace below the one that owns its
 * network namespace). Resolves true when the ports are open, false when they could not be opened.
 */
export function openLowPorts(sandbox: { pid: number }): Promise<boolean> {
  const argv = [
    '--target',
    String(sandbox.pid),
    '--user',
    '--net',
    '--preserve-credentials',
    '--',
    '/bin/sh',
    '-c',
    'echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start',
  ];
  return new Promise((resolve) => {
    execFile('nsenter', argv, { timeout: SETUP_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' } }, (err) => resolve(!err));
  });
}
