/** The run's log as the runner shows it: info, warnings as annotations, debug lines, collapsible groups. */
import * as core from '@actions/core';
import type { Log } from '../util/log.js';

export const actionLog: Log = {
  info: (m) => core.info(m),
  warn: (m) => core.warning(m),
  debug: (m) => core.debug(m),
  group: (name, fn) => core.group(name, fn),
};
